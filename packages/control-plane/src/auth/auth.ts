import { MIN_PASSWORD_LENGTH } from "@solserver/contracts";
import { connectionOf, type DbClient } from "@solserver/db";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";

const WEEK_SECONDS = 60 * 60 * 24 * 7;

export type TAuthOptions = {
  prisma: DbClient;
  secret: string;
  /** Public URL of the dashboard; https makes session cookies Secure. */
  baseURL: string;
  trustedOrigins: string[];
};

/**
 * better-auth over the same Prisma client as the repositories: email + password, sessions in
 * the database, HttpOnly SameSite=Lax cookies (Secure when baseURL is https). Self sign-up is
 * off: accounts are created by the setup command or a Jam editor. Its own rate limiter is off
 * because ours slows failures per account-and-address pair, per address and per account (see
 * services/sign-in-guard.ts). The web's auth route strips session tokens from answer bodies.
 */
export function createAuth(opts: TAuthOptions) {
  return betterAuth({
    database: prismaAdapter(opts.prisma, { provider: connectionOf(opts.prisma).dialect.prismaProvider }),
    secret: opts.secret,
    baseURL: opts.baseURL,
    trustedOrigins: opts.trustedOrigins,
    emailAndPassword: { enabled: true, disableSignUp: true, minPasswordLength: MIN_PASSWORD_LENGTH },
    user: { additionalFields: { role: { type: "string", defaultValue: "user", input: false } } },
    session: { expiresIn: WEEK_SECONDS },
    advanced: { defaultCookieAttributes: { httpOnly: true, sameSite: "lax" } },
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
  });
}

export type TAuth = ReturnType<typeof createAuth>;

/** Creates an account with a password (better-auth's own hashing and account linking). */
/** Sets the password of an account's credential sign-in (better-auth's own hash). */
export async function setAccountPassword(auth: TAuth, userId: string, password: string): Promise<void> {
  const ctx = await auth.$context;
  await ctx.internalAdapter.updatePassword(userId, await ctx.password.hash(password));
}

export async function createPasswordAccount(
  auth: TAuth,
  u: { email: string; name: string; password: string; role: "user" | "jam" },
): Promise<{ id: string }> {
  const ctx = await auth.$context;
  const hash = await ctx.password.hash(u.password);
  const user = await ctx.internalAdapter.createUser(
    { email: u.email, name: u.name, role: u.role, emailVerified: true },
    { method: "admin" },
  );
  await ctx.internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: hash,
  });
  return { id: user.id };
}
