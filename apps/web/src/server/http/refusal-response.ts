import type { TRestError } from "@solserver/contracts";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { ERROR_TABLE } from "../errors/table";
import type { TRefusal } from "./request-guard";

/**
 * An edge refusal as JSON, in the shape the path's clients read: tRPC's error envelope under
 * /api/trpc, the REST error body everywhere else (pages included: a browser shows it as text).
 */
export function refusalResponse(pathname: string, { error, headers }: TRefusal): Response {
  const { trpc, http } = ERROR_TABLE[error.code];
  const body = pathname.startsWith("/api/trpc/")
    ? { error: { message: error.message, code: TRPC_ERROR_CODES_BY_KEY[trpc], data: { code: trpc, httpStatus: http } } }
    : ({ error: { code: error.code, message: error.message, field: error.field ?? null } } satisfies TRestError);
  return Response.json(body, { status: http, ...(headers ? { headers } : {}) });
}
