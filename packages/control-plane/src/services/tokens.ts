import { createHash, randomBytes } from "node:crypto";
import { DomainError, type TTokenCreateRequest, type TTokenRevokeRequest } from "@solserver/contracts";
import type { TTokenView } from "@solserver/db";
import { auditActor, requireJam } from "./access";
import type { TServiceContext } from "./context";

// API tokens (Jam editors manage them): shown once, stored as a hash, acting as their account.

export const TOKEN_PREFIX = "sol_";

/** sha256 of a token: what is stored and looked up. Tokens are 256 random bits, so no salt is needed. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function listTokens({ deps, caller }: TServiceContext): Promise<{ items: TTokenView[] }> {
  requireJam(caller, "manage API tokens");
  return { items: await deps.repos.accounts.listTokens() };
}

export async function createToken(
  { deps, caller }: TServiceContext,
  input: TTokenCreateRequest,
): Promise<TTokenView & { token: string }> {
  const editor = requireJam(caller, "manage API tokens");
  const subject = await deps.repos.accounts.get(input.user_id);
  if (!subject) throw new DomainError("NOT_FOUND", `user ${input.user_id} does not exist`, { field: "user_id" });
  // A token acts as its account: one Jam editor must not be able to act as another.
  if (subject.role === "jam" && subject.id !== editor.userId) {
    throw new DomainError("FORBIDDEN", "a token for a Jam editor can only be created by that editor", {
      field: "user_id",
    });
  }
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const view = await deps.repos.accounts.createToken(
    {
      userId: input.user_id,
      name: input.name,
      prefix: token.slice(0, 12),
      tokenHash: hashToken(token),
      createdById: editor.userId,
      expiresAt:
        input.expires_in_days === undefined
          ? null
          : new Date(deps.now().getTime() + input.expires_in_days * 86_400_000),
    },
    { ...auditActor(editor), action: "token.create" },
  );
  return { ...view, token };
}

export async function revokeToken({ deps, caller }: TServiceContext, input: TTokenRevokeRequest): Promise<TTokenView> {
  const editor = requireJam(caller, "manage API tokens");
  return deps.repos.accounts.revokeToken(input.token_id, deps.now(), {
    ...auditActor(editor),
    action: "token.revoke",
  });
}
