import type { TActor, TServiceDeps } from "./deps";
import { hashToken, TOKEN_PREFIX } from "./tokens";

/**
 * The actor behind `Authorization: Bearer <token>`: the token's account, or anonymous when the
 * token is unknown or revoked (the procedure then answers UNAUTHORIZED, never which it was).
 */
export async function actorFromBearer(deps: TServiceDeps, token: string): Promise<TActor> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return { kind: "anonymous" };
  const account = await deps.repos.accounts.byTokenHash(hashToken(token), deps.now());
  return account
    ? { kind: "user", userId: account.id, email: account.email, role: account.role, via: "token" }
    : { kind: "anonymous" };
}

/** The actor of a cookie session, with the role as stored on the account right now. */
export async function actorFromSession(deps: TServiceDeps, userId: string): Promise<TActor> {
  const account = await deps.repos.accounts.get(userId);
  return account
    ? { kind: "user", userId: account.id, email: account.email, role: account.role, via: "cookie" }
    : { kind: "anonymous" };
}
