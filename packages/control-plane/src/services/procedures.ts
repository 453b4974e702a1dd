import {
  DomainError,
  type TProcedureCatalog,
  type TProcedureGetRequest,
  type TProcedureView,
} from "@solserver/contracts";
import { loadState } from "../procedures/procedure-turn";
import { catalogView, procedureView } from "../procedures/view";
import { assertCanSeeThread } from "./access";
import type { TServiceContext } from "./context";
import type { TServiceDeps } from "./deps";

/** The procedure catalog's systems: what a new thread can be bound to. Any signed-in account. */
export function getProcedureCatalog({ deps }: TServiceContext): TProcedureCatalog {
  return catalogView(deps.catalog);
}

/**
 * Where a thread's diagnosis stands. NOT_FOUND for a thread that does not exist or is not in
 * procedure mode; a state that was lost is rebuilt from the messages for this answer ("rebuilt",
 * its version the number of turns replayed) and stored by the thread's next turn.
 */
export async function getThreadProcedure(
  { deps, caller }: TServiceContext,
  input: TProcedureGetRequest,
): Promise<TProcedureView> {
  const threadId = input.thread_id;
  const thread = await deps.repos.turns.threadOwner(threadId);
  if (!thread) throw new DomainError("NOT_FOUND", `thread ${threadId} does not exist`, { field: "thread_id" });
  assertCanSeeThread(caller, thread.ownerId, `thread ${threadId}`);
  const view = await threadProcedureView(deps, threadId);
  if (view === null)
    throw new DomainError("NOT_FOUND", `thread ${threadId} is not in procedure mode`, { field: "thread_id" });
  return view;
}

/** The view of a thread's procedure (no access check: callers check), or null when it has none. */
export async function threadProcedureView(deps: TServiceDeps, threadId: string): Promise<TProcedureView | null> {
  const loaded = await loadState(deps, threadId);
  if (loaded === null) return null;
  const stored = loaded.source === "stored" ? loaded.context.stored : null;
  return procedureView(deps.catalog, loaded.state, {
    // Rebuilt: the number of turns replayed, the version the state would have had.
    version: stored?.version ?? loaded.replayed,
    updatedAt: stored?.updatedAt ?? loaded.context.boundAt,
    source: loaded.source,
  });
}
