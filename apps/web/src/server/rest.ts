import "server-only";
import { isDomainError, type TRestError } from "@solserver/contracts";
import {
  chargeRead,
  databaseUnavailable,
  parseInput,
  requireSignedIn,
  type TServiceContext,
} from "@solserver/control-plane";
import type { z } from "zod";
import { readBodyCapped } from "./body-limit";
import { getServer } from "./control-plane";
import { bodyNotJson, bodyNotJsonContentType, crossSiteRefused, isJsonContentType } from "./errors/refusals";
import { ERROR_TABLE, errorHeaders } from "./errors/table";
import { refuseBadInputText } from "./input-text";
import { admit } from "./load-shedding";
import { identify } from "./request-actor";

// The REST façade (seed 001 §3) over the same services as tRPC. Errors share one JSON shape
// (TRestError): { "error": { "code": "CONFLICT", "message": "...", "field": "proposal_id" } }.

/** A service context (deps + the signed-in caller) and the request. */
type TRestContext = TServiceContext & { req: Request };
type TRestResult<T> = { body: T; headers?: Record<string, string> };

function errorResponse(status: number, error: TRestError["error"], headers?: Record<string, string>): Response {
  return Response.json({ error } satisfies TRestError, { status, ...(headers ? { headers } : {}) });
}

/**
 * Runs one REST call: identifies the caller (API token or session cookie), refuses cross-site
 * cookie writes, validates the body against the route's output schema, maps domain errors to
 * HTTP statuses (with Retry-After when rate limited) and masks anything unexpected. The
 * services check what the caller may touch (ownership, Jam-only actions) themselves.
 */
export function runRest<S extends z.ZodType>(
  req: Request,
  output: S,
  handler: (ctx: TRestContext) => Promise<TRestResult<z.input<S>>>,
): Promise<Response> {
  // Every REST route is behind the load shedder: past its bound and queue, 503 before any work.
  return admit(() => runRestNow(req, output, handler), restError);
}

async function runRestNow<S extends z.ZodType>(
  req: Request,
  output: S,
  handler: (ctx: TRestContext) => Promise<TRestResult<z.input<S>>>,
): Promise<Response> {
  try {
    const ctx = await restContext(req);
    // A GET (or HEAD, which runs the GET handler) is a read: it counts against the account's read
    // budget, as a tRPC query does.
    if (req.method === "GET" || req.method === "HEAD") await chargeRead(ctx.deps, ctx.caller.userId);
    const { body, headers } = await handler(ctx);
    return Response.json(output.parse(body), { status: 200, ...(headers ? { headers } : {}) });
  } catch (error) {
    return restError(error);
  }
}

/**
 * Who calls a REST route, checked the same way for every route: the caller (API token or session
 * cookie) must have an account, and a cookie-authenticated write must come from our own origin.
 */
export async function restContext(req: Request): Promise<TRestContext> {
  const server = await getServer();
  const { actor, crossSiteWrite } = await identify(req, server);
  // Every REST route needs an account: say so before reading (or rejecting) the body.
  const caller = requireSignedIn(actor);
  if (crossSiteWrite) throw crossSiteRefused();
  return { deps: server.deps, caller, req, traceparent: req.headers.get("traceparent") ?? undefined };
}

/** The REST error body for anything a route throws: domain errors by code, the rest masked. */
export function restErrorBody(thrown: unknown): {
  status: number;
  error: TRestError["error"];
  headers?: Record<string, string>;
} {
  const error = databaseUnavailable(thrown) ?? thrown;
  if (isDomainError(error)) {
    const headers = errorHeaders(error);
    return {
      status: ERROR_TABLE[error.code].http,
      error: { code: error.code, message: error.message, field: error.field ?? null },
      ...(headers ? { headers } : {}),
    };
  }
  console.error("REST call failed:", error);
  const { http, message } = ERROR_TABLE.INTERNAL;
  return { status: http, error: { code: "INTERNAL", message, field: null } };
}

export function restError(error: unknown): Response {
  const { status, error: body, headers } = restErrorBody(error);
  return errorResponse(status, body, headers);
}

/** The JSON body of a request (size-capped), parsed against `schema`; names the field that breaks a rule. */
export async function readJsonBody<T extends z.ZodType>(req: Request, schema: T): Promise<z.infer<T>> {
  if (!isJsonContentType(req.headers.get("content-type"))) throw bodyNotJsonContentType();
  const text = await readBodyCapped(req);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw bodyNotJson();
  }
  refuseBadInputText(data);
  return parseInput(schema, data);
}

/** Query-string parameters as an object of strings, for schemas that coerce them. */
export function queryParams(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams.entries());
}
