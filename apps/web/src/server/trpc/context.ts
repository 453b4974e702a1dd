import "server-only";
import type { TActor } from "@solserver/control-plane";
import { getControlPlane } from "../control-plane";
import { createInnerContext, type TInnerContext } from "./init";

/**
 * The actor behind a request. Until accounts land (issue 3) every request is the local
 * operator: the server binds to 127.0.0.1. Accounts will read the session or token from `req`.
 */
export function localActor(_req: Request): TActor {
  return { kind: "local", editor: "user" };
}

/** Context for an HTTP request; tests build the same shape with createInnerContext. */
export async function createContext(req: Request): Promise<TInnerContext> {
  return createInnerContext({ controlPlane: await getControlPlane(), actor: localActor(req) });
}
