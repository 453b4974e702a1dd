import { DomainError } from "@solserver/contracts";
import type { TAuditWrite } from "@solserver/db";
import type { TActor } from "./deps";

export type TSignedIn = Extract<TActor, { kind: "user" }>;

/** The signed-in actor, or UNAUTHENTICATED. Every service that touches data starts here. */
export function requireSignedIn(actor: TActor): TSignedIn {
  if (actor.kind !== "user") throw new DomainError("UNAUTHENTICATED", "sign in (or send an API token) to use this");
  return actor;
}

/** A Jam editor, or FORBIDDEN naming what needs one. */
export function requireJam(actor: TActor, what: string): TSignedIn {
  const signedIn = requireSignedIn(actor);
  if (signedIn.role !== "jam") throw new DomainError("FORBIDDEN", `only Jam editors may ${what}`);
  return signedIn;
}

/** Jam editors see every thread; a user sees the threads they own. Unowned threads are Jam-only. */
export function canSeeThread(actor: TSignedIn, ownerId: string | null): boolean {
  return actor.role === "jam" || (ownerId !== null && ownerId === actor.userId);
}

/** FORBIDDEN without saying anything about the thing beyond the id the caller already has. */
export function assertCanSeeThread(actor: TSignedIn, ownerId: string | null, what: string): void {
  if (!canSeeThread(actor, ownerId)) throw new DomainError("FORBIDDEN", `you may not access ${what}`);
}

/** The "who" of an audit event. */
export function auditActor(actor: TSignedIn): Pick<TAuditWrite, "actorUserId" | "actorEmail" | "via"> {
  return { actorUserId: actor.userId, actorEmail: actor.email, via: actor.via };
}
