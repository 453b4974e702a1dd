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

/**
 * The path ("context.thread_memento.summary", "[2].message") of the first string in `value`,
 * object key or value, that holds a lone surrogate; null when there is none. Walks plain JSON
 * data, so every string a request carries is checked in one place before any schema runs.
 */
export function loneSurrogatePath(value: unknown, path: string[] = []): string | null {
  const here = () => (path.length > 0 ? path.join(".") : "(input)");
  if (typeof value === "string") return hasLoneSurrogate(value) ? here() : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = loneSurrogatePath(item, [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (hasLoneSurrogate(key)) return [...path, key].join(".");
      const found = loneSurrogatePath(item, [...path, key]);
      if (found) return found;
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
