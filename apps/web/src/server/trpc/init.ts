import {
  describeIssues,
  firstIssueField,
  requireReviewer,
  type TActor,
  type TControlPlane,
} from "@solserver/control-plane";
import { initTRPC, TRPCError } from "@trpc/server";
import { DOMAIN_TO_TRPC, isDomainError, MASKED_MESSAGE, validationIssues } from "./error-mapping";

// ---------------------------------------------------------------------------------------------
// 1. Context. `createInnerContext` needs no request, so tests build it directly; the HTTP
//    adapter's `createContext` (context.ts) derives the same shape from a request.
export type TInnerContext = {
  controlPlane: TControlPlane;
  actor: TActor;
};

export function createInnerContext(opts: TInnerContext): TInnerContext {
  return { controlPlane: opts.controlPlane, actor: opts.actor };
}

// ---------------------------------------------------------------------------------------------
// 2. Initialisation. The formatter names the failing fields of a validation error and never
//    lets an unexpected error's message (or stack) reach the client.
const t = initTRPC.context<TInnerContext>().create({
  errorFormatter({ shape, error }) {
    const issues = error.code === "BAD_REQUEST" ? validationIssues(error.cause) : null;
    const domain = isDomainError(error.cause) ? error.cause : null;
    const masked = error.code === "INTERNAL_SERVER_ERROR" && !domain;
    const { stack: _stack, ...data } = shape.data;
    return {
      ...shape,
      message: masked ? MASKED_MESSAGE : issues ? describeIssues(issues) : shape.message,
      data: {
        ...data,
        domainCode: domain?.code ?? null,
        field: domain?.field ?? (issues ? firstIssueField(issues) : null),
      },
    };
  },
});

// ---------------------------------------------------------------------------------------------
// 3. Procedures. Domain errors thrown by services become their tRPC code here, once.
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isDomainError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({ code: DOMAIN_TO_TRPC[cause.code], message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Anyone who can reach the server. */
export const publicProcedure = t.procedure.use(mapDomainErrors);

/**
 * Someone allowed to review proposals and read knowledge. Today that is the local operator
 * (the server binds to 127.0.0.1); issue 3 replaces the actor with accounts and roles. REST
 * routes make the same check through the same `requireReviewer`.
 */
export const reviewerProcedure = publicProcedure.use(({ ctx, next }) =>
  // A DomainError thrown here reaches mapDomainErrors above, like one from a service.
  next({ ctx: { ...ctx, actor: requireReviewer(ctx.actor) } }),
);
