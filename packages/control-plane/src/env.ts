import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repositoryRoot, resolveDatabaseUrl } from "@solserver/db";
import { z } from "zod";

// The server environment, parsed in one place for the web app and the scripts alike. A bad
// value stops start-up with the variable's name and the rule it breaks.
const ZServerEnv = z.object({
  // Empty or unset: the default file; relative paths resolve against the repository root.
  DATABASE_URL: z
    .string()
    .optional()
    .transform((value) => resolveDatabaseUrl(value))
    .pipe(z.string().startsWith("file:", { error: "must be a SQLite file: URL such as file:.data/solserver.db" })),
  SOLSERVER_MODEL: z
    .enum(["offline"], { error: 'must be "offline" (the only model provider in this build)' })
    .default("offline"),
  // Where people open the dashboard. https makes session cookies Secure.
  SOLSERVER_BASE_URL: z.url({ error: "must be a URL such as http://localhost:3000" }).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  // Extra origins allowed to send cookie-authenticated requests, comma-separated.
  SOLSERVER_TRUSTED_ORIGINS: z.string().default(""),
  BETTER_AUTH_SECRET: z.string().min(32, { error: "must be at least 32 characters" }).optional(),
  SOLSERVER_CHAT_TURNS_PER_MINUTE: z.coerce.number().int().min(1, { error: "must be at least 1" }).default(30),
});

export type TServerEnv = {
  DATABASE_URL: string;
  SOLSERVER_MODEL: "offline";
  SOLSERVER_BASE_URL: string;
  BETTER_AUTH_SECRET: string;
  SOLSERVER_CHAT_TURNS_PER_MINUTE: number;
  /** Origins whose cookie-authenticated requests are accepted (CSRF) and by better-auth. */
  trustedOrigins: string[];
};

/**
 * The session-signing secret: BETTER_AUTH_SECRET, or one generated on first run and kept in
 * `.data/auth-secret` (mode 600) so sessions survive restarts of a local install.
 */
function authSecret(given: string | undefined): string {
  if (given) return given;
  const file = path.join(repositoryRoot(), ".data", "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** The base URL's origin and its localhost / 127.0.0.1 twin, plus any extra origins given. */
function trustedOrigins(baseURL: string, extra: string): string[] {
  const base = new URL(baseURL);
  const twins = ["localhost", "127.0.0.1"].includes(base.hostname)
    ? ["localhost", "127.0.0.1"].map((h) => `${base.protocol}//${h}${base.port ? `:${base.port}` : ""}`)
    : [base.origin];
  const more = extra
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => new URL(o).origin);
  return [...new Set([base.origin, ...twins, ...more])];
}

export function loadServerEnv(env: Record<string, string | undefined> = process.env): TServerEnv {
  const parsed = ZServerEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  const e = parsed.data;
  const baseURL = e.SOLSERVER_BASE_URL ?? `http://localhost:${e.PORT}`;
  return {
    DATABASE_URL: e.DATABASE_URL,
    SOLSERVER_MODEL: e.SOLSERVER_MODEL,
    SOLSERVER_BASE_URL: baseURL,
    BETTER_AUTH_SECRET: authSecret(e.BETTER_AUTH_SECRET),
    SOLSERVER_CHAT_TURNS_PER_MINUTE: e.SOLSERVER_CHAT_TURNS_PER_MINUTE,
    trustedOrigins: trustedOrigins(baseURL, e.SOLSERVER_TRUSTED_ORIGINS),
  };
}
