import "server-only";
import { DomainError, isDomainError } from "@solserver/contracts";
import { parseInput, type TActor, type TControlPlane } from "@solserver/control-plane";
import type { z } from "zod";
import { getControlPlane } from "./control-plane";
import { DOMAIN_TO_HTTP, MASKED_MESSAGE } from "./trpc/error-mapping";

// The REST façade (seed 001 §3) over the same services as tRPC. Errors share one JSON shape:
// { "error": { "code": "CONFLICT", "message": "...", "field": "proposal_id" } }.

type TRestHandler = (args: {
  controlPlane: TControlPlane;
  actor: TActor;
}) => Promise<{ body: unknown; headers?: Record<string, string> }>;

function errorResponse(status: number, code: string, message: string, field: string | null): Response {
  return Response.json({ error: { code, message, field } }, { status });
}

/** Runs one REST call: maps domain errors to HTTP statuses and masks anything unexpected. */
export async function runRest(handler: TRestHandler): Promise<Response> {
  try {
    const controlPlane = await getControlPlane();
    const { body, headers } = await handler({ controlPlane, actor: { kind: "local", editor: "user" } });
    return Response.json(body, { status: 200, ...(headers ? { headers } : {}) });
  } catch (error) {
    if (isDomainError(error))
      return errorResponse(DOMAIN_TO_HTTP[error.code], error.code, error.message, error.field ?? null);
    console.error("REST call failed:", error);
    return errorResponse(500, "INTERNAL", MASKED_MESSAGE, null);
  }
}

/** The JSON body of a request, parsed against `schema`; names the field that breaks a rule. */
export async function readJsonBody<T extends z.ZodType>(req: Request, schema: T): Promise<z.infer<T>> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("application/json")) {
    throw new DomainError("BAD_INPUT", "body: Content-Type must be application/json", { field: "body" });
  }
  let data: unknown;
  try {
    data = await req.json();
  } catch {
    throw new DomainError("BAD_INPUT", "body: must be valid JSON", { field: "body" });
  }
  return parseInput(schema, data);
}

/** Query-string parameters as an object of strings, for schemas that coerce them. */
export function queryParams(req: Request): Record<string, string> {
  return Object.fromEntries(new URL(req.url).searchParams.entries());
}
