import type { z } from "zod";

// User text as it enters: strings a person typed must be valid Unicode (no unpaired UTF-16
// surrogate, which SQLite and JSON encoders silently turn into U+FFFD) and, where a message must
// say something, more than invisible characters.

/** An unpaired high or low surrogate: not a character, and not storable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Characters that render as nothing: format characters (zero-width space / joiners, bidi
 * controls and isolates, word joiner, BOM, soft hyphen, tag characters), variation selectors,
 * the Hangul fillers, the Braille blank and the combining grapheme joiner, plus whitespace.
 */
const INVISIBLE = /[\p{Cf}\p{White_Space}\p{Variation_Selector}\u115F\u1160\u2800\u3164\uFFA0]|\u034F/gu;

/**
 * `text` without the characters at its end for which `drop` holds. A loop, not `/[…]+$/`: an
 * end-anchored run retries from every position, quadratic on a long run that does not end the
 * text ("////…/x"), and this runs on request paths and people's text.
 */
export function trimEndWhile(text: string, drop: (char: string) => boolean): string {
  let end = text.length;
  while (end > 0 && drop(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** The text without its invisible characters: empty when nothing in it would show. */
export function visibleText(text: string): string {
  return text.replace(INVISIBLE, "");
}

export const LONE_SURROGATE_RULE = "must not contain a lone surrogate (an unpaired UTF-16 code unit)";
export const INVISIBLE_ONLY_RULE =
  "must contain visible characters, not only invisible ones (zero-width, bidi controls)";

/** Request data nested deeper than this is refused: no payload a person or service sends needs it. */
export const MAX_INPUT_DEPTH = 64;
export const TOO_DEEP_RULE = `must not nest arrays and objects more than ${MAX_INPUT_DEPTH} levels deep`;

type TNode = { value: unknown; key: string | null; parent: TNode | null; depth: number };

const pathOf = (node: TNode, key?: string) => {
  const keys: string[] = key === undefined ? [] : [key];
  for (let n: TNode | null = node; n !== null && n.key !== null; n = n.parent) keys.unshift(n.key);
  return keys.length > 0 ? keys.join(".") : "(input)";
};

/**
 * What is wrong with the strings of request data, checked in one place before any schema runs:
 * the path ("context.thread_memento.summary", "2.message") of the first string, object key or
 * value, holding a lone surrogate, or of the first array or object nested deeper than
 * MAX_INPUT_DEPTH; null when nothing is. Iterative, with the path built only for the answer, so
 * a hostile 20,000-level body costs one pass and never the call stack.
 */
export function inputTextProblem(value: unknown): { path: string; rule: string } | null {
  const stack: TNode[] = [{ value, key: null, parent: null, depth: 0 }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    const v = node.value;
    if (typeof v === "string") {
      if (hasLoneSurrogate(v)) return { path: pathOf(node), rule: LONE_SURROGATE_RULE };
      continue;
    }
    if (!v || typeof v !== "object") continue;
    if (node.depth >= MAX_INPUT_DEPTH) return { path: pathOf(node), rule: TOO_DEEP_RULE };
    const entries = Array.isArray(v) ? v.map((item, i) => [String(i), item] as const) : Object.entries(v);
    // Pushed last to first, so the first entry is looked at first.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as readonly [string, unknown];
      if (!Array.isArray(v) && hasLoneSurrogate(key)) return { path: pathOf(node, key), rule: LONE_SURROGATE_RULE };
      stack.push({ value: item, key, parent: node, depth: node.depth + 1 });
    }
  }
  return null;
}

/** Run a refinement only when the string passed its earlier checks: one rule reported per field. */
const afterEarlierChecks = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

/** A string that must say something: refused when empty once invisible characters are removed. */
export function ZVisibleText<T extends z.ZodString>(schema: T) {
  return schema
    .refine((text) => !hasLoneSurrogate(text), { error: LONE_SURROGATE_RULE, ...afterEarlierChecks })
    .refine((text) => visibleText(text) !== "", { error: INVISIBLE_ONLY_RULE, ...afterEarlierChecks });
}
