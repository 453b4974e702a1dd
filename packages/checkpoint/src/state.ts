// Run state: plain JSON, so the host can store it (a DB row) and resume after a restart.
// ZRunState re-validates a stored state; every transition also runs it on its input.

import { z } from "zod";
import { ZAssignees } from "./assignees";
import { CheckpointError } from "./errors";
import { ZExecutor } from "./executors";
import { type TJsonObject, toPlainData } from "./plain-data";
import { CHECKPOINT_ACTIONS, type TWorkflow } from "./schema";
import { ZCheckpointTimeout } from "./timeouts";

export const RUN_STATE_VERSION = 1;
/** Context keys the runner owns; host data may not set them. */
export const RESERVED_CONTEXT_KEYS: ReadonlySet<string> = new Set(["phases", "skip_phases", "checkpoints"]);

/**
 * One decision, in the seed's record shape (`skipped` / `target` / `feedback` only when set). A
 * timeout adds `timed_out: true`: with the option it took (`label`, `decision` = its action), or
 * `decision: "escalated"` with the new `assignees`.
 */
const ZCheckpointRecord = z.object({
  phase: z.string(),
  decision: z.enum([...CHECKPOINT_ACTIONS, "escalated"]),
  skipped: z.array(z.string()).optional(),
  target: z.string().optional(),
  feedback: z.string().optional(),
  timed_out: z.literal(true).optional(),
  label: z.string().optional(),
  assignees: ZAssignees.optional(),
  timestamp: z.string(),
});

const ZCounts = z.record(z.string(), z.int().min(0));

const ZRunContext = z.looseObject({
  phases: z.looseObject({
    /** Times each phase has started (1 on its first run; a repeat adds one). */
    iteration_counts: ZCounts,
    /** Gap-check retries within the phase's current iteration. */
    gap_retries: ZCounts,
  }),
  skip_phases: z.array(z.string()),
  checkpoints: z.array(ZCheckpointRecord),
});

const ZPendingCheckpoint = z.object({
  phase_id: z.string(),
  kind: z.enum(["approval", "custom"]),
  /** Variables already substituted. */
  prompt: z.string(),
  files: z.array(z.string()),
  options: z.array(z.object({ label: z.string(), with_feedback: z.boolean() })),
  // The three below default to null so that states stored before they existed still resume.
  /** Who may decide (the host enforces it); null = whoever the host lets decide. */
  assignees: ZAssignees.nullable().default(null),
  /** ISO time the timeout applies (null: none, or already escalated); see expireDecision. */
  deadline: z.string().nullable().default(null),
  /** What happens at the deadline, as the definition says it. */
  timeout: ZCheckpointTimeout.nullable().default(null),
});

const ZNextStep = z.discriminatedUnion("kind", [
  /**
   * The host runs `run`: a step name, or an executor's kind with `executor` (templates already
   * substituted). Phases without a step complete by themselves and never appear here.
   */
  z.object({
    kind: z.literal("run_phase"),
    phase_id: z.string(),
    run: z.string(),
    executor: ZExecutor.optional(),
    iteration: z.int(),
    attempt: z.int(),
  }),
  z.object({ kind: z.literal("await_decision"), phase_id: z.string() }),
  z.object({ kind: z.literal("finished"), exit_code: z.int() }),
]);

const ZLogEntry = z.object({
  level: z.enum(["debug", "info", "warn", "error"]),
  message: z.string(),
  timestamp: z.string().nullable(),
});

export const ZRunState = z.object({
  version: z.literal(RUN_STATE_VERSION),
  /** The workflow's name: a state is only resumed with the definition it started with. */
  workflow: z.string(),
  status: z.enum(["running", "awaiting_decision", "done", "aborted", "failed"]),
  /** Index of the current phase (phases.length once done). */
  phase_index: z.int().min(0),
  variables: z.record(z.string(), z.json()),
  context: ZRunContext,
  next: ZNextStep,
  pending: ZPendingCheckpoint.nullable(),
  /** 0 done, 1 stopped by max_iterations or failed, 2 aborted by the user; null while it goes on. */
  exit_code: z.union([z.literal(0), z.literal(1), z.literal(2)]).nullable(),
  /** Why the run was aborted: a person's Abort, an Abort its timeout took, or max_iterations. */
  abort: z.object({ reason: z.enum(["user", "timeout", "max_iterations"]), message: z.string() }).nullable(),
  /** Set when status is "failed": the phase whose step failed for good (phaseFailed), and why. */
  failure: z.object({ phase_id: z.string(), error: z.string() }).nullable().default(null),
  log: z.array(ZLogEntry),
});

export type TCheckpointRecord = z.output<typeof ZCheckpointRecord>;
export type TRunContext = z.output<typeof ZRunContext>;
export type TPendingCheckpoint = z.output<typeof ZPendingCheckpoint>;
export type TNextStep = z.output<typeof ZNextStep>;
export type TLogEntry = z.output<typeof ZLogEntry>;
export type TRunState = z.output<typeof ZRunState>;
/** A state as stored before `failure`, `pending.assignees/deadline/timeout` existed also parses. */
export type TStoredRunState = z.input<typeof ZRunState>;
export type TRunStatus = TRunState["status"];

/**
 * A stored state (e.g. `JSON.parse` of a DB column) checked and copied: own data only, the
 * shape above. Throws CheckpointError("INVALID_STATE") naming the first bad path.
 */
export function parseRunState(value: unknown): TRunState {
  let plain: unknown;
  try {
    plain = toPlainData(value, "state");
  } catch (error) {
    throw new CheckpointError("INVALID_STATE", error instanceof Error ? error.message : "state is not plain data");
  }
  const parsed = ZRunState.safeParse(plain);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue ? ["state", ...issue.path.map(String)].join(".") : "state";
  throw new CheckpointError("INVALID_STATE", `${path}: ${issue?.message ?? "invalid run state"}`);
}

/** A checked private copy of the caller's state for `workflow`: transitions mutate the copy only. */
export function resumeState(workflow: TWorkflow, state: unknown): TRunState {
  const draft = parseRunState(state);
  if (draft.workflow !== workflow.name) {
    throw new CheckpointError(
      "INVALID_STATE",
      `this state belongs to workflow "${draft.workflow}", not "${workflow.name}"`,
    );
  }
  return draft;
}

/** Host data for the context: plain JSON, an object, and none of the runner's keys. */
export function hostData(value: unknown, path: string): TJsonObject {
  const plain = toPlainData(value, path);
  if (typeof plain !== "object" || plain === null || Array.isArray(plain)) {
    throw new CheckpointError("INVALID_INPUT", `${path}: must be an object`);
  }
  for (const key of Object.keys(plain)) {
    if (RESERVED_CONTEXT_KEYS.has(key))
      throw new CheckpointError("INVALID_INPUT", `${path}.${key}: is reserved for the runner`);
  }
  return plain;
}
