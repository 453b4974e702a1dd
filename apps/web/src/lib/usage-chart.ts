// The CFB page's usage chart as numbers: totals, the sentence a screen reader hears, and each
// day's stacked bar (used, ignored, injected only) in the SVG's own units. No React here.

export type TUsageDay = { day: string; injected: number; used: number; ignored: number };
type TUsageSegmentKind = "used" | "ignored" | "injected-only";
type TUsageSegment = { kind: TUsageSegmentKind; y: number; height: number };
export type TUsageBar = { day: string; x: number; width: number; segments: TUsageSegment[]; label: string };

/** The SVG's coordinate system: it scales to its box (viewBox, preserveAspectRatio none). */
export const CHART_WIDTH = 300;
export const CHART_HEIGHT = 100;
/** Share of each day's slot the bar fills; the rest is the gap between bars. */
const BAR_FILL = 0.7;

export function usageTotals(days: readonly TUsageDay[]) {
  return days.reduce(
    (t, d) => ({ injected: t.injected + d.injected, used: t.used + d.used, ignored: t.ignored + d.ignored }),
    { injected: 0, used: 0, ignored: 0 },
  );
}

/**
 * A day's bar, bottom to top: used, ignored, then the injections the answer neither used nor
 * ignored. Only injected CFBs count as used or ignored, so the bar's height is the injections.
 */
function stackOf(d: TUsageDay): { kind: TUsageSegmentKind; value: number }[] {
  return [
    { kind: "used", value: d.used },
    { kind: "ignored", value: d.ignored },
    { kind: "injected-only", value: Math.max(0, d.injected - d.used - d.ignored) },
  ];
}
const barTotal = (d: TUsageDay) => stackOf(d).reduce((sum, s) => sum + s.value, 0);

/** The tallest bar's count: the top of the chart's scale (at least 1). */
export function usageScaleMax(days: readonly TUsageDay[]): number {
  return Math.max(1, ...days.map(barTotal));
}

/** "Tue 4 Mar" style label of a "YYYY-MM-DD" day (the day is UTC, so shown in UTC). */
export function dayLabel(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return day;
  return date.toLocaleDateString(undefined, { day: "numeric", month: "short", timeZone: "UTC" });
}

const times = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the chart shows, in one sentence: the window, totals and the busiest day. */
export function usageSummary(days: readonly TUsageDay[]): string {
  const first = days[0];
  const last = days.at(-1);
  if (!first || !last) return "No usage data.";
  const t = usageTotals(days);
  const window = `${times(days.length, "day")}, ${dayLabel(first.day)} to ${dayLabel(last.day)}`;
  const busiest = days.reduce((best, d) => (d.injected > best.injected ? d : best), first);
  const peak =
    busiest.injected > 0 ? `; busiest day ${dayLabel(busiest.day)} (${times(busiest.injected, "injection")})` : "";
  return `Usage per day over ${window}: injected ${times(t.injected, "time")}, used ${t.used}, ignored ${t.ignored}${peak}.`;
}

/** Each day's stacked bar, oldest on the left; empty days have no segments. */
export function usageBars(days: readonly TUsageDay[]): TUsageBar[] {
  const max = usageScaleMax(days);
  const slot = CHART_WIDTH / Math.max(1, days.length);
  const width = slot * BAR_FILL;
  return days.map((d, i) => {
    let top = CHART_HEIGHT;
    const segments = stackOf(d).flatMap((s) => {
      if (s.value === 0) return [];
      const height = (s.value / max) * CHART_HEIGHT;
      top -= height;
      return [{ kind: s.kind, y: top, height }];
    });
    return {
      day: d.day,
      x: i * slot + (slot - width) / 2,
      width,
      segments,
      label: `${dayLabel(d.day)}: injected ${d.injected}, used ${d.used}, ignored ${d.ignored}`,
    };
  });
}
