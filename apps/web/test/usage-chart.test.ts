// The CFB usage chart's numbers (pure, no React): totals, the sentence screen readers hear, and
// the stacked bars inside the SVG's coordinate system.
import { describe, expect, it } from "vitest";
import {
  CHART_HEIGHT,
  CHART_WIDTH,
  dayLabel,
  type TUsageDay,
  usageBars,
  usageScaleMax,
  usageSummary,
  usageTotals,
} from "@/lib/usage-chart";

const days: TUsageDay[] = [
  { day: "2025-03-08", injected: 0, used: 0, ignored: 0 },
  { day: "2025-03-09", injected: 4, used: 1, ignored: 1 },
  { day: "2025-03-10", injected: 2, used: 2, ignored: 0 },
];

describe("usage chart", () => {
  it("totals each kind", () => {
    expect(usageTotals(days)).toEqual({ injected: 6, used: 3, ignored: 1 });
    expect(usageTotals([])).toEqual({ injected: 0, used: 0, ignored: 0 });
  });

  it("summarises the window, the totals and the busiest day in one sentence", () => {
    expect(usageSummary(days)).toBe(
      `Usage per day over 3 days, ${dayLabel("2025-03-08")} to ${dayLabel("2025-03-10")}: ` +
        `injected 6 times, used 3, ignored 1; busiest day ${dayLabel("2025-03-09")} (4 injections).`,
    );
    expect(usageSummary([{ day: "2025-03-10", injected: 1, used: 0, ignored: 0 }])).toContain("1 day,");
    expect(usageSummary([])).toBe("No usage data.");
  });

  it("labels days in UTC, whatever the reader's time zone", () => {
    expect(dayLabel("2025-03-10")).toMatch(/10/);
    expect(dayLabel("not a day")).toBe("not a day");
  });

  it("stacks used, ignored and injected-only from the bottom, scaled to the busiest day", () => {
    expect(usageScaleMax(days)).toBe(4);
    const bars = usageBars(days);
    expect(bars.map((b) => b.day)).toEqual(days.map((d) => d.day));
    expect(bars[0]?.segments).toEqual([]);
    // 4 injections fill the height: 1 used, 1 ignored, 2 neither.
    expect(bars[1]?.segments).toEqual([
      { kind: "used", y: 75, height: 25 },
      { kind: "ignored", y: 50, height: 25 },
      { kind: "injected-only", y: 0, height: 50 },
    ]);
    expect(bars[2]?.segments).toEqual([{ kind: "used", y: 50, height: 50 }]);
    for (const bar of bars) {
      expect(bar.x).toBeGreaterThanOrEqual(0);
      expect(bar.x + bar.width).toBeLessThanOrEqual(CHART_WIDTH);
      for (const s of bar.segments) expect(s.y + s.height).toBeLessThanOrEqual(CHART_HEIGHT + 1e-9);
    }
    expect(bars[1]?.label).toBe(`${dayLabel("2025-03-09")}: injected 4, used 1, ignored 1`);
  });

  it("draws nothing taller than the chart when every day is empty", () => {
    expect(usageScaleMax([{ day: "2025-03-10", injected: 0, used: 0, ignored: 0 }])).toBe(1);
    expect(usageBars([{ day: "2025-03-10", injected: 0, used: 0, ignored: 0 }])[0]?.segments).toEqual([]);
  });
});
