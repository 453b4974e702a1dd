import { type DomainError, isDomainError } from "@solserver/contracts";
import { refuseDisabled, reserveSignIn, signInSucceeded, type TSignInReservation } from "@solserver/control-plane";
import { toNextJsHandler } from "better-auth/next-js";
import { withoutTokens } from "@/server/auth-answers";
import { readBodyCapped } from "@/server/body-limit";
import { getServer } from "@/server/control-plane";
import {
  bodyNotJson,
  bodyNotJsonContentType,
  bodyTooLarge,
  CROSS_SITE_REFUSED,
  crossSiteRefused,
  isJsonContentType,
} from "@/server/errors/refusals";
import { ERROR_TABLE, errorHeaders } from "@/server/errors/table";
import { clientIp, isSameOrigin } from "@/server/request-actor";
import { serverEnv } from "@/server/server-env";

export const runtime = "nodejs";

/** Largest sign-in body: an email and a password. */
const SIGN_IN_MAX_BYTES = 8 * 1024;

/**
 * A refusal in better-auth's error shape, `{ code, message }`, the code and status from the one
 * table. `message`, when given, is the shorter text these routes have always sent in place of
 * the error's own (the sign-in page words a 403 or a 413 itself).
 */
function refuse(error: DomainError, message = error.message): Response {
  const { trpc, http } = ERROR_TABLE[error.code];
  const headers = errorHeaders(error);
  return Response.json({ code: trpc, message }, { status: http, ...(headers ? { headers } : {}) });
}

/**
 * better-auth's endpoints (sign-in, sign-out, session). Email sign-in is wrapped: each attempt
 * is counted per account-and-address pair, per address and per account before the password is
 * checked (the sign-in guard; given back when it succeeds), and once a key has used its free
 * failures it must wait a growing delay: 429 with Retry-After.
 */
async function signIn(req: Request): Promise<Response> {
  const { deps, auth } = await getServer();
  // Only JSON: better-auth also reads form bodies, and a form body that parses as a JSON string
  // would be counted against no account while better-auth checked the password it carries.
  if (!isJsonContentType(req.headers.get("content-type"))) return refuse(bodyNotJsonContentType());
  let text: string;
  try {
    text = await readBodyCapped(req, SIGN_IN_MAX_BYTES);
  } catch (error) {
    if (isDomainError(error) && error.code === "PAYLOAD_TOO_LARGE")
      return refuse(bodyTooLarge(SIGN_IN_MAX_BYTES), "request body too large");
    if (isDomainError(error)) return refuse(error);
    throw error;
  }
  let email = "";
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object" && "email" in parsed && typeof parsed.email === "string")
      email = parsed.email;
  } catch {
    return refuse(bodyNotJson());
  }
  let reservation: TSignInReservation;
  try {
    reservation = await reserveSignIn(deps, email, clientIp(req));
  } catch (error) {
    // Always carries its retry delay (Retry-After).
    if (isDomainError(error) && error.code === "RATE_LIMITED") return refuse(error);
    throw error;
  }
  // better-auth reads exactly the JSON that was counted, whatever else the headers said.
  const headers = new Headers(req.headers);
  headers.set("content-type", "application/json");
  const response = await auth.handler(new Request(req.url, { method: "POST", headers, body: text }));
  if (response.ok) {
    await signInSucceeded(deps, reservation);
    try {
      await refuseDisabled(deps, email);
    } catch (error) {
      if (isDomainError(error) && error.code === "FORBIDDEN") return refuse(error);
      throw error;
    }
  }
  return response;
}

async function handle(req: Request): Promise<Response> {
  // Every auth POST (sign-in too: login CSRF) must come from the dashboard's own origin.
  if (!isSameOrigin(req, serverEnv().trustedOrigins)) {
    return refuse(crossSiteRefused(), CROSS_SITE_REFUSED);
  }
  const { auth } = await getServer();
  if (req.method === "POST" && new URL(req.url).pathname.endsWith("/sign-in/email")) {
    return withoutTokens(await signIn(req));
  }
  return withoutTokens(await toNextJsHandler(auth.handler).POST(req));
}

export async function GET(req: Request) {
  const { auth } = await getServer();
  return withoutTokens(await toNextJsHandler(auth.handler).GET(req));
}

export { handle as POST };
