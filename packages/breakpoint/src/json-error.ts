// Where a JSON text first goes wrong, for an error line that says "line 3, column 15" on every
// Node version (V8's own messages only sometimes carry a position). Only run after JSON.parse
// has failed; a small RFC 8259 scanner, iterative so deep nesting cannot overflow the stack.

export interface TJsonErrorLocation {
  offset: number;
  /** e.g. `unexpected ","` or `unexpected end of file`. */
  found: string;
  /** e.g. `a value`, `"," or "}"`. */
  expected: string;
}

const WS = new Set([" ", "\t", "\n", "\r"]);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function describeChar(text: string, at: number): string {
  if (at >= text.length) return "unexpected end of file";
  const ch = text.codePointAt(at) ?? 0;
  if (ch < 0x20) return `unexpected control character U+${ch.toString(16).toUpperCase().padStart(4, "0")}`;
  return `unexpected ${JSON.stringify(String.fromCodePoint(ch))}`;
}

type Frame = { kind: "object" | "array"; state: "first" | "next" | "key" | "colon" | "value" };

export function locateJsonError(text: string): TJsonErrorLocation | null {
  let i = 0;
  const skipWs = () => {
    while (i < text.length && WS.has(text[i] ?? "")) i++;
  };
  const fail = (expected: string, at = i): TJsonErrorLocation => ({
    offset: at,
    found: describeChar(text, at),
    expected,
  });
  const matchAt = (re: RegExp): number => {
    re.lastIndex = i;
    return re.exec(text) === null ? -1 : re.lastIndex;
  };
  /** Scan a string at i; returns an error or null (i moves past it). */
  const scanString = (): TJsonErrorLocation | null => {
    let j = i + 1;
    while (j < text.length) {
      const c = text[j] ?? "";
      if (c === '"') {
        i = j + 1;
        return null;
      }
      if (c.charCodeAt(0) < 0x20) return { offset: j, found: describeChar(text, j), expected: "a closing quote" };
      if (c === "\\") {
        const e = text[j + 1] ?? "";
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) {
            return { offset: j, found: "invalid \\u escape", expected: "4 hex digits" };
          }
          j += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(e) || e === "") {
          return { offset: j, found: "invalid escape", expected: 'one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u' };
        }
        j += 2;
        continue;
      }
      j++;
    }
    return { offset: j, found: describeChar(text, j), expected: "a closing quote" };
  };
  /** Scan a scalar or open a container; returns an error, or the new frame to push. */
  const scanValue = (stack: Frame[]): TJsonErrorLocation | null => {
    skipWs();
    const c = text[i];
    if (c === "{") {
      i++;
      stack.push({ kind: "object", state: "first" });
      return null;
    }
    if (c === "[") {
      i++;
      stack.push({ kind: "array", state: "first" });
      return null;
    }
    if (c === '"') return scanString();
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return null;
      }
    }
    const end = c === "-" || (c !== undefined && c >= "0" && c <= "9") ? matchAt(NUMBER) : -1;
    if (end >= 0) {
      i = end;
      return null;
    }
    return fail("a value");
  };

  const stack: Frame[] = [];
  const first = scanValue(stack);
  if (first) return first;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    skipWs();
    const c = text[i];
    const close = frame.kind === "object" ? "}" : "]";
    if (frame.state === "first" || frame.state === "next") {
      if (frame.state === "first" && c === close) {
        i++;
        stack.pop();
        continue;
      }
      if (frame.kind === "object") {
        if (c !== '"') return fail(frame.state === "first" ? `a key or "}"` : "a key (no trailing commas)");
        const err = scanString();
        if (err) return err;
        frame.state = "colon";
        continue;
      }
      const afterComma = frame.state === "next";
      frame.state = "value";
      const err = scanValue(stack);
      if (err) return afterComma && c === "]" ? fail("a value (no trailing commas)") : err;
      continue;
    }
    if (frame.state === "colon") {
      if (c !== ":") return fail('":"');
      i++;
      frame.state = "value";
      const err = scanValue(stack);
      if (err) return err;
      continue;
    }
    // state "value": a value was just scanned; expect "," or the close.
    if (c === ",") {
      i++;
      frame.state = "next";
      continue;
    }
    if (c === close) {
      i++;
      stack.pop();
      continue;
    }
    return fail(`"," or "${close}"`);
  }
  skipWs();
  return i < text.length ? fail("end of file (one JSON value per file)") : null;
}
