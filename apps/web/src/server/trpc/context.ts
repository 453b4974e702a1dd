import "server-only";
import { getControlPlane } from "../control-plane";
import { createInnerContext, type TInnerContext } from "./init";

/** Context for an HTTP request. Accounts (issue 3) will read the session from `req` here. */
export async function createContext(_req: Request): Promise<TInnerContext> {
  return createInnerContext({ controlPlane: await getControlPlane(), actor: { kind: "local", editor: "user" } });
}
