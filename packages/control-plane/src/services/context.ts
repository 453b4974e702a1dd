import type { TActor, TServiceDeps } from "./deps";

/** A signed-in account, by session cookie, API token or the CLI: who a service acts for. */
export type TCaller = Extract<TActor, { kind: "user" }>;

/**
 * What every service is called with, beside its parsed input: its dependencies and the caller.
 * The transport narrows the caller once (the tRPC tier, the REST façade, the CLI), so a service
 * never checks sign-in again; it checks what this caller may touch (ownership, Jam-only actions).
 */
export type TServiceContext = {
  deps: TServiceDeps;
  caller: TCaller;
  /** The request's W3C trace context (`traceparent` header): an exported turn joins that trace. */
  traceparent?: string | undefined;
};
