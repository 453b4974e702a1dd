import { isDomainError } from "@solserver/contracts";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { MAX_BODY_BYTES, readBodyCapped } from "@/server/body-limit";
import { createContext } from "@/server/trpc/context";
import { appRouter } from "@/server/trpc/root";

export const runtime = "nodejs";

async function handler(incoming: Request) {
  let req = incoming;
  if (incoming.method === "POST") {
    // The fetch adapter has no body limit of its own: cap it before tRPC reads it.
    try {
      const body = await readBodyCapped(incoming, MAX_BODY_BYTES);
      req = new Request(incoming.url, { method: "POST", headers: incoming.headers, body });
    } catch (error) {
      if (!isDomainError(error)) throw error;
      return Response.json(
        { error: { message: error.message, code: -32600, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 } } },
        { status: 413 },
      );
    }
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createContext(req),
    responseMeta({ errors }) {
      // A rate-limited call says when to come back.
      const retry = errors
        .map((e) => (isDomainError(e.cause) ? e.cause.retryAfterSeconds : undefined))
        .find((s) => s !== undefined);
      return retry === undefined ? {} : { headers: new Headers({ "Retry-After": String(retry) }) };
    },
    onError({ error, path }) {
      // Unexpected errors are masked for the client; log them for the operator.
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`tRPC ${path ?? "?"} failed:`, error.cause ?? error);
    },
  });
}

export { handler as GET, handler as POST };
