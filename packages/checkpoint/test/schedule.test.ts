// The schedule arithmetic as tables: the next occurrence strictly after `now` (exactly at the
// time, month and year ends, leap days, weekly before/after the time on its own day), and the
// shape's validation with the field and the rule in each message.
import { describe, expect, it } from "vitest";
import { describeSchedule, nextOccurrence, scheduleProblems, type TScheduleSpec } from "../src";

const daily = (time_of_day: string): TScheduleSpec => ({ cadence: "daily", time_of_day });
const weekly = (weekday: number, time_of_day: string): TScheduleSpec => ({ cadence: "weekly", time_of_day, weekday });
const at = (iso: string) => new Date(iso);

describe("nextOccurrence", () => {
  // 2025-03-03 is a Monday (weekday 1).
  it.each<[string, TScheduleSpec, string, string]>([
    ["daily, later today", daily("06:30"), "2025-03-03T05:00:00.000Z", "2025-03-03T06:30:00.000Z"],
    ["daily, exactly at the time → tomorrow", daily("06:30"), "2025-03-03T06:30:00.000Z", "2025-03-04T06:30:00.000Z"],
    ["daily, a millisecond before", daily("06:30"), "2025-03-03T06:29:59.999Z", "2025-03-03T06:30:00.000Z"],
    ["daily, a millisecond after", daily("06:30"), "2025-03-03T06:30:00.001Z", "2025-03-04T06:30:00.000Z"],
    ["daily at midnight", daily("00:00"), "2025-03-03T00:00:00.000Z", "2025-03-04T00:00:00.000Z"],
    ["daily at 23:59", daily("23:59"), "2025-03-03T23:59:30.000Z", "2025-03-04T23:59:00.000Z"],
    ["end of a 31-day month", daily("06:30"), "2025-01-31T07:00:00.000Z", "2025-02-01T06:30:00.000Z"],
    ["end of February", daily("06:30"), "2025-02-28T07:00:00.000Z", "2025-03-01T06:30:00.000Z"],
    ["leap day", daily("06:30"), "2024-02-28T07:00:00.000Z", "2024-02-29T06:30:00.000Z"],
    ["end of the year", daily("06:30"), "2025-12-31T23:00:00.000Z", "2026-01-01T06:30:00.000Z"],
    ["weekly, same day before the time", weekly(1, "06:30"), "2025-03-03T06:00:00.000Z", "2025-03-03T06:30:00.000Z"],
    ["weekly, same day at the time", weekly(1, "06:30"), "2025-03-03T06:30:00.000Z", "2025-03-10T06:30:00.000Z"],
    ["weekly, same day after the time", weekly(1, "06:30"), "2025-03-03T09:00:00.000Z", "2025-03-10T06:30:00.000Z"],
    ["weekly, later this week", weekly(5, "18:00"), "2025-03-03T09:00:00.000Z", "2025-03-07T18:00:00.000Z"],
    ["weekly, earlier day → next week", weekly(0, "08:00"), "2025-03-03T09:00:00.000Z", "2025-03-09T08:00:00.000Z"],
    ["weekly, across the year end", weekly(4, "06:30"), "2025-12-31T12:00:00.000Z", "2026-01-01T06:30:00.000Z"],
    ["weekly on Saturday from Sunday", weekly(6, "06:30"), "2025-03-02T12:00:00.000Z", "2025-03-08T06:30:00.000Z"],
  ])("%s", (_, spec, now, expected) => {
    expect(nextOccurrence(spec, at(now)).toISOString()).toBe(expected);
  });

  it("after days of downtime, gives the one next occurrence from now, not the missed ones", () => {
    expect(nextOccurrence(daily("06:30"), at("2025-03-10T12:00:00.000Z")).toISOString()).toBe(
      "2025-03-11T06:30:00.000Z",
    );
  });

  it("is always strictly after now and at most a period away", () => {
    for (let minute = 0; minute < 7 * 24 * 60; minute += 97) {
      const now = new Date(Date.UTC(2025, 2, 3) + minute * 60_000 + 123);
      for (const spec of [daily("06:30"), weekly(3, "22:15")]) {
        const next = nextOccurrence(spec, now).getTime();
        const period = (spec.cadence === "weekly" ? 7 : 1) * 86_400_000;
        expect(next).toBeGreaterThan(now.getTime());
        expect(next - now.getTime()).toBeLessThanOrEqual(period);
      }
    }
  });

  it("throws a RangeError naming the field for an invalid schedule, and for an invalid clock", () => {
    expect(() => nextOccurrence(daily("24:00"), at("2025-03-03T00:00:00Z"))).toThrow(RangeError);
    expect(() => nextOccurrence(daily("24:00"), at("2025-03-03T00:00:00Z"))).toThrow(/^time_of_day: /);
    expect(() => nextOccurrence({ cadence: "weekly", time_of_day: "06:30" }, at("2025-03-03T00:00:00Z"))).toThrow(
      /^weekday: is required/,
    );
    expect(() => nextOccurrence(daily("06:30"), new Date(Number.NaN))).toThrow("now: is not a valid date");
  });
});

