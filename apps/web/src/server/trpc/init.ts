import { isDomainError } from "@solserver/contracts";
import {
  chargeRead,
  databaseUnavailable,
  describeIssues,
  firstIssueField,
  requireJam,
  requireSignedIn,
  type TActor,
  type TIssueLike,
  type TServiceDeps,
} from "@solserver/control-plane";
import { initTRPC, TRPCError } from "@trpc/server";
import { crossSiteRefused } from "../errors/refusals";
import { ERROR_TABLE } from "../errors/table";
import { refuseBadInputText } from "../input-text";

// ---------------------------------------------------------------------------------------------
// 1. Context. `createInnerContext` needs no request, so tests build it directly; the HTTP
//    adapter's `createContext` (context.ts) derives the same shape from a request.
export type TInnerContext = {
  /** What every service is handed (the database, the model, the settings). */
  deps: TServiceDeps;
  actor: TActor;
  /** A cookie-authenticated request from another site: its mutations are refused. */
  crossSiteWrite: boolean;
  /** The request's W3C `traceparent`: an exported turn joins the caller's trace. */
  traceparent?: string | undefined;
};

export function createInnerContext(opts: {
  deps: TServiceDeps;
  actor: TActor;
  crossSiteWrite?: boolean;
  traceparent?: string | undefined;
}): TInnerContext {
  return {
    deps: opts.deps,
    actor: opts.actor,
    crossSiteWrite: opts.crossSiteWrite ?? false,
    traceparent: opts.traceparent,
  };
}

// ---------------------------------------------------------------------------------------------
// 2. Initialisation. The formatter names the failing fields of a validation error and never
//    lets an unexpected error's message (or stack) reach the client.

/** zod (or Standard Schema) issues from a validation failure, if that is what `cause` is. */
function validationIssues(cause: unknown): TIssueLike[] | null {
  if (cause && typeof cause === "object" && "issues" in cause && Array.isArray(cause.issues)) {
    return cause.issues as TIssueLike[];
  }
  return null;
}

const t = initTRPC.context<TInnerContext>().create({
  errorFormatter({ shape, error }) {
    const issues = error.code === "BAD_REQUEST" ? validationIssues(error.cause) : null;
    const domain = isDomainError(error.cause) ? error.cause : null;
    const masked = error.code === "INTERNAL_SERVER_ERROR" && !domain;
    const { stack: _stack, ...data } = shape.data;
    return {
      ...shape,
      message: masked ? ERROR_TABLE.INTERNAL.message : issues ? describeIssues(issues) : shape.message,
      data: {
        ...data,
        domainCode: domain?.code ?? null,
        field: domain?.field ?? (issues ? firstIssueField(issues) : null),
        retryAfterSeconds: domain?.retryAfterSeconds ?? null,
      },
    };
  },
});

// ---------------------------------------------------------------------------------------------
// 3. Procedures. Domain errors thrown by services (or by the checks below) become their tRPC
//    code here, once. A tier narrows the caller once (`ctx.caller`); a procedure hands `ctx`
//    (deps + caller) and its parsed input to one service, which checks what that caller may
//    touch (ownership, Jam-only actions) but never sign-in again.
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok) return result;
  // A database out of reach is a 503 with Retry-After, not a masked 500 (issue 38).
  const cause = databaseUnavailable(result.error.cause) ?? result.error.cause;
  if (isDomainError(cause)) throw new TRPCError({ code: ERROR_TABLE[cause.code].trpc, message: cause.message, cause });
  return result;
});

/** Cookie-authenticated writes must come from our own origin (CSRF). */
const refuseCrossSiteWrites = t.middleware(({ ctx, type, next }) => {
  if (type === "mutation" && ctx.crossSiteWrite) throw crossSiteRefused();
  return next();
});

/** Every string of the input must be valid Unicode, and no input nests too deep: refused naming the field. */
const refuseBadInput = t.middleware(async ({ getRawInput, next }) => {
  refuseBadInputText(await getRawInput());
  return next();
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Anyone who can reach the server (only the health probe). */
export const publicProcedure = t.procedure.use(mapDomainErrors).use(refuseCrossSiteWrites).use(refuseBadInput);

/**
 * A signed-in account, by session cookie or API token: `user` or `jam`, as `ctx.caller`. Each
 * query (each call of a batch) counts against the account's read budget. Who is calling is
 * checked before the input is read: an anonymous body costs nothing but the refusal.
 */
export const signedInProcedure = t.procedure
  .use(mapDomainErrors)
  .use(refuseCrossSiteWrites)
  .use(({ ctx, next }) => next({ ctx: { caller: requireSignedIn(ctx.actor) } }))
  .use(refuseBadInput)
  .use(async ({ ctx, type, next }) => {
    if (type === "query") await chargeRead(ctx.deps, ctx.caller.userId);
    return next();
  });

/** A Jam editor. */
export const jamProcedure = signedInProcedure.use(({ ctx, next }) => {
  requireJam(ctx.caller, "do this");
  return next();
});
