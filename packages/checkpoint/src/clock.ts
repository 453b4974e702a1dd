// Time as the host passes it in: the runner never reads a clock, so a run replays identically.

import { CheckpointError } from "./errors";

/** A point in time from the host's clock: a Date, or ISO 8601 text. */
export type TNow = Date | string;

/** `now` as the text stored in logs and records; refuses an invalid Date or unparsable text. */
export function timestamp(now: TNow): string {
  if (now instanceof Date) {
    if (Number.isNaN(now.getTime())) throw new CheckpointError("INVALID_INPUT", "now: is an invalid Date");
    return now.toISOString();
  }
  if (typeof now !== "string" || Number.isNaN(Date.parse(now))) {
    throw new CheckpointError("INVALID_INPUT", "now: must be a Date or an ISO 8601 timestamp");
  }
  return now;
}
