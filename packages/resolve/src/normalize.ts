// The seed's `normalize` (001 §5.2), shared by the fingerprint and the tag / entity overlaps so a
// tag that differs only in case or spacing is the same tag everywhere.

/** Lower-cased, whitespace runs collapsed to one space, ends trimmed. */
export function normalizeText(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}
