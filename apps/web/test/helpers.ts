// Shared helpers for the web integration tests: row counts on the temp SQLite file, tRPC error
// capture and formatting (the same formatter the HTTP adapter uses), and fake model providers.
import type { TCfbDraft } from "@solserver/contracts";
import type { TModelProvider } from "@solserver/control-plane";
import type { DbClient } from "@solserver/db";
import { getErrorShape, TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { expect } from "vitest";
import type { TInnerContext } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/root";

export const LOCAL_ACTOR = { kind: "local", editor: "user" } as const;

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
] as const;
type TCountedTable = (typeof COUNTED_TABLES)[number];
type TCountable = { count: () => Promise<number> };

/** Row count of every table a turn or a promotion writes, plus the id counters. */
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

/** One tRPC call over HTTP through the fetch adapter (no batching, no transformer). */
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
  return {
    domain: "infra",
    kind: "authoritative",
    confidence: 0.9,
    title: "Seeded knowledge block",
    summary: "A CFB written directly for a test.",
    text: null,
    tags: ["seed"],
    entities: [],
    trust_tier: "repo_adr",
    source_refs: ["file:test.md"],
    ...overrides,
  };
}

/** The one element of a list, failing the test when there is not exactly one. */
export function only<T>(items: readonly T[]): T {
  expect(items).toHaveLength(1);
  return items[0] as T;
}
