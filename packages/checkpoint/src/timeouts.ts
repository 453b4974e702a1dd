// Checkpoint timeouts: after a while, either one of the checkpoint's options is taken for the
// person, or the decision escalates to other assignees (once). The runner computes the deadline
// when the run reaches the checkpoint; expireDecision (expire.ts) applies it when the host's clock
// says it passed. Nothing here reads a clock.

import { z } from "zod";
import { assigneesIssues, type TAssignees, ZAssignees, ZAssigneesSpec } from "./assignees";
import { parseDuration } from "./duration";
import { ZDuration } from "./executors";
import { addIssue, type TIssues, type TPath } from "./issues";
import { isPlainArray, isPlainObject } from "./plain-data";

const TIMEOUT_FORM = "needs exactly one of option or escalate_to";

/** As a definition writes it: `after` and exactly one of option / escalate_to. */
export const ZTimeoutSpec = z
  .strictObject({
    after: ZDuration,
    /** The label of one of this checkpoint's options (approval_required: "Continue" or "Abort"). */
    option: z.string().min(1, { error: "must not be empty" }).optional(),
    escalate_to: ZAssigneesSpec.optional(),
  })
  .transform((spec, ctx): TCheckpointTimeout => {
    const after_ms = parseDuration(spec.after);
    if (spec.option !== undefined && spec.escalate_to === undefined) {
      return { after: spec.after, after_ms, option: spec.option };
    }
    if (spec.escalate_to !== undefined && spec.option === undefined) {
      return { after: spec.after, after_ms, escalate_to: spec.escalate_to };
    }
    ctx.addIssue({ code: "custom", message: TIMEOUT_FORM });
    return z.NEVER;
  });

/** As a loaded definition and `state.pending.timeout` carry it: `after` also in milliseconds. */
export const ZCheckpointTimeout = z.union([
  z.object({ after: z.string(), after_ms: z.int().positive(), option: z.string() }),
  z.object({ after: z.string(), after_ms: z.int().positive(), escalate_to: ZAssignees }),
]);
export type TCheckpointTimeout =
  | { after: string; after_ms: number; option: string }
  | { after: string; after_ms: number; escalate_to: TAssignees };

/**
 * Load-time rules for `checkpoint.timeout`: one action, and an option that this checkpoint offers
 * (`labels`: its options' labels, or undefined when they cannot be known because of other issues).
 */
export function timeoutIssues(issues: TIssues, at: TPath, raw: unknown, labels: readonly string[] | undefined): void {
  if (!isPlainObject(raw)) return;
  if ((raw.option === undefined) === (raw.escalate_to === undefined)) addIssue(issues, at, TIMEOUT_FORM);
  assigneesIssues(issues, [...at, "escalate_to"], raw.escalate_to);
  if (typeof raw.option !== "string" || labels === undefined || labels.includes(raw.option)) return;
  const offered = labels.map((label) => JSON.stringify(label)).join(", ");
  addIssue(
    issues,
    [...at, "option"],
    `unknown option ${JSON.stringify(raw.option)}; this checkpoint offers ${offered}`,
  );
}

/** The labels a raw checkpoint offers, for the timeout rule (undefined when not yet knowable). */
export function rawLabels(options: unknown): string[] | undefined {
  if (!isPlainArray(options)) return undefined;
  return options.flatMap((option) => (isPlainObject(option) && typeof option.label === "string" ? [option.label] : []));
}

/** ISO time `after_ms` after `at` (an ISO timestamp the runner already checked). */
export function deadlineAfter(at: string, timeout: TCheckpointTimeout): string {
  return new Date(Date.parse(at) + timeout.after_ms).toISOString();
}
