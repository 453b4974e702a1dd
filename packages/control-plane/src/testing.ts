// Test support: a control plane with accounts on a fresh, migrated SQLite file.
import { createTestDatabase } from "@solserver/db/testing";
import { createPasswordAccount } from "./auth/auth";
import { openControlPlane, type TOpenOptions } from "./control-plane";
import type { TActor } from "./services/deps";

export type TTestActor = Extract<TActor, { kind: "user" }>;

export const TEST_BASE_URL = "http://localhost:3000";

export async function openTestControlPlane(opts: Omit<TOpenOptions, "databaseUrl" | "auth"> & { label?: string } = {}) {
  const database = await createTestDatabase(opts.label ?? "cp");
  const opened = await openControlPlane({
    ...opts,
    databaseUrl: database.url,
    auth: {
      secret: "test-secret-test-secret-test-secret-0123",
      baseURL: TEST_BASE_URL,
      trustedOrigins: [TEST_BASE_URL],
    },
  });
  const auth = opened.auth;
  if (!auth) throw new Error("auth missing");
  let counter = 0;
  /** A new account with this role; its actor as a cookie session would resolve it. */
  async function account(role: "user" | "jam", email?: string): Promise<TTestActor & { password: string }> {
    counter++;
    const address = email ?? `${role}${counter}-${process.pid}@test.local`;
    const password = `password-${counter}-long-enough`;
    const { id } = await createPasswordAccount(auth as NonNullable<typeof auth>, {
      email: address,
      name: `${role} ${counter}`,
      password,
      role,
    });
    return { kind: "user", userId: id, email: address, role, via: "cookie", password };
  }
  return {
    ...opened,
    database,
    account,
    close: async () => {
      await opened.db.$disconnect();
      database.cleanup();
    },
  };
}
