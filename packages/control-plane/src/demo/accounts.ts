import type { TRepositories } from "@solserver/db";
import type { TCaller } from "../services/context";

export const DEMO_JAM = {
  email: "jam@solserver.local",
  name: "Demo Jam editor",
  password: "jam-demo-password",
  role: "jam",
} as const;
export const DEMO_USER = {
  email: "user@solserver.local",
  name: "Demo user",
  password: "user-demo-password",
  role: "user",
} as const;

type TNewAccount = { email: string; name: string; password: string; role: "user" | "jam" };

/**
 * The first-run accounts: a Jam editor (SOLSERVER_ADMIN_EMAIL / _PASSWORD override the demo
 * one) and a demo user. Existing accounts are left as they are. Returns the accounts it created,
 * so the caller can print their credentials once.
 */
export async function ensureFirstRunAccounts(
  repos: TRepositories,
  createAccount: (u: TNewAccount) => Promise<{ id: string }>,
  env: { SOLSERVER_ADMIN_EMAIL?: string | undefined; SOLSERVER_ADMIN_PASSWORD?: string | undefined },
): Promise<{ created: TNewAccount[]; user: TCaller }> {
  const jam: TNewAccount = {
    ...DEMO_JAM,
    email: env.SOLSERVER_ADMIN_EMAIL?.trim().toLowerCase() || DEMO_JAM.email,
    password: env.SOLSERVER_ADMIN_PASSWORD || DEMO_JAM.password,
  };
  const created: TNewAccount[] = [];
  for (const account of [jam, DEMO_USER]) {
    if (await repos.accounts.byEmail(account.email)) continue;
    await createAccount(account);
    created.push(account);
  }
  const user = await repos.accounts.byEmail(DEMO_USER.email);
  if (!user) throw new Error("the demo user could not be created");
  return { created, user: { kind: "user", userId: user.id, email: user.email, role: user.role, via: "token" } };
}
