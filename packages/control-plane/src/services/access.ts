import { DomainError, type TStoredProposal } from "@solserver/contracts";
import { ALL_CFBS, inScope, type TAuditWrite, type TCfbScope, visibleTo } from "@solserver/db";
import type { TCaller, TServiceContext } from "./context";
import type { TActor } from "./deps";

/** The signed-in caller, or UNAUTHENTICATED: what a transport checks once, before any service. */
export function requireSignedIn(actor: TActor): TCaller {
  if (actor.kind !== "user") throw new DomainError("UNAUTHENTICATED", "sign in (or send an API token) to use this");
  return actor;
}

/** A Jam editor, or FORBIDDEN naming what needs one. */
export function requireJam(caller: TCaller, what: string): TCaller {
  if (caller.role !== "jam") throw new DomainError("FORBIDDEN", `only Jam editors may ${what}`);
  return caller;
}

/** Jam editors see every thread; a user sees the threads they own. Unowned threads are Jam-only. */
export function canSeeThread(caller: TCaller, ownerId: string | null): boolean {
  return caller.role === "jam" || (ownerId !== null && ownerId === caller.userId);
}

/** FORBIDDEN without saying anything about the thing beyond the id the caller already has. */
export function assertCanSeeThread(caller: TCaller, ownerId: string | null, what: string): void {
  if (!canSeeThread(caller, ownerId)) throw new DomainError("FORBIDDEN", `you may not access ${what}`);
}

/** The proposal, when this caller may see it (its thread's owner or a Jam editor); else NOT_FOUND or FORBIDDEN. */
export async function visibleProposal({ deps, caller }: TServiceContext, proposalId: string): Promise<TStoredProposal> {
  // Its group as this caller sees it: a user's decision covers only their own proposals.
  const proposal = await deps.repos.proposals.get(proposalId, { acrossOwners: caller.role === "jam" });
  if (!proposal) throw new DomainError("NOT_FOUND", `proposal ${proposalId} does not exist`, { field: "proposal_id" });
  const thread = await deps.repos.turns.threadOwner(proposal.thread_id);
  assertCanSeeThread(caller, thread?.ownerId ?? null, `proposal ${proposalId}`);
  return proposal;
}

/**
 * The CFBs a caller's knowledge browser shows (issue 19): a Jam editor every one (they endorse
 * private ones), a user the shared ones and their own private ones.
 */
export function cfbScopeOf(caller: TCaller): TCfbScope {
  return caller.role === "jam" ? ALL_CFBS : visibleTo(caller.userId);
}

/**
 * The CFB exists and this caller may see it, else NOT_FOUND, or FORBIDDEN for another user's
 * private CFB: as another user's thread is refused, naming only the id the caller sent.
 */
export async function assertCanSeeCfb({ deps, caller }: TServiceContext, cfbId: string): Promise<void> {
  const cfb = await deps.repos.cfbs.owner(cfbId);
  if (!cfb) throw new DomainError("NOT_FOUND", `CFB ${cfbId} does not exist`, { field: "cfb_id" });
  if (!inScope(cfbScopeOf(caller), cfb.privateToId))
    throw new DomainError("FORBIDDEN", `you may not access CFB ${cfbId}`);
}

/**
 * Whose private CFBs a proposal is judged against: its thread's owner's (issue 19). Resolve and an
 * update's target see the shared CFBs and that user's private ones, never another user's, whoever
 * reviews the proposal. Null for a thread from before accounts: shared only.
 */
export async function proposalOwner(deps: TServiceContext["deps"], proposal: Pick<TStoredProposal, "thread_id">) {
  return (await deps.repos.turns.threadOwner(proposal.thread_id))?.ownerId ?? null;
}

/** The "who" of an audit event. */
export function auditActor(caller: TCaller): Pick<TAuditWrite, "actorUserId" | "actorEmail" | "via"> {
  return { actorUserId: caller.userId, actorEmail: caller.email, via: caller.via };
}
