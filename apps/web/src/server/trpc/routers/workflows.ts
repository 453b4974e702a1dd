import {
  ZScheduleGetRequest,
  ZScheduleUpdateRequest,
  ZScheduleView,
  ZWorkflowDecideRequest,
  ZWorkflowRun,
  ZWorkflowRunGetRequest,
  ZWorkflowRunList,
  ZWorkflowRunListRequest,
  ZWorkflowStartRequest,
} from "@solserver/contracts";
import { jamProcedure, router } from "../init";

/** Checkpoint workflows (seed 003), the Umbra beat among them: Jam editors' work. */
export const workflowsRouter = router({
  list: jamProcedure
    .input(ZWorkflowRunListRequest)
    .output(ZWorkflowRunList)
    .query(({ ctx, input }) => ctx.controlPlane.workflows.list(ctx.actor, input)),
  get: jamProcedure
    .input(ZWorkflowRunGetRequest)
    .output(ZWorkflowRun)
    .query(({ ctx, input }) => ctx.controlPlane.workflows.get(ctx.actor, input.run_id)),
  /** Starts a run and drives it to its first checkpoint (or its end). */
  start: jamProcedure
    .input(ZWorkflowStartRequest)
    .output(ZWorkflowRun)
    .mutation(({ ctx, input }) =>
      ctx.controlPlane.workflows.start(
        ctx.actor,
        input,
        ctx.actor.kind === "user" && ctx.actor.via === "token" ? "api" : "dashboard",
      ),
    ),
  /** A decision at the run's checkpoint, based on the version shown; the run goes on from there. */
  decide: jamProcedure
    .input(ZWorkflowDecideRequest)
    .output(ZWorkflowRun)
    .mutation(({ ctx, input }) => ctx.controlPlane.workflows.decide(ctx.actor, input)),
  /** Drives on a run the server stopped during a phase. */
  resume: jamProcedure
    .input(ZWorkflowRunGetRequest)
    .output(ZWorkflowRun)
    .mutation(({ ctx, input }) => ctx.controlPlane.workflows.resume(ctx.actor, input.run_id)),
  /** The workflow's schedule (the Umbra beat daily or weekly), its next run and latest occurrences. */
  schedule: jamProcedure
    .input(ZScheduleGetRequest)
    .output(ZScheduleView)
    .query(({ ctx, input }) => ctx.controlPlane.schedules.get(ctx.actor, input)),
  /** Saves the schedule; scheduled runs then act as the editor who saved it. */
  setSchedule: jamProcedure
    .input(ZScheduleUpdateRequest)
    .output(ZScheduleView)
    .mutation(({ ctx, input }) => ctx.controlPlane.schedules.update(ctx.actor, input)),
});
