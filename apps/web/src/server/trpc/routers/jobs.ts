import { ZJobIdRequest, ZJobList, ZJobListRequest, ZJobRetryResponse, ZJobView } from "@solserver/contracts";
import { getJob, listJobs, retryJob } from "@solserver/control-plane";
import { jamProcedure, router } from "../init";

/** Background jobs (webhook deliveries, schedule ticks, retention, refits): Jam editors' view. */
export const jobsRouter = router({
  list: jamProcedure
    .input(ZJobListRequest)
    .output(ZJobList)
    .query(({ ctx, input }) => listJobs(ctx, input)),
  /** One job: how work a request started (a refit) stands. */
  get: jamProcedure
    .input(ZJobIdRequest)
    .output(ZJobView)
    .query(({ ctx, input }) => getJob(ctx, input)),
  /** Queues a failed job again for one more try. */
  retry: jamProcedure
    .input(ZJobIdRequest)
    .output(ZJobRetryResponse)
    .mutation(({ ctx, input }) => retryJob(ctx, input)),
});
