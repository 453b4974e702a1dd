import type { TCfb, TCfbDetail, TCfbListResponse } from "@solserver/contracts";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import { asObject, asStringArray } from "../json";
import { toCfb } from "../mappers";
import { afterCursor, cursorPosition, pageOf } from "../pagination";
import { dateOf, jsonOf, type TSql } from "../sql";
import type { TRetrievableCfb } from "./types";

export type TCfbListQuery = {
  domain?: string | undefined;
  query?: string | undefined;
  cursor?: string | undefined;
  limit: number;
};

export async function listCfbs(db: DbClient, q: TCfbListQuery): Promise<TCfbListResponse> {
  const filter: Prisma.CfbWhereInput = {
    ...(q.domain ? { domain: q.domain } : {}),
    ...(q.query ? { OR: [{ title: { contains: q.query } }, { summary: { contains: q.query } }] } : {}),
  };
  const cursor = await cursorPosition(q.cursor, "CFB", (id) =>
    db.cfb.findUnique({ where: { id }, select: { createdAt: true } }),
  );
  const rows = await db.cfb.findMany({
    // Newest first by creation time, which never changes: an id cursor stays a valid position
    // even when the CFB it names is edited between two page requests.
    where: cursor ? { AND: [filter, afterCursor("createdAt", cursor)] } : filter,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, q.limit);
  return { items: page.map(toCfb), next_cursor: nextCursor };
}

/** Field by field, what `after` changed against `before` (both CFB snapshots). */
function changesBetween(before: Record<string, unknown> | null, after: Record<string, unknown>) {
  if (!before) return [];
  const ignored = new Set(["version", "updated_ts", "created_ts", "last_accessed_ts"]);
  return Object.keys(after)
    .filter((field) => !ignored.has(field) && JSON.stringify(before[field]) !== JSON.stringify(after[field]))
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }));
}

export async function getCfb(db: DbClient, cfbId: string): Promise<TCfbDetail | null> {
  const row = await db.cfb.findUnique({
    where: { id: cfbId },
    include: { revisions: { orderBy: { version: "asc" } } },
  });
  if (!row) return null;
  const revisions = row.revisions.map((r, i) => ({
    version: r.version,
    change_kind: r.changeKind,
    promotion_id: r.promotionEventId,
    created_ts: r.createdAt.toISOString(),
    changes: changesBetween(
      i === 0 ? null : asObject(row.revisions[i - 1]?.snapshot, "CfbRevision.snapshot"),
      asObject(r.snapshot, "CfbRevision.snapshot"),
    ),
  }));
  return { ...toCfb(row), revisions: revisions.reverse(), merged_into_cfb_id: row.mergedIntoId };
}

export async function cfbExists(db: DbClient, cfbId: string): Promise<boolean> {
  return (await db.cfb.count({ where: { id: cfbId } })) > 0;
}

/** The CFBs among `ids` that exist, with their domain (hot path: every chat turn asks). */
export async function existingCfbIds(sql: TSql, ids: readonly string[]): Promise<Map<string, { domain: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await sql.query<{ id: string; domain: string }>(
    Prisma.sql`SELECT "id", "domain" FROM "Cfb" WHERE "id" IN (${Prisma.join([...new Set(ids)])})`,
  );
  return new Map(rows.map((r) => [r.id, { domain: r.domain }] as const));
}

/**
 * Candidate CFBs for a turn, most recently updated first (hot path), with the signals retrieval
 * weighs (stats, staleness). Ranking happens in control-plane.
 */
export async function listRetrievableCfbs(sql: TSql, limit: number, now = new Date()): Promise<TRetrievableCfb[]> {
  const rows = await sql.query<{
    id: string;
    domain: string;
    title: string;
    summary: string;
    tags: unknown;
    entities: unknown;
    updatedAt: unknown;
    ttlDays: number;
    reviewOnUse: number | boolean;
    hotness: number | null;
    used: number | null;
    ignored: number | null;
  }>(Prisma.sql`SELECT c."id" AS "id", c."domain" AS "domain", c."title" AS "title", c."summary" AS "summary",
      c."tags" AS "tags", c."entities" AS "entities", c."updatedAt" AS "updatedAt", c."ttlDays" AS "ttlDays",
      c."reviewOnUse" AS "reviewOnUse", s."hotness" AS "hotness", s."usedByModel30d" AS "used",
      s."ignoredByModel30d" AS "ignored"
    FROM "Cfb" c LEFT JOIN "CfbStats" s ON s."cfbId" = c."id"
    WHERE c."mergedIntoId" IS NULL ORDER BY c."updatedAt" DESC, c."id" DESC LIMIT ${limit}`);
  return rows.map((r) => ({
    cfb_id: r.id,
    domain: r.domain,
    title: r.title,
    summary: r.summary,
    tags: asStringArray(jsonOf(r.tags), "Cfb.tags"),
    entities: asStringArray(jsonOf(r.entities), "Cfb.entities"),
    signals: {
      hotness: Number(r.hotness ?? 0),
      used30d: Number(r.used ?? 0),
      ignored30d: Number(r.ignored ?? 0),
      stale: dateOf(r.updatedAt).getTime() + Number(r.ttlDays) * 86_400_000 < now.getTime(),
      reviewOnUse: Boolean(r.reviewOnUse),
    },
  }));
}

export type { TCfb };
