import { isDomainError } from "@solserver/contracts";
import { refundSignIn, reserveSignIn } from "@solserver/control-plane";
import { toNextJsHandler } from "better-auth/next-js";
import { serverEnv } from "@/env";
import { readBodyCapped } from "@/server/body-limit";
import { getServer } from "@/server/control-plane";
import { clientIp, isSameOrigin } from "@/server/request-actor";

export const runtime = "nodejs";

/**
 * better-auth's endpoints (sign-in, sign-out, session). Email sign-in is wrapped: each attempt
 * is counted per account and per IP before the password is checked (and given back when it
 * succeeds), so at most N failures fit in the window; over that, 429 with Retry-After.
 */
async function signIn(req: Request): Promise<Response> {
  const { deps, auth } = await getServer();
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
    await reserveSignIn(deps, email, ip);
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
  if (response.ok) await refundSignIn(deps, email, ip);
  return response;
}

async function handle(req: Request): Promise<Response> {
  // Every auth POST (sign-in too: login CSRF) must come from the dashboard's own origin.
  if (!isSameOrigin(req, serverEnv().trustedOrigins)) {
    return Response.json({ code: "FORBIDDEN", message: "cross-site request refused" }, { status: 403 });
  }
  const { auth } = await getServer();
  if (req.method === "POST" && new URL(req.url).pathname.endsWith("/sign-in/email")) return signIn(req);
  return toNextJsHandler(auth.handler).POST(req);
}

export async function GET(req: Request) {
  const { auth } = await getServer();
  return toNextJsHandler(auth.handler).GET(req);
}

export { handle as POST };