describe("scheduleProblems", () => {
  const TIME = 'time_of_day: must be HH:MM in UTC, e.g. "06:30"';
  it.each<[string, unknown, string[]]>([
    ["a valid daily schedule", { cadence: "daily", time_of_day: "06:30" }, []],
    ["a valid daily schedule with weekday null", { cadence: "daily", time_of_day: "00:00", weekday: null }, []],
    ["a valid weekly schedule", { cadence: "weekly", time_of_day: "23:59", weekday: 0 }, []],
    ["24:00", { cadence: "daily", time_of_day: "24:00" }, [TIME]],
    ["7:5", { cadence: "daily", time_of_day: "7:5" }, [TIME]],
    ["07:60", { cadence: "daily", time_of_day: "07:60" }, [TIME]],
    ["seconds", { cadence: "daily", time_of_day: "07:30:00" }, [TIME]],
    ["padding", { cadence: "daily", time_of_day: " 07:30" }, [TIME]],
    ["a number", { cadence: "daily", time_of_day: 730 }, [TIME]],
    ["an unknown cadence", { cadence: "hourly", time_of_day: "07:30" }, ['cadence: must be "daily" or "weekly"']],
    [
      "weekly without a day",
      { cadence: "weekly", time_of_day: "07:30" },
      ["weekday: is required for a weekly schedule (0 = Sunday … 6 = Saturday)"],
    ],
    [
      "weekday 7",
      { cadence: "weekly", time_of_day: "07:30", weekday: 7 },
      ["weekday: must be a whole number from 0 (Sunday) to 6 (Saturday)"],
    ],
    [
      "weekday 1.5",
      { cadence: "weekly", time_of_day: "07:30", weekday: 1.5 },
      ["weekday: must be a whole number from 0 (Sunday) to 6 (Saturday)"],
    ],
    [
      "daily naming a day",
      { cadence: "daily", time_of_day: "07:30", weekday: 2 },
      ["weekday: only a weekly schedule names a day; leave it out for a daily one"],
    ],
    [
      "everything wrong at once",
      { cadence: "monthly", time_of_day: "25:00", weekday: -1 },
      ['cadence: must be "daily" or "weekly"', TIME, "weekday: must be a whole number from 0 (Sunday) to 6 (Saturday)"],
    ],
    ["not an object", "daily", ["schedule: must be an object with cadence and time_of_day"]],
  ])("%s", (_, spec, problems) => {
    expect(scheduleProblems(spec)).toEqual(problems);
  });
});

describe("describeSchedule", () => {
  it.each<[TScheduleSpec, string]>([
    [daily("06:30"), "daily at 06:30 UTC"],
    [weekly(1, "06:30"), "weekly on Monday at 06:30 UTC"],
  ])("%o → %s", (spec, text) => {
    expect(describeSchedule(spec)).toBe(text);
  });
});
