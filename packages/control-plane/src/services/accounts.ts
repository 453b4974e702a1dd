import { DomainError, type TAccountCreateRequest, type TAccountSetRoleRequest, type TMe } from "@solserver/contracts";
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
