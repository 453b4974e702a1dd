// When a scheduled workflow (the Umbra beat) runs next: plain date arithmetic in UTC, with the
// clock passed in, so the same schedule and `now` always give the same answer. UTC keeps a
// schedule free of daylight-saving jumps (a local 02:30 may not exist, or happen twice).

export const SCHEDULE_CADENCES = ["daily", "weekly"] as const;
export type TScheduleCadence = (typeof SCHEDULE_CADENCES)[number];

/** A schedule as Jam editors set it: `time_of_day` is "HH:MM" in UTC; weekly also names the day. */
export type TScheduleSpec = {
  cadence: TScheduleCadence;
  time_of_day: string;
  /** 0 = Sunday … 6 = Saturday (as Date#getUTCDay); weekly only. */
  weekday?: number | null | undefined;
};

/** 00:00 to 23:59, two digits each: "7:5" or "24:00" are refused rather than guessed at. */
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

export const WEEKDAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

const DAY_MS = 86_400_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every problem with a schedule's shape, each as "field: rule"; empty when it is valid. */
export function scheduleProblems(spec: unknown): string[] {
  if (!isRecord(spec)) return ["schedule: must be an object with cadence and time_of_day"];
  const problems: string[] = [];
  const { cadence, time_of_day: time, weekday } = spec;
  if (!SCHEDULE_CADENCES.includes(cadence as TScheduleCadence)) problems.push('cadence: must be "daily" or "weekly"');
  if (typeof time !== "string" || !TIME_OF_DAY_PATTERN.test(time)) {
    problems.push('time_of_day: must be HH:MM in UTC, e.g. "06:30"');
  }
  const hasWeekday = weekday !== undefined && weekday !== null;
  if (hasWeekday && (typeof weekday !== "number" || !Number.isInteger(weekday) || weekday < 0 || weekday > 6)) {
    problems.push("weekday: must be a whole number from 0 (Sunday) to 6 (Saturday)");
  } else if (cadence === "weekly" && !hasWeekday) {
    problems.push("weekday: is required for a weekly schedule (0 = Sunday … 6 = Saturday)");
  } else if (cadence === "daily" && hasWeekday) {
    problems.push("weekday: only a weekly schedule names a day; leave it out for a daily one");
  }
  return problems;
}

/**
 * The first occurrence of the schedule strictly after `now`: a run due exactly now has already
 * been claimed by whoever asks, so the next one is a day (or a week) later. Computing from `now`
 * rather than from the last due time is what makes missed occurrences (a server down for days)
 * run once, not once per missed day. Throws a RangeError for an invalid schedule or clock.
 */
export function nextOccurrence(spec: TScheduleSpec, now: Date): Date {
  const problems = scheduleProblems(spec);
  if (problems.length > 0) throw new RangeError(problems.join("; "));
  if (Number.isNaN(now.getTime())) throw new RangeError("now: is not a valid date");
  const [hours, minutes] = spec.time_of_day.split(":").map(Number) as [number, number];
  // Date.UTC carries day overflow into the month and year (Jan 31 + 1 → Feb 1, Dec 31 + 1 → Jan 1).
  const days = spec.cadence === "weekly" ? ((spec.weekday as number) - now.getUTCDay() + 7) % 7 : 0;
  let at = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, hours, minutes);
  if (at <= now.getTime()) at += (spec.cadence === "weekly" ? 7 : 1) * DAY_MS;
  return new Date(at);
}

/** "daily at 06:30 UTC" / "weekly on Monday at 06:30 UTC", for logs and CLI lines. */
export function describeSchedule(spec: TScheduleSpec): string {
  const day = spec.cadence === "weekly" ? ` on ${WEEKDAY_NAMES[spec.weekday ?? -1] ?? `day ${spec.weekday}`}` : "";
  return `${spec.cadence}${day} at ${spec.time_of_day} UTC`;
}
