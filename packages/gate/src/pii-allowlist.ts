// Allowlist semantics (contracts' ZGateConfig.pii.allowlist): an entry is either an exact value,
// compared case-insensitively (phones, cards and SSNs by their digits only, so "415-555-1212"
// also allows "(415) 555-1212" and "+1 415 555 1212"), or `*suffix`, which allows every value
// ending with the suffix (e.g. `*@example.com`; for phones, cards and SSNs the suffix is compared
// by digits, so `*1212` allows any number ending in 1212). No regexes: the scan stays linear whatever the
// config says. A lone `*` allows everything of every type.

import type { TPiiType } from "@solserver/contracts";

type Entry = { exact: boolean; text: string; digits: string };

export type CompiledAllowlist = readonly Entry[];

export function digitsOf(value: string): string {
  let out = "";
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 48 && c <= 57) out += value[i];
  }
  return out;
}

/** US numbers are compared without the country code: 14155551212 and 4155551212 are one number. */
function phoneDigits(value: string): string {
  const digits = digitsOf(value);
  return digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
}

export function compileAllowlist(entries: readonly string[]): CompiledAllowlist {
  return entries.map((entry) => {
    const exact = !entry.startsWith("*");
    const text = (exact ? entry : entry.slice(1)).toLowerCase();
    return { exact, text, digits: digitsOf(text) };
  });
}

export function isAllowlisted(allow: CompiledAllowlist, match: { type: TPiiType; value: string }): boolean {
  if (allow.length === 0) return false;
  const byDigits = match.type !== "EMAIL";
  const value = byDigits ? "" : match.value.toLowerCase();
  const digits = !byDigits ? "" : match.type === "PHONE" ? phoneDigits(match.value) : digitsOf(match.value);
  for (const entry of allow) {
    if (entry.exact) {
      if (byDigits) {
        const want = match.type === "PHONE" ? phoneDigits(entry.text) : entry.digits;
        if (want.length > 0 && want === digits) return true;
      } else if (entry.text === value) {
        return true;
      }
    } else if (entry.text.length === 0) {
      return true; // "*"
    } else if (byDigits) {
      if (entry.digits.length > 0 && digits.endsWith(entry.digits)) return true;
    } else if (value.endsWith(entry.text)) {
      return true;
    }
  }
  return false;
}
