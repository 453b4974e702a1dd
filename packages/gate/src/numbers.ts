// Number helpers shared by the policies. Thresholds are compared on rounded percentages because
// binary floating point does not represent the seed's decimal examples exactly:
// (1.4 - 1.0) / 1.0 * 100 is 39.99999999999999 in IEEE 754, yet the seed calls it 40% and BLOCKs.
// The rounding is to 9 decimals: enough to absorb that error (1e-14), never enough to round a
// real difference up ("+39.9999999%" is under 40% and does not BLOCK; 6 decimals made it 40).

/** Precision (decimal places) at which percentages and ratios are compared with thresholds. */
export const COMPARE_DECIMALS = 9;

/**
 * A text's length in Unicode code points, as the seed counts characters ("😀" is one, not the two
 * UTF-16 units of `.length`). Counted in place: no array of characters is built.
 */
export function codePointLength(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Rounds half away from zero (Math.round alone rounds -0.5 up to -0, which reads oddly). */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** decimals;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor)) / factor;
  return rounded === 0 ? 0 : rounded; // never -0
}

/**
 * Relative change from `base` to `value` in percent, rounded for threshold comparison.
 * base 0: value 0 is no change (0); anything above 0 is an unbounded increase (+Infinity).
 */
export function percentChange(base: number, value: number): number {
  if (base === 0) return value === 0 ? 0 : Number.POSITIVE_INFINITY;
  return roundTo(((value - base) / base) * 100, COMPARE_DECIMALS);
}

/** "+40.00" / "-12.50" / "+inf": the signed figure of a policy title. */
export function signed(value: number, decimals: number): string {
  if (value === Number.POSITIVE_INFINITY) return "+inf";
  const rounded = roundTo(value, decimals);
  return `${rounded >= 0 ? "+" : "-"}${Math.abs(rounded).toFixed(decimals)}`;
}

/** A threshold as people wrote it: 40 -> "40", 37.5 -> "37.5". */
export function threshold(value: number): string {
  return String(value);
}

/**
 * Where an increase falls against a policy's warn and block thresholds (each inclusive), and the
 * threshold it crossed (0 when none), for the reason text.
 */
export function increaseBand(
  increasePct: number,
  thresholds: { warn_increase_pct: number; block_increase_pct: number },
): { status: "ALLOW" | "WARN" | "BLOCK"; crossed: number } {
  if (increasePct >= thresholds.block_increase_pct) return { status: "BLOCK", crossed: thresholds.block_increase_pct };
  if (increasePct >= thresholds.warn_increase_pct) return { status: "WARN", crossed: thresholds.warn_increase_pct };
  return { status: "ALLOW", crossed: 0 };
}

const BAND_RANK = { ALLOW: 0, WARN: 1, BLOCK: 2 } as const;

/**
 * An absolute rise (dollars, milliseconds) against optional thresholds (each inclusive, compared
 * at COMPARE_DECIMALS like the percentages): the band it reaches and the threshold it crossed.
 */
export function absoluteBand(
  rise: number,
  warn: number | undefined,
  block: number | undefined,
): { status: "ALLOW" | "WARN" | "BLOCK"; crossed: number } {
  const r = roundTo(rise, COMPARE_DECIMALS);
  if (block !== undefined && r >= block) return { status: "BLOCK", crossed: block };
  if (warn !== undefined && r >= warn) return { status: "WARN", crossed: warn };
  return { status: "ALLOW", crossed: 0 };
}

/** Whether band `a` is worse than band `b`. */
export function worseBand(a: "ALLOW" | "WARN" | "BLOCK", b: "ALLOW" | "WARN" | "BLOCK"): boolean {
  return BAND_RANK[a] > BAND_RANK[b];
}
