import { type DomainError, isDomainError, MAX_BATCH_CALLS } from "@solserver/contracts";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { MAX_BODY_BYTES, readBodyCapped } from "@/server/body-limit";
import { ERROR_TABLE, errorHeaders } from "@/server/errors/table";
import { admit } from "@/server/load-shedding";
import { checkBatchLimits } from "@/server/trpc/batch-limits";
import { createContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/root";

export const runtime = "nodejs";

/** A refusal made before tRPC runs (body and batch limits), answered in tRPC's error shape. */
function trpcRefusal(error: DomainError): Response {
  const { trpc, http } = ERROR_TABLE[error.code];
  return Response.json(
    { error: { message: error.message, code: TRPC_ERROR_CODES_BY_KEY[trpc], data: { code: trpc, httpStatus: http } } },
    { status: http },
  );
}

/**
 * The request tRPC sees, without what asks for a streamed answer (`trpc-accept` or an `Accept` of
 * `application/jsonl`): tRPC would answer at once and go on working after the load shedder's slot
 * was given back. No client of ours streams; every answer is whole.
 */
function unstreamed(incoming: Request, body: string | null): Request {
  const headers = new Headers(incoming.headers);
  headers.delete("trpc-accept");
  const accept = headers.get("accept");
  if (accept?.split(",").some((t) => t.trim().startsWith("application/jsonl")))
    headers.set("accept", "application/json");
  return new Request(incoming.url, { method: incoming.method, headers, ...(body !== null ? { body } : {}) });
}

/**
 * The body is read (capped, with a deadline) and the batch checked before a slot is taken: a
 * sender that trickles its body never holds one of the load shedder's slots.
 */
async function route(incoming: Request): Promise<Response> {
  let req: Request;
  try {
    // The fetch adapter has no body limit of its own: cap it before tRPC reads it.
    const body = incoming.method === "POST" ? await readBodyCapped(incoming, MAX_BODY_BYTES) : null;
    checkBatchLimits(incoming.url, body);
    req = unstreamed(incoming, body);
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return trpcRefusal(error);
  }
  return admit(() => handler(req), trpcRefusal);
}

function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    maxBatchSize: MAX_BATCH_CALLS,
    createContext: () => createContext(req),
    responseMeta({ errors }) {
      // A rate-limited call says when to come back.
      const headers = errors.map((e) => (isDomainError(e.cause) ? errorHeaders(e.cause) : undefined)).find(Boolean);
      return headers ? { headers: new Headers(headers) } : {};
    },
    onError({ error, path }) {
      // Unexpected errors are masked for the client; log them for the operator.
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`tRPC ${path ?? "?"} failed:`, error.cause ?? error);
    },
  });
}

export { route as GET, route as POST };
