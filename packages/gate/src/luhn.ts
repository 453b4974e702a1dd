// The Luhn (mod 10) check every payment card number carries. It catches every single-digit
// error, which is why the PII scanner uses it to tell card numbers from other long numbers.

/** True when `digits` is a non-empty string of ASCII digits whose Luhn checksum is 0 mod 10. */
export function luhnValid(digits: string): boolean {
  if (digits.length === 0) return false;
  let sum = 0;
  let double = false; // the check digit (rightmost) is not doubled; every second one leftwards is
  for (let i = digits.length - 1; i >= 0; i--) {
    const d = digits.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      const twice = d * 2;
      sum += twice > 9 ? twice - 9 : twice;
    } else {
      sum += d;
    }
    double = !double;
  }
  return sum % 10 === 0;
}

/** The digit that makes `payload + digit` Luhn-valid (used by tests and fixtures). */
export function luhnCheckDigit(payload: string): string {
  for (let d = 0; d <= 9; d++) {
    if (luhnValid(`${payload}${d}`)) return String(d);
  }
  throw new Error("payload must be ASCII digits");
}
