import { randomBytes } from "node:crypto";
import {
  DomainError,
  type TAccountCreateRequest,
  type TAccountSetRoleRequest,
  type TMe,
  type ZAccountDeleteRequest,
  type ZAccountResetPasswordRequest,
  type ZAccountSetDisabledRequest,
} from "@solserver/contracts";
import type { z } from "zod";
import { auditActor, requireJam } from "./access";
import type { TServiceContext } from "./context";

// Accounts: who am I, and account management (Jam editors only).

export async function me({ deps, caller }: TServiceContext): Promise<TMe> {
  const account = await deps.repos.accounts.get(caller.userId);
  if (!account) throw new DomainError("UNAUTHENTICATED", "this account no longer exists");
  return { id: account.id, email: account.email, name: account.name, role: account.role, via: caller.via };
}

export async function listAccounts({ deps, caller }: TServiceContext) {
  requireJam(caller, "manage users");
  return { items: await deps.repos.accounts.list() };
}

export async function createAccount({ deps, caller }: TServiceContext, input: TAccountCreateRequest) {
  const editor = requireJam(caller, "manage users");
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

export async function setAccountRole({ deps, caller }: TServiceContext, input: TAccountSetRoleRequest) {
  const editor = requireJam(caller, "manage users");
  if (input.user_id === editor.userId && input.role !== "jam") {
    throw new DomainError("BAD_INPUT", "role: you cannot remove your own Jam role", { field: "role" });
  }
  await deps.repos.accounts.setRole(input.user_id, input.role, { ...auditActor(editor), action: "user.set_role" });
  return { user_id: input.user_id, role: input.role };
}

/** Refuses acting on one's own account where that would lock the editor out. */
function notSelf(editorId: string, userId: string, what: string) {
  if (editorId === userId)
    throw new DomainError("BAD_INPUT", `user_id: you cannot ${what} your own account`, { field: "user_id" });
}

/** Disables an account (its sessions end at once) or enables it again. */
export async function setAccountDisabled(
  { deps, caller }: TServiceContext,
  input: z.output<typeof ZAccountSetDisabledRequest>,
) {
  const editor = requireJam(caller, "manage users");
  if (input.disabled) notSelf(editor.userId, input.user_id, "disable");
  await deps.repos.accounts.setDisabled(input.user_id, input.disabled, auditActor(editor));
  const account = await deps.repos.accounts.record(input.user_id);
  if (!account) throw new DomainError("NOT_FOUND", `user ${input.user_id} does not exist`, { field: "user_id" });
  return account;
}

/** Deletes an account, when `confirm_email` is its email; its threads stay, without an owner. */
export async function deleteAccount({ deps, caller }: TServiceContext, input: z.output<typeof ZAccountDeleteRequest>) {
  const editor = requireJam(caller, "manage users");
  notSelf(editor.userId, input.user_id, "delete");
  const account = await deps.repos.accounts.record(input.user_id);
  if (!account) throw new DomainError("NOT_FOUND", `user ${input.user_id} does not exist`, { field: "user_id" });
  if (account.email.toLowerCase() !== input.confirm_email.toLowerCase())
    throw new DomainError("BAD_INPUT", "confirm_email: type the account's email to delete it", {
      field: "confirm_email",
    });
  const { email } = await deps.repos.accounts.remove(input.user_id, auditActor(editor));
  return { user_id: input.user_id, email };
}

/** Password length a reset generates: 18 random bytes as 24 base64url characters. */
const RESET_BYTES = 18;

/**
 * Sets a new random password on an account and ends its sessions; the password is in the answer
 * only (shown once to the Jam editor, who hands it over). Audited without the password.
 */
export async function resetAccountPassword(
  { deps, caller }: TServiceContext,
  input: z.output<typeof ZAccountResetPasswordRequest>,
) {
  const editor = requireJam(caller, "manage users");
  if (!deps.setPassword) throw new DomainError("UNSUPPORTED", "passwords cannot be set in this deployment");
  const account = await deps.repos.accounts.record(input.user_id);
  if (!account) throw new DomainError("NOT_FOUND", `user ${input.user_id} does not exist`, { field: "user_id" });
  const password = randomBytes(RESET_BYTES).toString("base64url");
  await deps.setPassword(input.user_id, password);
  await deps.repos.accounts.passwordReset(input.user_id, auditActor(editor));
  return { user_id: account.id, email: account.email, password };
}
