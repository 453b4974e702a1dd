import { ZJobList, ZJobListRequest, ZJobRetryRequest, ZJobRetryResponse } from "@solserver/contracts";
import { listJobs, retryJob } from "@solserver/control-plane";
import { jamProcedure, router } from "../init";

/** Background jobs (webhook deliveries, schedule ticks, retention): Jam editors' view. */
export const jobsRouter = router({
  list: jamProcedure
    .input(ZJobListRequest)
    .output(ZJobList)
    .query(({ ctx, input }) => listJobs(ctx, input)),
  /** Queues a failed job again from its first try. */
  retry: jamProcedure
    .input(ZJobRetryRequest)
    .output(ZJobRetryResponse)
    .mutation(({ ctx, input }) => retryJob(ctx, input)),
});
