import { DomainError } from "@solserver/contracts";
import type { TActor } from "./deps";

/** The actor, if it may review proposals and read knowledge; UNAUTHENTICATED otherwise. */
export function requireReviewer(actor: TActor): Extract<TActor, { kind: "local" }> {
  if (actor.kind === "anonymous") throw new DomainError("UNAUTHENTICATED", "sign in to review knowledge");
  return actor;
}
