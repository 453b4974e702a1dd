import {
  ZScheduleGetRequest,
  ZScheduleUpdateRequest,
  ZScheduleView,
  ZWorkflowCancelRequest,
  ZWorkflowClaimRequest,
  ZWorkflowClaimResponse,
  ZWorkflowCompleteRequest,
  ZWorkflowDecideRequest,
  ZWorkflowHeartbeatRequest,
  ZWorkflowHeartbeatResponse,
  ZWorkflowRun,
  ZWorkflowRunGetRequest,
  ZWorkflowRunList,
  ZWorkflowRunListRequest,
  ZWorkflowStartRequest,
  ZWorkflowWaiting,
} from "@solserver/contracts";
import {
  cancelWorkflow,
  claimWorkflowPhase,
  completeWorkflowPhase,
  decideWorkflow,
  getSchedule,
  getWorkflowRun,
  heartbeatWorkflowPhase,
  listWorkflowRuns,
  resumeWorkflow,
  startWorkflow,
  updateSchedule,
  waitingCheckpoints,
} from "@solserver/control-plane";
import { jamProcedure, router } from "../init";

/** Checkpoint workflows (seed 003), the Umbra beat among them: Jam editors' work. */
export const workflowsRouter = router({
  list: jamProcedure
    .input(ZWorkflowRunListRequest)
    .output(ZWorkflowRunList)
    .query(({ ctx, input }) => listWorkflowRuns(ctx, input)),
  get: jamProcedure
    .input(ZWorkflowRunGetRequest)
    .output(ZWorkflowRun)
    .query(({ ctx, input }) => getWorkflowRun(ctx, input)),
  /** Starts a run and drives it to its first checkpoint (or its end). */
  start: jamProcedure
    .input(ZWorkflowStartRequest)
    .output(ZWorkflowRun)
    .mutation(({ ctx, input }) => startWorkflow(ctx, input, ctx.caller.via === "token" ? "api" : "dashboard")),
  /** A decision at the run's checkpoint, based on the version shown; the run goes on from there. */
  decide: jamProcedure
    .input(ZWorkflowDecideRequest)
    .output(ZWorkflowRun)
    .mutation(({ ctx, input }) => decideWorkflow(ctx, input)),
  /** Stops a run under way (a worker phase nobody claims, a checkpoint nobody should decide). */
  cancel: jamProcedure
    .input(ZWorkflowCancelRequest)
    .output(ZWorkflowRun)
    .mutation(({ ctx, input }) => cancelWorkflow(ctx, input)),
  /** Drives on a run the server stopped during a phase. */
  resume: jamProcedure
    .input(ZWorkflowRunGetRequest)
    .output(ZWorkflowRun)
    .mutation(({ ctx, input }) => resumeWorkflow(ctx, input)),
  /** How many checkpoints wait for the caller's decision (the nav badge). */
  waiting: jamProcedure.output(ZWorkflowWaiting).query(({ ctx }) => waitingCheckpoints(ctx)),
  /** A worker claims the next phase of its queue (long-polls up to wait_ms); null when there is none. */
  claimPhase: jamProcedure
    .input(ZWorkflowClaimRequest)
    .output(ZWorkflowClaimResponse)
    .mutation(({ ctx, input }) => claimWorkflowPhase(ctx, input)),
  /** The worker renews its lease while it works; CONFLICT when the phase is no longer its. */
  heartbeat: jamProcedure
    .input(ZWorkflowHeartbeatRequest)
    .output(ZWorkflowHeartbeatResponse)
    .mutation(({ ctx, input }) => heartbeatWorkflowPhase(ctx, input)),
  /** The worker's outcome (done with outputs, or failed); the run drives on from there. */
  completePhase: jamProcedure
    .input(ZWorkflowCompleteRequest)
    .output(ZWorkflowRun)
    .mutation(({ ctx, input }) => completeWorkflowPhase(ctx, input)),
  /** The workflow's schedule (the Umbra beat daily or weekly), its next run and latest occurrences. */
  schedule: jamProcedure
    .input(ZScheduleGetRequest)
    .output(ZScheduleView)
    .query(({ ctx, input }) => getSchedule(ctx, input)),
  /** Saves the schedule; scheduled runs then act as the editor who saved it. */
  setSchedule: jamProcedure
    .input(ZScheduleUpdateRequest)
    .output(ZScheduleView)
    .mutation(({ ctx, input }) => updateSchedule(ctx, input)),
});
