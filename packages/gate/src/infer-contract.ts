// The output contract a JSON baseline implies, for full mode when none is configured (issue 24):
// the candidate keeps the baseline's keys, at every level, with the same JSON types. A baseline
// null says nothing about the type; a number accepts an integer; extra keys are allowed (adding
// is not breaking a consumer). Arrays are judged by their first baseline element. Bounded: at
// most MAX_NODES values are compared, so a huge output costs no more than a fixed walk.

const MAX_NODES = 2_000;
/** How many paths a reason lists (the details keep up to MAX_LISTED). */
const MAX_LISTED = 50;

export type TInferredFindings = { missing: string[]; mismatched: string[] };

type TFamily = "null" | "array" | "object" | "number" | "string" | "boolean";

function familyOf(value: unknown): TFamily {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return "number";
  if (typeof value === "string" || typeof value === "boolean") return typeof value as TFamily;
  return "object";
}

const pathOf = (parent: string, key: string) =>
  /^[A-Za-z_$][\w$]*$/.test(key) ? (parent ? `${parent}.${key}` : key) : `${parent}[${JSON.stringify(key)}]`;

/** Where `candidate` breaks the shape of `baseline`: keys it lost and values whose type changed. */
export function compareToBaseline(baseline: unknown, candidate: unknown): TInferredFindings {
  const found: TInferredFindings = { missing: [], mismatched: [] };
  let budget = MAX_NODES;
  const walk = (base: unknown, cand: unknown, path: string): void => {
    if (budget-- <= 0) return;
    const want = familyOf(base);
    if (want === "null") return;
    const got = familyOf(cand);
    if (want !== got) {
      if (found.mismatched.length < MAX_LISTED)
        found.mismatched.push(`${path || "(root)"} (expected ${want}, got ${got})`);
      return;
    }
    if (want === "object") {
      const b = base as Record<string, unknown>;
      const c = cand as Record<string, unknown>;
      for (const key of Object.keys(b)) {
        const at = pathOf(path, key);
        if (!Object.hasOwn(c, key)) {
          if (found.missing.length < MAX_LISTED) found.missing.push(at);
          continue;
        }
        walk(b[key], c[key], at);
      }
    } else if (want === "array") {
      const b = base as unknown[];
      const c = cand as unknown[];
      if (b.length === 0) return;
      for (let i = 0; i < c.length && budget > 0; i++) walk(b[0], c[i], `${path}[${i}]`);
    }
  };
  walk(baseline, candidate, "");
  return found;
}

/** The baseline's parsed JSON when it is an object or an array (a contract to infer), else undefined. */
export function structuredBaseline(output: string, parse: (text: string) => unknown): unknown {
  const text = output.trim();
  if (!text.startsWith("{") && !text.startsWith("[")) return undefined;
  try {
    const value = parse(text);
    return value !== null && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}
