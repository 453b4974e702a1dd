import type { TClaimCheckView, TClaimMapEntry, TThreadDetail } from "@solserver/contracts";
import { type Expression, sql as kyselySql, type RawBuilder, type SqlBool } from "kysely";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { asStringArray } from "../json";
import { afterCursor, keysetOrder, pageOf, type TKeyset } from "../pagination";
import { dateOf, type TSql } from "../sql";
import { fragment, rows, typed } from "../typed-sql";
import type { TStore } from "./store";

export type TThreadSummaryView = {
  thread_id: string;
  title: string;
  owner_email: string | null;
  updated_ts: string;
  procedure_system_id: string | null;
};

/** Threads newest first by their last change; the last id is unique, so ties keep one order. */
const THREAD_KEYSET: TKeyset = {
  table: "Thread",
  alias: "t",
  columns: ["updatedAt", "id"],
  direction: "desc",
  what: "thread",
};

/** `text` inside a LIKE pattern, its wildcards taken literally (escaped with `\`). */
function likeContaining(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** `LOWER(column) LIKE pattern`, `\` escaping the pattern's wildcards (Kysely has no ESCAPE clause). */
function lowerLike(column: Expression<string | null>, pattern: string): RawBuilder<SqlBool> {
  return kyselySql<SqlBool>`LOWER(${column}) LIKE ${pattern} ESCAPE '\\'`;
}

type TThreadQuery = {
  ownerId: string | undefined;
  limit: number;
  cursor?: string | undefined;
  search?: string | undefined;
};

/** A page of threads: those `q` asks for, after the cursor's row, newest first (one more, to see a next page). */
function pageStatement(q: TThreadQuery, after: Prisma.Sql | null) {
  let query = typed
    .selectFrom("Thread as t")
    .leftJoin("User as u", "u.id", "t.ownerId")
    .select(["t.id", "t.title", "t.updatedAt", "t.procedureSystemId", "u.email"]);
  if (q.ownerId !== undefined) query = query.where("t.ownerId", "=", q.ownerId);
  const { search } = q;
  if (search) {
    const like = likeContaining(search);
    query = query.where((eb) =>
      eb.or([lowerLike(eb.ref("t.title"), like), lowerLike(eb.ref("u.email"), like), eb("t.id", "=", search)]),
    );
  }
  // The keyset's row-value comparison and order come from pagination.ts, shared by every list.
  if (after) query = query.where(fragment<SqlBool>(after));
  return query.orderBy(fragment(keysetOrder(THREAD_KEYSET))).limit(q.limit + 1);
}

/**
 * Threads newest first, a page at a time: one owner's, or every thread when `ownerId` is
 * undefined; with `search`, those whose title or owner's email holds it (any case) or whose id it
 * is. The cursor is the last thread id of the previous page (a thread that moved since shows
 * again on a later page, never drops out).
 */
export async function listThreads(
  sql: TSql,
  q: TThreadQuery,
): Promise<{ items: TThreadSummaryView[]; next_cursor: string | null }> {
  const after = await afterCursor(sql, THREAD_KEYSET, q.cursor);
  const { page, nextCursor } = pageOf(await rows(sql, pageStatement(q, after)), q.limit, (r) => r.id);
  return {
    items: page.map((t) => ({
      thread_id: t.id,
      title: t.title,
      owner_email: t.email,
      updated_ts: dateOf(t.updatedAt).toISOString(),
      procedure_system_id: t.procedureSystemId,
    })),
    next_cursor: nextCursor,
  };
}

/** A turn as stored; whether its trace was pruned is the service's to say (it knows the retention). */
type TStoredTurn = Omit<TThreadDetail["turns"][number], "trace_pruned_after_days">;

/** A thread with its messages and, per turn, the trace of that turn. */
async function getThreadDetail(
  db: DbClient,
  threadId: string,
): Promise<(Omit<TThreadDetail, "turns"> & { turns: TStoredTurn[]; owner_id: string | null }) | null> {
  const t = await db.thread.findUnique({
    where: { id: threadId },
    select: {
      id: true,
      title: true,
      ownerId: true,
      updatedAt: true,
      procedureSystemId: true,
      owner: { select: { email: true } },
      messages: {
        select: { id: true, role: true, content: true, createdAt: true },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      },
      packets: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          message: true,
          createdAt: true,
          transmissions: {
            take: 1,
            select: {
              id: true,
              routerDomain: true,
              modeLabel: true,
              responses: {
                take: 1,
                select: {
                  id: true,
                  assistantText: true,
                  meta: { select: { claimMap: true, claimCheck: true, usedCfbIds: true } },
                },
              },
            },
          },
        },
      },
    },
  });
  if (!t) return null;
  const transmissionIds = t.packets.flatMap((p) => p.transmissions.map((tr) => tr.id));
  const events = await db.traceEvent.findMany({
    where: { transmissionId: { in: transmissionIds } },
    select: {
      transmissionId: true,
      seq: true,
      actor: true,
      phase: true,
      status: true,
      summary: true,
      metadata: true,
      createdAt: true,
    },
    orderBy: [{ createdAt: "asc" }, { seq: "asc" }],
  });
  // The context window: the CFBs each turn's retrieval injected, by title (one query for all).
  const injectedOf = (metadata: unknown) =>
    (((metadata ?? {}) as { cfbs?: unknown }).cfbs as
      | { cfb_id?: unknown; score?: unknown; matched?: unknown; similarity?: unknown }[]
      | undefined) ?? [];
  const injectedIds = [
    ...new Set(
      events
        .filter((e) => e.phase === "retrieval")
        .flatMap((e) => injectedOf(e.metadata).map((c) => c.cfb_id))
        .filter((id): id is string => typeof id === "string"),
    ),
  ];
  const titles = new Map(
    (injectedIds.length === 0
      ? []
      : await db.cfb.findMany({ where: { id: { in: injectedIds } }, select: { id: true, title: true } })
    ).map((c) => [c.id, c.title]),
  );
  return {
    thread_id: t.id,
    title: t.title,
    owner_id: t.ownerId,
    owner_email: t.owner?.email ?? null,
    updated_ts: t.updatedAt.toISOString(),
    procedure_system_id: t.procedureSystemId,
    messages: t.messages.map((m) => ({
      id: m.id,
      role: m.role === "assistant" ? "assistant" : "user",
      content: m.content,
      created_ts: m.createdAt.toISOString(),
    })),
    turns: t.packets.map((p) => {
      const transmission = p.transmissions[0];
      const transmissionId = transmission?.id ?? null;
      const response = transmission?.responses[0];
      const used = response?.meta ? asStringArray(response.meta.usedCfbIds, "ResponseMeta.usedCfbIds") : [];
      return {
        packet_id: p.id,
        transmission_id: transmissionId,
        router_domain: transmission?.routerDomain ?? null,
        mode_label: transmission?.modeLabel ?? null,
        answer: response
          ? {
              response_id: response.id,
              assistant_text: response.assistantText,
              // Stored as validated by ZOutputEnvelope when the turn was written.
              claim_map: (response.meta?.claimMap ?? null) as TClaimMapEntry[] | null,
              claim_check: (response.meta?.claimCheck ?? null) as TClaimCheckView | null,
            }
          : null,
        message: p.message,
        context_window: injectedOf(
          events.find((e) => e.transmissionId === transmissionId && e.phase === "retrieval")?.metadata,
        ).flatMap((c) =>
          typeof c.cfb_id === "string"
            ? [
                {
                  cfb_id: c.cfb_id,
                  title: titles.get(c.cfb_id) ?? null,
                  score: typeof c.score === "number" ? c.score : null,
                  matched: Array.isArray(c.matched)
                    ? c.matched.filter((w): w is string => typeof w === "string")
                    : null,
                  similarity: typeof c.similarity === "number" ? c.similarity : null,
                  used: used.includes(c.cfb_id),
                },
              ]
            : [],
        ),
        trace: events
          .filter((e) => e.transmissionId === transmissionId)
          .map((e) => ({
            seq: e.seq,
            actor: e.actor,
            phase: e.phase,
            status: e.status,
            summary: e.summary,
            metadata: e.metadata,
            created_ts: e.createdAt.toISOString(),
          })),
        created_ts: p.createdAt.toISOString(),
      };
    }),
  };
}

export function threadRepository({ prisma, sql }: TStore) {
  return {
    list: (q: Parameters<typeof listThreads>[1]) => listThreads(sql, q),
    get: (threadId: string) => getThreadDetail(prisma, threadId),
  };
}
