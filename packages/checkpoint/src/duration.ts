// Durations as definitions write them: a whole number and one unit, "30s", "10m", "2h", "1d".
// One unit only, so a value reads the same to a person and to the parser ("1h30m" is "90m").

import { CheckpointError } from "./errors";

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION_PATTERN = /^(\d{1,9})(s|m|h|d)$/;

/** The shortest duration a definition may name: anything shorter is a typo, not a timeout. */
export const MIN_DURATION_MS = UNIT_MS.s;
/** The longest: a run left waiting longer than a month has been forgotten, not scheduled. */
export const MAX_DURATION_MS = 30 * UNIT_MS.d;

/** Why `text` is not a duration, or undefined when it is one within the bounds. */
export function durationProblem(text: unknown): string | undefined {
  if (typeof text !== "string") return 'must be a duration like "30s", "10m", "2h" or "1d"';
  const match = DURATION_PATTERN.exec(text);
  if (!match) return `"${text}" is not a duration: write a whole number and one unit (s, m, h, d), e.g. "10m"`;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  if (ms < MIN_DURATION_MS || ms > MAX_DURATION_MS) return `"${text}" is out of range: from 1s to 30d`;
  return undefined;
}

/** "10m" → 600000. Throws CheckpointError("INVALID_INPUT") for anything durationProblem refuses. */
export function parseDuration(text: string): number {
  const problem = durationProblem(text);
  if (problem !== undefined) throw new CheckpointError("INVALID_INPUT", `duration: ${problem}`);
  const match = DURATION_PATTERN.exec(text) as RegExpExecArray;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}
