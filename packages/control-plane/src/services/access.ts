import { DomainError, type TStoredProposal } from "@solserver/contracts";
import type { TAuditWrite } from "@solserver/db";
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
  const proposal = await deps.repos.proposals.get(proposalId);
  if (!proposal) throw new DomainError("NOT_FOUND", `proposal ${proposalId} does not exist`, { field: "proposal_id" });
  const thread = await deps.repos.turns.threadOwner(proposal.thread_id);
  assertCanSeeThread(caller, thread?.ownerId ?? null, `proposal ${proposalId}`);
  return proposal;
}

/** The "who" of an audit event. */
export function auditActor(caller: TCaller): Pick<TAuditWrite, "actorUserId" | "actorEmail" | "via"> {
  return { actorUserId: caller.userId, actorEmail: caller.email, via: caller.via };
}
