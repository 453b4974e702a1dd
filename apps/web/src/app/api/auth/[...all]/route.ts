import { isDomainError } from "@solserver/contracts";
import { toNextJsHandler } from "better-auth/next-js";
import { readBodyCapped } from "@/server/body-limit";
import { getServer } from "@/server/control-plane";
import { clientIp } from "@/server/request-actor";

export const runtime = "nodejs";

/**
 * better-auth's endpoints (sign-in, sign-out, session). Email sign-in is wrapped: at most
 * N failures per account and per IP in the window (SOLSERVER limits), answered 429 with
 * Retry-After before the password is even checked.
 */
async function signIn(req: Request): Promise<Response> {
  const { controlPlane, auth } = await getServer();
  const text = await readBodyCapped(req, 8 * 1024).catch(() => null);
  if (text === null) return Response.json({ message: "request body too large" }, { status: 413 });
  let email = "";
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && "email" in parsed && typeof parsed.email === "string")
      email = parsed.email;
  } catch {
    return Response.json({ message: "body: must be valid JSON" }, { status: 400 });
  }
  const ip = clientIp(req);
  try {
    await controlPlane.signIn.guard(email, ip);
  } catch (error) {
    if (isDomainError(error) && error.code === "RATE_LIMITED") {
      return Response.json(
        { code: "TOO_MANY_REQUESTS", message: error.message },
        { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds ?? 60) } },
      );
    }
    throw error;
  }
  const response = await auth.handler(new Request(req.url, { method: "POST", headers: req.headers, body: text }));
  if (response.status === 401) await controlPlane.signIn.recordFailure(email, ip);
  return response;
}

async function handle(req: Request): Promise<Response> {
  const { auth } = await getServer();
  if (req.method === "POST" && new URL(req.url).pathname.endsWith("/sign-in/email")) return signIn(req);
  return toNextJsHandler(auth.handler).POST(req);
}

export async function GET(req: Request) {
  const { auth } = await getServer();
  return toNextJsHandler(auth.handler).GET(req);
}

export { handle as POST };
