// Shared helpers for the web integration tests: row counts on the temp SQLite file, tRPC error
// capture and formatting (the same formatter the HTTP adapter uses), fake model providers, and
// the web server as Next runs it (route handlers over the getServer() singleton) with accounts,
// session cookies and API tokens.
import type { TCfbDraft } from "@solserver/contracts";
import {
  createPasswordAccount,
  createToken,
  requireSignedIn,
  type TActor,
  type TModelProvider,
  type TServiceContext,
} from "@solserver/control-plane";
import { createPrismaClient, type DbClient } from "@solserver/db";
import { createTestDatabase, testCfb } from "@solserver/db/testing";
import { getErrorShape, TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { expect } from "vitest";
import { PEER_ADDRESS_HEADER } from "@/server/peer-address";
import type { TInnerContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";
import { BASE_URL, type THeaders } from "./http-client";

// The calls over HTTP (REST routes, tRPC through its route handler, server-sent events) live in
// http-client.ts; they are re-exported here so suites import everything test-related from one place.
export * from "./http-client";

type TSignedInActor = Extract<TActor, { kind: "user" }>;
export const ANONYMOUS: TActor = { kind: "anonymous" };

const COUNTED_TABLES = [
  "Thread",
  "Message",
  "Packet",
  "Transmission",
  "DeliveryAttempt",
  "Response",
  "ResponseMeta",
  "UmbraProposal",
  "Cfb",
  "CfbRevision",
  "CfbStats",
  "CfbUsageEvent",
  "PromotionEvent",
  "TraceRun",
  "TraceEvent",
  "AuditEvent",
  "ApiToken",
  "User",
] as const;
type TCountedTable = (typeof COUNTED_TABLES)[number];
type TCountable = { count: () => Promise<number> };

/** Row count of every table a turn, a promotion or an admin act writes, plus the id counters. */
export async function rowCounts(db: DbClient) {
  const delegate = (table: TCountedTable) =>
    (db as unknown as Record<string, TCountable>)[table.charAt(0).toLowerCase() + table.slice(1)] as TCountable;
  const counts = await Promise.all(COUNTED_TABLES.map((t) => delegate(t).count()));
  const sequences = await db.idSequence.findMany({ orderBy: { name: "asc" } });
  return {
    ...(Object.fromEntries(COUNTED_TABLES.map((t, i) => [t, counts[i] ?? 0])) as Record<TCountedTable, number>),
    IdSequence: Object.fromEntries(sequences.map((s) => [s.name, s.value])),
  };
}

/** The TRPCError a call rejects with; fails the test when the call succeeds or throws something else. */
export async function trpcError(call: Promise<unknown>): Promise<TRPCError> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected a TRPCError, but the call succeeded with ${JSON.stringify(value)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

/** The error shape the app's errorFormatter gives a client for `error` (what the HTTP adapter sends). */
export function clientShape(ctx: TInnerContext, error: TRPCError, path: string) {
  return getErrorShape({ config: appRouter._def._config, error, type: "unknown", path, input: undefined, ctx });
}

/** One tRPC call over HTTP through the fetch adapter with a fixed context (no batching, no transformer). */
export async function trpcOverHttp(
  ctx: TInnerContext,
  path: string,
  input: unknown,
  method: "GET" | "POST",
): Promise<{ status: number; text: string; body: unknown }> {
  const base = `http://localhost/api/trpc/${path}`;
  const req =
    method === "GET"
      ? new Request(`${base}?input=${encodeURIComponent(JSON.stringify(input))}`)
      : new Request(base, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(input),
        });
  const res = await fetchRequestHandler({ endpoint: "/api/trpc", req, router: appRouter, createContext: () => ctx });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}

/** A model that always answers with `envelope`, whatever it is asked. */
export function envelopeModel(envelope: unknown, name = "fixed-envelope-test"): TModelProvider {
  return {
    name,
    async generate() {
      return { envelope, tokensIn: 3, tokensOut: 5 };
    },
  };
}

/** A model whose every call fails with `error`. */
export function throwingModel(error: unknown, name = "throwing-test"): TModelProvider {
  return {
    name,
    async generate() {
      throw error;
    },
  };
}

/** A hand-written CFB, as demo data or an import would create it. */
export function cfbDraft(overrides: Partial<TCfbDraft> = {}): TCfbDraft {
  return testCfb({
    domain: "infra",
    title: "Seeded knowledge block",
    summary: "A CFB written directly for a test.",
    tags: ["seed"],
    trust_tier: "repo_adr",
    source_refs: ["file:test.md"],
    ...overrides,
  });
}

/** The one element of a list, failing the test when there is not exactly one. */
export function only<T>(items: readonly T[]): T {
  expect(items).toHaveLength(1);
  return items[0] as T;
}

// ---- the web server as Next runs it ------------------------------------------------------------

export const FOREIGN_ORIGIN = "https://evil.example";
const AUTH_SECRET = "web-test-secret-web-test-secret-0123456789";

export type TWebAccount = {
  actor: TSignedInActor;
  userId: string;
  email: string;
  password: string;
};

/**
 * The web server of this test file: a fresh migrated SQLite file, the environment pointed at it
 * and the `getServer()` singleton opened from that environment (so set `env` overrides here,
 * before anything opens it), plus the route handlers and a second Prisma client for assertions.
 * Vitest runs each test file in its own process, so each file gets its own server and database.
 */
export async function openWebServer(label: string, env: Record<string, string> = {}) {
  const database = await createTestDatabase(label);
  Object.assign(process.env, {
    DATABASE_URL: database.url,
    SOLSERVER_BASE_URL: BASE_URL,
    BETTER_AUTH_SECRET: AUTH_SECRET,
    SOLSERVER_TRUSTED_ORIGINS: "",
    // Suites make many turns per account; the rate-limit suite lowers this.
    SOLSERVER_CHAT_TURNS_PER_MINUTE: "10000",
    // ... and many reads; the read-budget suite lowers this.
    SOLSERVER_READS_PER_MINUTE: "100000",
    ...env,
  });
  // Never reuse a server some earlier module instance may have left on globalThis.
  delete (globalThis as { solserver?: unknown }).solserver;
  const { getServer } = await import("@/server/control-plane");
  const server = await getServer();
  const routes = {
    chat: await import("@/app/chat/respond/route"),
    chatStream: await import("@/app/chat/respond/stream/route"),
    proposals: await import("@/app/umbra/proposals/route"),
    promote: await import("@/app/umbra/promote/route"),
    gate: await import("@/app/gate/evaluate/route"),
    memento: await import("@/app/threads/[id]/memento/route"),
    procedure: await import("@/app/threads/[id]/procedure/route"),
    procedures: await import("@/app/procedures/route"),
    healthz: await import("@/app/healthz/route"),
    readyz: await import("@/app/readyz/route"),
    trpc: await import("@/app/api/trpc/[trpc]/route"),
    auth: await import("@/app/api/auth/[...all]/route"),
  };
  const db = await createPrismaClient(database.url);
  let counter = 0;

  /** The context the transports hand a service for this actor (anonymous is refused, as they do). */
  const as = (actor: TActor): TServiceContext => ({ deps: server.deps, caller: requireSignedIn(actor) });

  /** A new password account with this role (as the setup command or a Jam editor creates them). */
  async function account(role: "user" | "jam", label: string = role): Promise<TWebAccount> {
    counter++;
    const email = `${label}-${counter}@web.test`;
    const password = `${label}-password-${counter}`;
    const { id } = await createPasswordAccount(server.auth, { email, name: `${label} ${counter}`, password, role });
    return { actor: { kind: "user", userId: id, email, role, via: "cookie" }, userId: id, email, password };
  }

  /** POST /api/auth/sign-in/email through the auth route, from the dashboard's origin unless told. */
  function signIn(email: string, password: string, headers: THeaders = {}): Promise<Response> {
    return routes.auth.POST(
      new Request(`${BASE_URL}/api/auth/sign-in/email`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: BASE_URL, ...headers },
        body: JSON.stringify({ email, password }),
      }),
    );
  }

  /** A real session: signs in and returns the Cookie header a browser would send back. */
  async function sessionCookie(who: TWebAccount): Promise<string> {
    const res = await signIn(who.email, who.password, { [PEER_ADDRESS_HEADER]: "10.0.0.1" });
    expect(res.status).toBe(200);
    const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0] ?? "");
    expect(cookies.some((c) => c.startsWith("better-auth.session_token="))).toBe(true);
    return cookies.join("; ");
  }

  /** Headers of a browser on the dashboard: the session cookie and our own Origin. */
  async function browser(who: TWebAccount): Promise<THeaders> {
    return { cookie: await sessionCookie(who), origin: BASE_URL };
  }

  /** An API token a Jam editor created for `who`, as a service would send it. */
  async function bearer(jam: TWebAccount, who: TWebAccount, name = "test service"): Promise<THeaders> {
    const created = await createToken(as(jam.actor), { user_id: who.userId, name });
    return { authorization: `Bearer ${created.token}` };
  }

  return {
    database,
    server,
    deps: server.deps,
    as,
    auth: server.auth,
    routes,
    db,
    account,
    signIn,
    sessionCookie,
    browser,
    bearer,
    close: async () => {
      await db.$disconnect();
      database.cleanup();
    },
  };
}
export type TWebServer = Awaited<ReturnType<typeof openWebServer>>;
