// Run state: plain JSON, so the host can store it (a DB row) and resume after a restart.
// ZRunState re-validates a stored state; every transition also runs it on its input.

import { z } from "zod";
import { CheckpointError } from "./errors";
import { type TJsonObject, toPlainData } from "./plain-data";
import { CHECKPOINT_ACTIONS } from "./schema";

export const RUN_STATE_VERSION = 1;
/** Context keys the runner owns; host data may not set them. */
export const RESERVED_CONTEXT_KEYS: ReadonlySet<string> = new Set(["phases", "skip_phases", "checkpoints"]);

/** One decision, in the seed's record shape (`skipped` / `target` / `feedback` only when set). */
export const ZCheckpointRecord = z.object({
  phase: z.string(),
  decision: z.enum(CHECKPOINT_ACTIONS),
  skipped: z.array(z.string()).optional(),
  target: z.string().optional(),
  feedback: z.string().optional(),
  timestamp: z.string(),
});

const ZCounts = z.record(z.string(), z.int().min(0));

export const ZRunContext = z.looseObject({
  phases: z.looseObject({
    /** Times each phase has started (1 on its first run; a repeat adds one). */
    iteration_counts: ZCounts,
    /** Gap-check retries within the phase's current iteration. */
    gap_retries: ZCounts,
  }),
  skip_phases: z.array(z.string()),
  checkpoints: z.array(ZCheckpointRecord),
});

export const ZPendingCheckpoint = z.object({
  phase_id: z.string(),
  kind: z.enum(["approval", "custom"]),
  /** Variables already substituted. */
  prompt: z.string(),
  files: z.array(z.string()),
  options: z.array(z.object({ label: z.string(), with_feedback: z.boolean() })),
});

export const ZNextStep = z.discriminatedUnion("kind", [
  /** The host runs `run` (null never appears here: phases without a step complete by themselves). */
  z.object({
    kind: z.literal("run_phase"),
    phase_id: z.string(),
    run: z.string(),
    iteration: z.int(),
    attempt: z.int(),
  }),
  z.object({ kind: z.literal("await_decision"), phase_id: z.string() }),
  z.object({ kind: z.literal("finished"), exit_code: z.int() }),
]);

export const ZLogEntry = z.object({
  level: z.enum(["debug", "info", "warn", "error"]),
  message: z.string(),
  timestamp: z.string().nullable(),
});

export const ZRunState = z.object({
  version: z.literal(RUN_STATE_VERSION),
  /** The workflow's name: a state is only resumed with the definition it started with. */
  workflow: z.string(),
  status: z.enum(["running", "awaiting_decision", "done", "aborted"]),
  /** Index of the current phase (phases.length once done). */
  phase_index: z.int().min(0),
  variables: z.record(z.string(), z.json()),
  context: ZRunContext,
  next: ZNextStep,
  pending: ZPendingCheckpoint.nullable(),
  /** 0 done, 1 stopped by max_iterations, 2 aborted by the user; null while the run goes on. */
  exit_code: z.union([z.literal(0), z.literal(1), z.literal(2)]).nullable(),
  abort: z.object({ reason: z.enum(["user", "max_iterations"]), message: z.string() }).nullable(),
  log: z.array(ZLogEntry),
});

export type TCheckpointRecord = z.output<typeof ZCheckpointRecord>;
export type TRunContext = z.output<typeof ZRunContext>;
export type TPendingCheckpoint = z.output<typeof ZPendingCheckpoint>;
export type TNextStep = z.output<typeof ZNextStep>;
export type TLogEntry = z.output<typeof ZLogEntry>;
export type TRunState = z.output<typeof ZRunState>;
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
