import { z } from "zod";

// Checkpoint workflows (seed 003) on the wire: runs, their checkpoints and decisions. The run's
// engine is packages/checkpoint; these are the views the dashboard, the API and the CLI share.

export const ZWorkflowRunId = z
  .string()
  .trim()
  .regex(/^WR-\d{1,12}$/, { error: "must be a workflow run id like WR-0001" });

export const ZWorkflowRunStatus = z.enum(["running", "awaiting_decision", "done", "aborted", "failed"]);
export type TWorkflowRunStatus = z.infer<typeof ZWorkflowRunStatus>;

/** Workflows the server ships, startable by name. */
export const SHIPPED_WORKFLOWS = ["umbra-beat"] as const;

export const ZWorkflowStartRequest = z
  .object({
    /** A shipped workflow by name, or a definition's YAML (its steps must be ones the server runs). */
    workflow: z.enum(SHIPPED_WORKFLOWS).optional(),
    definition: z.string().min(1).max(100_000).optional(),
    /** Values for the definition's declared variables. */
    variables: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  })
  .strict()
  .refine((r) => (r.workflow === undefined) !== (r.definition === undefined), {
    error: "send exactly one of workflow (a shipped workflow's name) or definition (YAML)",
    path: ["workflow"],
  });
export type TWorkflowStartRequest = z.infer<typeof ZWorkflowStartRequest>;

export const ZWorkflowDecideRequest = z
  .object({
    run_id: ZWorkflowRunId,
    /** The run's version the person saw: a run that moved since is CONFLICT. */
    version: z.number().int().min(1),
    label: z.string().trim().min(1).max(200),
    feedback: z.string().trim().max(10_000).optional(),
    /**
     * Items of the checkpoint's plan to leave out (the Umbra beat: proposal ids it would promote):
     * they stay in the queue. Each must be in the plan.
     */
    exclude: z.array(z.string().min(1).max(64)).max(500).optional(),
  })
  .strict();
export type TWorkflowDecideRequest = z.infer<typeof ZWorkflowDecideRequest>;

export const ZWorkflowRunGetRequest = z.object({ run_id: ZWorkflowRunId }).strict();

export const ZWorkflowRunListRequest = z
  .object({
    status: ZWorkflowRunStatus.optional(),
    limit: z.number().int().min(1).max(100).default(25),
  })
  .strict();

/** A file a checkpoint shows: what a step wrote under that path, or null when nothing did. */
export const ZWorkflowFile = z.object({ path: z.string(), content: z.string().nullable() });

export const ZWorkflowCheckpointView = z.object({
  phase_id: z.string(),
  prompt: z.string(),
  files: z.array(ZWorkflowFile),
  options: z.array(z.object({ label: z.string(), with_feedback: z.boolean() })),
  /** The items a person may leave out of what the run will do next (the Umbra beat's promotion plan); null when there is none. */
  plan: z
    .array(
      z.object({
        proposal_id: z.string(),
        title: z.string(),
        action: z.string(),
        target_cfb_id: z.string().nullable(),
      }),
    )
    .nullable(),
});

/** One decision, in the seed's record shape. */
export const ZWorkflowDecisionRecord = z.object({
  phase: z.string(),
  decision: z.string(),
  skipped: z.array(z.string()).optional(),
  target: z.string().optional(),
  feedback: z.string().optional(),
  timestamp: z.string(),
});

export const ZWorkflowPhaseView = z.object({
  id: z.string(),
  title: z.string(),
  iterations: z.number().int(),
  state: z.enum(["done", "current", "upcoming", "skipped"]),
});

export const ZWorkflowRun = z.object({
  run_id: ZWorkflowRunId,
  name: z.string(),
  status: ZWorkflowRunStatus,
  version: z.number().int(),
  started_via: z.string(),
  started_by: z.string().nullable(),
  created_ts: z.string(),
  updated_ts: z.string(),
  finished_ts: z.string().nullable(),
  /** 0 done, 1 stopped by its iteration bound, 2 aborted by a person; null while it goes on. */
  exit_code: z.number().int().nullable(),
  error: z.string().nullable(),
  phases: z.array(ZWorkflowPhaseView),
  checkpoint: ZWorkflowCheckpointView.nullable(),
  decisions: z.array(ZWorkflowDecisionRecord),
  log: z.array(z.object({ level: z.string(), message: z.string(), timestamp: z.string().nullable() })),
});
export type TWorkflowRun = z.infer<typeof ZWorkflowRun>;

export const ZWorkflowRunList = z.object({ items: z.array(ZWorkflowRun) });

// Parsed requests, as a service receives them (defaults applied).
export type TWorkflowRunListRequest = z.output<typeof ZWorkflowRunListRequest>;
export type TWorkflowRunGetRequest = z.output<typeof ZWorkflowRunGetRequest>;
