import {
  DomainError,
  type TThreadGetRequest,
  type TThreadMementoRecord,
  type TThreadMementoWrite,
  ZThreadMemento,
} from "@solserver/contracts";
import type { TStoredMemento } from "@solserver/db";
import { assertCanSeeThread } from "./access";
import type { TServiceContext } from "./context";

function toRecord(stored: TStoredMemento): TThreadMementoRecord {
  return {
    thread_id: stored.threadId,
    version: stored.version,
    memento: ZThreadMemento.parse(stored.payload),
    updated_ts: stored.updatedAt.toISOString(),
  };
}

async function checkThread({ deps, caller }: TServiceContext, threadId: string) {
  const thread = await deps.repos.turns.threadOwner(threadId);
  if (!thread) throw new DomainError("NOT_FOUND", `thread ${threadId} does not exist`, { field: "thread_id" });
  assertCanSeeThread(caller, thread.ownerId, `thread ${threadId}`);
}

/** The thread's memento with its version (the ETag); NOT_FOUND when it has none yet. */
export async function getMemento(ctx: TServiceContext, input: TThreadGetRequest): Promise<TThreadMementoRecord> {
  const threadId = input.thread_id;
  await checkThread(ctx, threadId);
  const stored = await ctx.deps.repos.mementos.get(threadId);
  if (!stored) throw new DomainError("NOT_FOUND", `thread ${threadId} has no memento yet`, { field: "thread_id" });
  return toRecord(stored);
}

/**
 * Replaces the thread's memento, conditional on the version the client read: a stale version
 * is CONFLICT and changes nothing (REST answers 412 to a stale If-Match).
 */
export async function putMemento(ctx: TServiceContext, input: TThreadMementoWrite): Promise<TThreadMementoRecord> {
  await checkThread(ctx, input.thread_id);
  const { deps } = ctx;
  if (!(await deps.repos.mementos.get(input.thread_id))) {
    throw new DomainError("NOT_FOUND", `thread ${input.thread_id} has no memento yet`, { field: "thread_id" });
  }
  return toRecord(await deps.repos.mementos.put(input.thread_id, input.version, input.memento));
}
