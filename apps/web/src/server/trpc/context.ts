import "server-only";
import { databaseUnavailable } from "@solserver/control-plane";
import { TRPCError } from "@trpc/server";
import { getServer } from "../control-plane";
import { identify } from "../request-actor";
import { createInnerContext, type TInnerContext } from "./init";

/** Context for an HTTP request: who sent it (token, cookie or nobody) and whether it is cross-site. */
export async function createContext(req: Request): Promise<TInnerContext> {
  const server = await getServer();
  try {
    const { actor, crossSiteWrite } = await identify(req, server);
    const traceparent = req.headers.get("traceparent") ?? undefined;
    return createInnerContext({ deps: server.deps, actor, crossSiteWrite, traceparent });
  } catch (error) {
    // Looking up the session needs the database: out of reach, that is a 503, not a 500.
    const unavailable = databaseUnavailable(error);
    if (!unavailable) throw error;
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: unavailable.message, cause: unavailable });
  }
}
