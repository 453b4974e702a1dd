import { z } from "zod";
import { ZHeldCode } from "./proposal-actions";

// Checkpoint workflows (seed 003) on the wire: runs, their checkpoints and decisions. The run's
// engine is packages/checkpoint; these are the views the dashboard, the API and the CLI share.

export const ZWorkflowRunId = z
  .string()
  .trim()
  .regex(/^WR-\d{1,12}$/, { error: "must be a workflow run id like WR-0001" });

/** The queue of `webhook` phases, which the server delivers itself; no worker queue can be named so ("@"). */
export const WEBHOOK_QUEUE = "@webhook";

/**
 * awaiting_worker: a `worker` phase waits for (or is held by) an external agent of its queue, or a
 * `webhook` phase for (or during) its delivery by the server (queue WEBHOOK_QUEUE).
 */
export const ZWorkflowRunStatus = z.enum([
  "running",
  "awaiting_worker",
  "awaiting_decision",
  "done",
  "aborted",
  "failed",
]);
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
    /**
     * Items of the plan it holds back (the Umbra beat: a proposal whose approval needs a look,
     * `held`) to carry out all the same. Each must be a held item of the plan.
     */
    include: z.array(z.string().min(1).max(64)).max(500).optional(),
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

/** Who may decide a checkpoint: a role, or named accounts (by email). */
export const ZWorkflowAssignees = z.union([
  z.object({ role: z.enum(["jam"]) }),
  z.object({ accounts: z.array(z.string()) }),
]);

export const ZWorkflowCheckpointView = z.object({
  phase_id: z.string(),
  prompt: z.string(),
  /** Who may decide (null: any Jam editor), and whether the caller may. */
  assignees: ZWorkflowAssignees.nullable(),
  can_decide: z.boolean(),
  /** When the checkpoint's timeout fires (ISO), and what it then does. */
  deadline: z.string().nullable(),
  on_timeout: z.string().nullable(),
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
        /** The update's target as a reviewer reads it, and what the proposal says, in a line. */
        target_title: z.string().nullable(),
        change: z.string(),
        /** Why it is held back (left out unless a person includes it); empty: carried out unless left out. */
        held: z.array(z.object({ code: ZHeldCode, note: z.string() })),
      }),
    )
    .nullable(),
});

/** One decision, in the seed's record shape (timed_out: taken or escalated by the checkpoint's timeout). */
export const ZWorkflowDecisionRecord = z.object({
  phase: z.string(),
  decision: z.string(),
  timed_out: z.boolean().optional(),
  /** A timeout's option: its label (decision is the option's action). */
  label: z.string().optional(),
  /** An escalation: who the checkpoint went to. */
  assignees: ZWorkflowAssignees.optional(),
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
  /** awaiting_worker: the queue, and who holds the phase until when (null: nobody yet). */
  worker: z
    .object({
      queue: z.string(),
      phase_id: z.string(),
      lease_owner: z.string().nullable(),
      lease_expires_ts: z.string().nullable(),
    })
    .nullable(),
  decisions: z.array(ZWorkflowDecisionRecord),
  log: z.array(z.object({ level: z.string(), message: z.string(), timestamp: z.string().nullable() })),
});
export type TWorkflowRun = z.infer<typeof ZWorkflowRun>;

export const ZWorkflowRunList = z.object({ items: z.array(ZWorkflowRun) });

const ZQueueName = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_.-]*$/, { error: 'must be a queue name: lowercase letters, digits, "_", "." or "-"' })
  .max(100);
const ZLeaseId = z.uuid({ error: "must be the lease_id claimPhase returned" });

/**
 * A worker asks for the next phase of its queue. `wait_ms` long-polls: the call returns as soon
 * as a phase is claimable, or null after that long. `worker` names the agent (shown in the
 * dashboard while it holds the phase).
 */
export const ZWorkflowClaimRequest = z
  .object({
    queue: ZQueueName,
    worker: z.string().trim().min(1).max(200),
    wait_ms: z.number().int().min(0).max(30_000).default(0),
  })
  .strict();

/** A claimed phase: what the worker needs to do it, and the lease it must hold. */
export const ZWorkflowClaim = z.object({
  run_id: ZWorkflowRunId,
  workflow: z.string(),
  phase_id: z.string(),
  iteration: z.number().int(),
  attempt: z.number().int(),
  lease_id: z.string(),
  lease_expires_ts: z.string(),
  context: z.record(z.string(), z.unknown()),
  variables: z.record(z.string(), z.unknown()),
});
export const ZWorkflowClaimResponse = z.object({ claim: ZWorkflowClaim.nullable() });

export const ZWorkflowHeartbeatRequest = z.object({ run_id: ZWorkflowRunId, lease_id: ZLeaseId }).strict();
export const ZWorkflowHeartbeatResponse = z.object({ lease_expires_ts: z.string() });

/** The worker's outcome: done (its data merges into the context, files become artifacts) or failed. */
export const ZWorkflowCompleteRequest = z
  .object({
    run_id: ZWorkflowRunId,
    lease_id: ZLeaseId,
    outcome: z.enum(["done", "failed"]),
    data: z.record(z.string(), z.unknown()).optional(),
    variables: z.record(z.string(), z.unknown()).optional(),
    artifacts: z
      .array(z.object({ path: z.string().min(1).max(500), content: z.string().max(1_000_000) }).strict())
      .max(50)
      .optional(),
    error: z.string().trim().min(1).max(2000).optional(),
  })
  .strict()
  .refine((r) => r.outcome === "done" || r.error !== undefined, {
    error: "a failed phase needs error: what went wrong",
    path: ["error"],
  });

/** Stops a run that is under way (running, waiting for a worker or a decision): aborted by a person. */
export const ZWorkflowCancelRequest = z
  .object({
    run_id: ZWorkflowRunId,
    /** The run's version the person saw: a run that moved since is CONFLICT. */
    version: z.number().int().min(1),
    reason: z.string().trim().min(1, { error: "say why the run is cancelled" }).max(2000),
  })
  .strict();
export type TWorkflowCancelRequest = z.output<typeof ZWorkflowCancelRequest>;

/** How many checkpoints wait for the caller's decision (the nav badge). */
export const ZWorkflowWaiting = z.object({ count: z.number().int().min(0) });

// Parsed requests, as a service receives them (defaults applied).
export type TWorkflowClaimRequest = z.output<typeof ZWorkflowClaimRequest>;
export type TWorkflowHeartbeatRequest = z.output<typeof ZWorkflowHeartbeatRequest>;
export type TWorkflowCompleteRequest = z.output<typeof ZWorkflowCompleteRequest>;
export type TWorkflowClaim = z.infer<typeof ZWorkflowClaim>;
export type TWorkflowRunListRequest = z.output<typeof ZWorkflowRunListRequest>;
export type TWorkflowRunGetRequest = z.output<typeof ZWorkflowRunGetRequest>;
