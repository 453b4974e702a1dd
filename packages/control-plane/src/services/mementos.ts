import { DomainError, type TThreadMementoRecord, ZThreadMemento, type ZThreadMementoWrite } from "@solserver/contracts";
import type { TStoredMemento } from "@solserver/db";
import type { z } from "zod";
import { assertCanSeeThread, requireSignedIn } from "./access";
import type { TActor, TServiceDeps } from "./deps";

function toRecord(stored: TStoredMemento): TThreadMementoRecord {
  return {
    thread_id: stored.threadId,
    version: stored.version,
    memento: ZThreadMemento.parse(stored.payload),
    updated_ts: stored.updatedAt.toISOString(),
  };
}

async function checkThread(deps: TServiceDeps, actor: TActor, threadId: string) {
  const caller = requireSignedIn(actor);
  const thread = await deps.repos.turns.threadOwner(threadId);
  if (!thread) throw new DomainError("NOT_FOUND", `thread ${threadId} does not exist`, { field: "thread_id" });
  assertCanSeeThread(caller, thread.ownerId, `thread ${threadId}`);
}

/** The thread's memento with its version (the ETag); NOT_FOUND when it has none yet. */
export async function getMemento(deps: TServiceDeps, actor: TActor, threadId: string): Promise<TThreadMementoRecord> {
  await checkThread(deps, actor, threadId);
  const stored = await deps.repos.mementos.get(threadId);
  if (!stored) throw new DomainError("NOT_FOUND", `thread ${threadId} has no memento yet`, { field: "thread_id" });
  return toRecord(stored);
}

/**
 * Replaces the thread's memento, conditional on the version the client read: a stale version
 * is CONFLICT and changes nothing (REST answers 412 to a stale If-Match).
 */
export async function putMemento(
  deps: TServiceDeps,
  actor: TActor,
  input: z.output<typeof ZThreadMementoWrite>,
): Promise<TThreadMementoRecord> {
  await checkThread(deps, actor, input.thread_id);
  if (!(await deps.repos.mementos.get(input.thread_id))) {
    throw new DomainError("NOT_FOUND", `thread ${input.thread_id} has no memento yet`, { field: "thread_id" });
  }
  return toRecord(await deps.repos.mementos.put(input.thread_id, input.version, input.memento));
}
