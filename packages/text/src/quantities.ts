// Numbers with their units: what two near-identical texts about the same subject differ in
// ("15 A" against "20 A", "30 days" against "14 days", "$12" against "$15", "02:00" against
// "03:00"). A unit is a word of data/units.json right after the number ("15A", "15 A" and "15 amps"
// are one quantity); a currency sign right before it counts as its unit. One pass over the text.
import data from "../data/units.json" with { type: "json" };
import { fold } from "./fold";

const UNITS: ReadonlyMap<string, string> = new Map(Object.entries(data.units));
const CURRENCIES: Readonly<Record<string, string>> = { $: "USD", "€": "EUR", "£": "GBP", "¥": "JPY" };

/** A number as written ("15", "12.6", "02:00") and its unit ("A", "day", "USD") or null. */
export type TQuantity = { value: string; unit: string | null };

/** Whether a folded word is a unit (a number glued to it is cut from it: "15a" → "15", "a"). */
export function isUnit(word: string): boolean {
  return UNITS.has(word);
}

/** `value unit` as one comparable string ("15 A", "90 day", "02:00", "12 USD"). */
export function quantityKey(q: TQuantity): string {
  return q.unit === null ? q.value : `${q.value} ${q.unit}`;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isLetter = (ch: string) => /\p{L}/u.test(ch);

/** A plain number without its leading zeros ("090" → "90"); decimals and times as written, "," read as ".". */
function canonical(value: string): string {
  const v = value.replace(",", ".");
  if (v.includes(":") || v.includes(".")) return v;
  let i = 0;
  while (i < v.length - 1 && v[i] === "0") i++;
  return v.slice(i);
}

/** The quantities of `text`, in order. Digits inside words ("k8s", "sha256") are not quantities. */
export function quantities(text: string): TQuantity[] {
  const s = fold(text);
  const out: TQuantity[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (!isDigit(c)) {
      i++;
      continue;
    }
    if (i > 0 && isLetter(s[i - 1] as string)) {
      // Digits inside a word ("sha256", "k8s"): skip the rest of it.
      while (i < s.length && (isDigit(s.charCodeAt(i)) || isLetter(s[i] as string))) i++;
      continue;
    }
    let j = i;
    while (
      j < s.length &&
      (isDigit(s.charCodeAt(j)) || (".,:".includes(s[j] as string) && isDigit(s.charCodeAt(j + 1))))
    )
      j++;
    const value = canonical(s.slice(i, j));
    const currency = CURRENCIES[s[i - 1] ?? ""] ?? null;
    // The word after it, glued ("15a") or after spaces ("15 amps").
    let k = j;
    while (k < s.length && s[k] === " ") k++;
    let e = k;
    while (e < s.length && isLetter(s[e] as string)) e++;
    const word = s.slice(k, e);
    // "15 A" is amperes, "$300 a seat" an article: apart from its number, a one-letter unit
    // counts only as written in capitals (where folding kept the positions to check it).
    const article = word.length === 1 && k > j && (s.length !== text.length || text[k] !== text[k]?.toUpperCase());
    const unit = word === "" || article ? null : (UNITS.get(word) ?? null);
    if (unit === null && j < s.length && isLetter(s[j] as string)) {
      // Letters glued to it that are no unit ("2fa", "3rd"): a word, not a quantity.
      i = e;
      continue;
    }
    out.push({ value, unit: unit ?? currency });
    i = unit === null ? j : e;
  }
  return out;
}
