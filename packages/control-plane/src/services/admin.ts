import { createHash, randomBytes } from "node:crypto";
import {
  DomainError,
  type TCfb,
  type TMe,
  type ZAccountCreateRequest,
  type ZAccountSetRoleRequest,
  type ZAuditListRequest,
  type ZCfbCreateRequest,
  type ZCfbUpdateRequest,
  type ZTokenCreateRequest,
} from "@solserver/contracts";
import type { TTokenView } from "@solserver/db";
import type { z } from "zod";
import { assertCanSeeThread, auditActor, requireJam, requireSignedIn } from "./access";
import type { TActor, TServiceDeps } from "./deps";

// ---- who am I -------------------------------------------------------------------------------

export async function me(deps: TServiceDeps, actor: TActor): Promise<TMe> {
  const caller = requireSignedIn(actor);
  const account = await deps.repos.accounts.get(caller.userId);
  if (!account) throw new DomainError("UNAUTHENTICATED", "this account no longer exists");
  return { id: account.id, email: account.email, name: account.name, role: account.role, via: caller.via };
}

// ---- CFB authoring (Jam) --------------------------------------------------------------------

export async function createCfb(
  deps: TServiceDeps,
  actor: TActor,
  input: z.output<typeof ZCfbCreateRequest>,
): Promise<TCfb> {
  const editor = requireJam(actor, "author CFBs");
  const cfb = await deps.repos.cfbs.create(input, auditActor(editor));
  deps.semantic?.afterWrite();
  return cfb;
}

export async function updateCfb(
  deps: TServiceDeps,
  actor: TActor,
  input: z.output<typeof ZCfbUpdateRequest>,
): Promise<TCfb> {
  const editor = requireJam(actor, "edit CFBs");
  const { cfb_id, version, ...draft } = input;
  const cfb = await deps.repos.cfbs.update(cfb_id, version, draft, auditActor(editor));
  deps.semantic?.afterWrite();
  return cfb;
}

// ---- API tokens (Jam) -----------------------------------------------------------------------

export const TOKEN_PREFIX = "sol_";

/** sha256 of a token: what is stored and looked up. Tokens are 256 random bits, so no salt is needed. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export async function listTokens(deps: TServiceDeps, actor: TActor): Promise<{ items: TTokenView[] }> {
  requireJam(actor, "manage API tokens");
  return { items: await deps.repos.accounts.listTokens() };
}

export async function createToken(
  deps: TServiceDeps,
  actor: TActor,
  input: z.output<typeof ZTokenCreateRequest>,
): Promise<TTokenView & { token: string }> {
  const editor = requireJam(actor, "manage API tokens");
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
    },
    { ...auditActor(editor), action: "token.create" },
  );
  return { ...view, token };
}

export async function revokeToken(deps: TServiceDeps, actor: TActor, tokenId: string): Promise<TTokenView> {
  const editor = requireJam(actor, "manage API tokens");
  return deps.repos.accounts.revokeToken(tokenId, deps.now(), { ...auditActor(editor), action: "token.revoke" });
}

// ---- accounts (Jam) -------------------------------------------------------------------------

export async function listAccounts(deps: TServiceDeps, actor: TActor) {
  requireJam(actor, "manage users");
  return { items: await deps.repos.accounts.list() };
}

export async function createAccount(deps: TServiceDeps, actor: TActor, input: z.output<typeof ZAccountCreateRequest>) {
  const editor = requireJam(actor, "manage users");
  if (!deps.createAccount) throw new DomainError("UNSUPPORTED", "accounts cannot be created in this deployment");
  const email = input.email.toLowerCase();
  if (await deps.repos.accounts.byEmail(email)) {
    throw new DomainError("CONFLICT", `an account with email ${email} already exists`, { field: "email" });
  }
  const { id } = await deps.createAccount({ email, name: input.name, password: input.password, role: input.role });
  await deps.repos.accounts.setRole(id, input.role, { ...auditActor(editor), action: "user.create" });
  const account = await deps.repos.accounts.record(id);
  if (!account) throw new Error(`account ${id} vanished after creation`);
  return account;
}

export async function setAccountRole(
  deps: TServiceDeps,
  actor: TActor,
  input: z.output<typeof ZAccountSetRoleRequest>,
) {
  const editor = requireJam(actor, "manage users");
  if (input.user_id === editor.userId && input.role !== "jam") {
    throw new DomainError("BAD_INPUT", "role: you cannot remove your own Jam role", { field: "role" });
  }
  await deps.repos.accounts.setRole(input.user_id, input.role, { ...auditActor(editor), action: "user.set_role" });
  return { user_id: input.user_id, role: input.role };
}

// ---- audit log (Jam) ------------------------------------------------------------------------

export async function listAudit(deps: TServiceDeps, actor: TActor, input: z.output<typeof ZAuditListRequest>) {
  requireJam(actor, "read the audit log");
  return deps.repos.audit.list({
    targetType: input.target_type,
    targetId: input.target_id,
    cursor: input.cursor,
    limit: input.limit,
  });
}

// ---- threads and their traces ---------------------------------------------------------------

export async function listThreads(deps: TServiceDeps, actor: TActor, limit: number) {
  const caller = requireSignedIn(actor);
  return { items: await deps.repos.threads.list(caller.role === "jam" ? undefined : caller.userId, limit) };
}

export async function getThread(deps: TServiceDeps, actor: TActor, threadId: string) {
  const caller = requireSignedIn(actor);
  const thread = await deps.repos.threads.get(threadId);
  if (!thread) throw new DomainError("NOT_FOUND", `thread ${threadId} does not exist`, { field: "thread_id" });
  assertCanSeeThread(caller, thread.owner_id, `thread ${threadId}`);
  const { owner_id: _owner, ...detail } = thread;
  return detail;
}
