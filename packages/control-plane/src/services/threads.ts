import { DomainError, type TThreadGetRequest, type TThreadListRequest } from "@solserver/contracts";
import { retentionCutoffs } from "../retention/prune";
import { assertCanSeeThread } from "./access";
import type { TServiceContext } from "./context";

// Threads and their traces: a user's own, every thread for a Jam editor.

export async function listThreads({ deps, caller }: TServiceContext, input: TThreadListRequest) {
  return deps.repos.threads.list({
    ownerId: caller.role === "jam" ? undefined : caller.userId,
    limit: input.limit,
    cursor: input.cursor,
    search: input.query,
  });
}

export async function getThread({ deps, caller }: TServiceContext, input: TThreadGetRequest) {
  const thread = await deps.repos.threads.get(input.thread_id);
  if (!thread) throw new DomainError("NOT_FOUND", `thread ${input.thread_id} does not exist`, { field: "thread_id" });
  assertCanSeeThread(caller, thread.owner_id, `thread ${input.thread_id}`);
  const { owner_id: _owner, turns, ...detail } = thread;
  const cutoff = retentionCutoffs(deps.retention, deps.now()).traces;
  return {
    ...detail,
    // A turn older than the trace retention with no trace left lost it to pruning (every stored
    // turn writes its trace in the turn's own transaction): the page says so, not "no trace".
    turns: turns.map((turn) => ({
      ...turn,
      trace_pruned_after_days:
        turn.trace.length === 0 && cutoff !== null && Date.parse(turn.created_ts) < cutoff.getTime()
          ? deps.retention.traceDays
          : null,
    })),
  };
}
