// The workflow definition's shape (zod). Rules that need the whole definition (phase references,
// duplicates, conditions, templates) live in validate.ts, so both kinds of problem are listed.

import { z } from "zod";
import { ZAssigneesSpec } from "./assignees";
import { NO_EXECUTOR_KIND } from "./executor-rules";
import { specKind, type TExecutor, toExecutor, ZExecutorSpec } from "./executors";
import { ZNotify } from "./notify";
import { ZTimeoutSpec } from "./timeouts";

export const CHECKPOINT_ACTIONS = ["continue", "repeat_phase", "skip_phases", "abort"] as const;
export type TCheckpointAction = (typeof CHECKPOINT_ACTIONS)[number];

export const PHASE_ID_PATTERN = /^[a-z][a-z0-9_-]*$/;
export const DEFAULT_MAX_ITERATIONS = 5;
export const DEFAULT_GAP_RETRIES = 2;

const ZPhaseId = z.string().regex(PHASE_ID_PATTERN, {
  error: 'must start with a lowercase letter, then lowercase letters, digits, "_" or "-"',
});

const ZOnSelect = z.strictObject({
  action: z.enum(CHECKPOINT_ACTIONS, {
    error: (issue) => (issue.input === undefined ? "is required" : `unknown action ${JSON.stringify(issue.input)}`),
  }),
  /** repeat_phase only: "current" or the id of this or an earlier phase. */
  target: z.string().min(1).optional(),
  /** skip_phases only: the phase ids to add to the skip list. */
  phases: z.array(z.string()).min(1, { error: "must name at least one phase" }).optional(),
});

const ZCheckpointOption = z.strictObject({
  label: z.string().min(1, { error: "must not be empty" }).max(200),
  with_feedback: z.boolean().optional(),
  on_select: ZOnSelect,
});

/** Either `{ approval_required: true }` or a custom checkpoint (prompt and options). */
const ZCheckpoint = z.strictObject({
  approval_required: z.boolean().optional(),
  condition: z.string().optional(),
  prompt: z.string().min(1, { error: "must not be empty" }).optional(),
  show_files: z.array(z.string()).optional(),
  options: z.array(ZCheckpointOption).min(1, { error: "must offer at least one option" }).optional(),
  /** Who may decide (the host enforces it); absent = whoever the host lets decide. */
  assignees: ZAssigneesSpec.optional(),
  /** After `after`, take `option` for the person, or escalate to `escalate_to` (once). */
  timeout: ZTimeoutSpec.optional(),
});

const ZGapCheck = z.strictObject({
  /** When true after the phase ran, the phase is run again (at most max_retries times). */
  condition: z.string(),
  max_retries: z.int().min(0).max(20).default(DEFAULT_GAP_RETRIES),
});

/** An executor object, its kind found and its defaults applied. */
const ZExecutorRun = ZExecutorSpec.transform((spec, ctx): TExecutor => {
  const kind = specKind(spec);
  if (kind !== undefined) return toExecutor(spec, kind);
  ctx.addIssue({ code: "custom", message: NO_EXECUTOR_KIND });
  return z.NEVER;
});

const ZRun = z.union([z.string().min(1, { error: "must not be empty" }), ZExecutorRun], {
  error: "must be a step name or an executor: { command: [...] }, { webhook: url } or { worker: queue }",
});

const ZPhase = z
  .strictObject({
    id: ZPhaseId,
    title: z.string().optional(),
    /**
     * An opaque step name the host executes, or an executor (command / webhook / worker); a phase
     * without one is only a checkpoint.
     */
    run: ZRun.optional(),
    gap_check: ZGapCheck.optional(),
    checkpoint: ZCheckpoint.optional(),
  })
  // A loaded phase keeps `run` a string: the step name, or the executor's kind (its details in
  // `executor`), so hosts that look steps up by name find one handler per kind.
  .transform(({ run, ...phase }): TPhaseOutput => {
    if (run === undefined) return phase;
    if (typeof run === "string") return { ...phase, run };
    return { ...phase, run: run.kind, executor: run };
  });

type TPhaseOutput = {
  id: string;
  title?: string | undefined;
  run?: string;
  executor?: TExecutor;
  gap_check?: z.output<typeof ZGapCheck> | undefined;
  checkpoint?: z.output<typeof ZCheckpoint> | undefined;
};

export const ZWorkflow = z.strictObject({
  name: z.string().min(1, { error: "must not be empty" }),
  description: z.string().optional(),
  variables: z.record(z.string(), z.json()).default({}),
  /** Per phase: how many times it may run in one workflow run (repeats included). */
  max_iterations: z.int().min(1).max(1000).default(DEFAULT_MAX_ITERATIONS),
  phases: z.array(ZPhase).min(1, { error: "must list at least one phase" }),
  /** Where the host POSTs when a run waits at a checkpoint. */
  notify: ZNotify.optional(),
});

export type TOnSelect = z.output<typeof ZOnSelect>;
export type TCheckpointOption = z.output<typeof ZCheckpointOption>;
export type TCheckpoint = z.output<typeof ZCheckpoint>;
export type TGapCheck = z.output<typeof ZGapCheck>;
export type TPhase = z.output<typeof ZPhase>;
/** A loaded, validated workflow definition (defaults applied). */
export type TWorkflow = z.output<typeof ZWorkflow>;
