import { DomainError, type TThreadGetRequest, type TThreadListRequest } from "@solserver/contracts";
import { assertCanSeeThread } from "./access";
import type { TServiceContext } from "./context";

// Threads and their traces: a user's own, every thread for a Jam editor.

export async function listThreads({ deps, caller }: TServiceContext, input: TThreadListRequest) {
  return { items: await deps.repos.threads.list(caller.role === "jam" ? undefined : caller.userId, input.limit) };
}

export async function getThread({ deps, caller }: TServiceContext, input: TThreadGetRequest) {
  const thread = await deps.repos.threads.get(input.thread_id);
  if (!thread) throw new DomainError("NOT_FOUND", `thread ${input.thread_id} does not exist`, { field: "thread_id" });
  assertCanSeeThread(caller, thread.owner_id, `thread ${input.thread_id}`);
  const { owner_id: _owner, ...detail } = thread;
  return detail;
}
