import "server-only";
import { getServer } from "../control-plane";
import { identify } from "../request-actor";
import { createInnerContext, type TInnerContext } from "./init";

/** Context for an HTTP request: who sent it (token, cookie or nobody) and whether it is cross-site. */
export async function createContext(req: Request): Promise<TInnerContext> {
  const server = await getServer();
  const { actor, crossSiteWrite } = await identify(req, server);
  return createInnerContext({ deps: server.deps, actor, crossSiteWrite });
}
