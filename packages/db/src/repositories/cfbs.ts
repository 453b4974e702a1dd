import { cfbFieldChanges, DomainError, type TCfb, type TCfbDetail, type TCfbListResponse } from "@solserver/contracts";
import type { DbClient } from "../client";
import { ftsAllWordsQuery } from "../fts";
import { Prisma } from "../generated/prisma/client";
import { asObject, asStringArray } from "../json";
import { toCfb } from "../mappers";
import { pageOf } from "../pagination";
import { dateOf, jsonOf, type TSql } from "../sql";
import type { TRetrievableCfb } from "./types";

export type TCfbListQuery = {
  domain?: string | undefined;
  query?: string | undefined;
  cursor?: string | undefined;
  limit: number;
};

/**
 * Browsing and searching CFBs, newest first. A text query searches the full-text index (title,
 * summary, text, tags, entities): every word must match, the last one as a prefix ("nightly
 * exp" finds "nightly export"), and query syntax in the text is never interpreted. Merged CFBs
 * are left out. Keyset pagination on the creation time, which never changes, then the id's number
 * (`seq`: ids order as text, and "CFB-10000" < "CFB-9999"): an id cursor stays a valid position
 * even when the CFB it names is edited between two page requests.
 */
export async function listCfbs(db: DbClient, sql: TSql, q: TCfbListQuery): Promise<TCfbListResponse> {
  const filters: Prisma.Sql[] = [Prisma.sql`c."mergedIntoId" IS NULL`];
  if (q.domain) filters.push(Prisma.sql`c."domain" = ${q.domain}`);
  if (q.query) {
    const match = ftsAllWordsQuery(q.query);
    if (match === null) return { items: [], next_cursor: null };
    filters.push(Prisma.sql`c.rowid IN (SELECT rowid FROM "CfbFts" WHERE "CfbFts" MATCH ${match})`);
  }
  if (q.cursor !== undefined) {
    const [c] = await sql.query<{ seq: number; createdAt: unknown }>(
      Prisma.sql`SELECT "seq", "createdAt" FROM "Cfb" WHERE "id" = ${q.cursor}`,
    );
    if (!c) throw new DomainError("NOT_FOUND", `cursor: CFB ${q.cursor} does not exist`, { field: "cursor" });
    filters.push(Prisma.sql`(c."createdAt", c."seq") < (${c.createdAt}, ${c.seq})`);
  }
  const ids = (
    await sql.query<{ id: string }>(
      Prisma.sql`SELECT c."id" AS "id" FROM "Cfb" c WHERE ${Prisma.join(filters, " AND ")}
        ORDER BY c."createdAt" DESC, c."seq" DESC LIMIT ${q.limit + 1}`,
    )
  ).map((r) => r.id);
  const found = new Map((await db.cfb.findMany({ where: { id: { in: ids } } })).map((r) => [r.id, r]));
  const rows = ids.flatMap((id) => {
    const row = found.get(id);
    return row ? [row] : [];
  });
  const { page, nextCursor } = pageOf(rows, q.limit);
  return { items: page.map(toCfb), next_cursor: nextCursor };
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
    changes: cfbFieldChanges(
      i === 0 ? null : asObject(row.revisions[i - 1]?.snapshot, "CfbRevision.snapshot"),
      asObject(r.snapshot, "CfbRevision.snapshot"),
    ),
  }));
  return { ...toCfb(row), revisions: revisions.reverse(), merged_into_cfb_id: row.mergedIntoId };
}

/** A CFB's id, version and the CFB it was merged into: what a review needs to name an update's target. */
export type TCfbHead = Pick<TCfbDetail, "cfb_id" | "version" | "merged_into_cfb_id">;

/** The CFBs among `ids` that exist, by id, in one statement (a page of the review queue asks). */
export async function cfbHeads(sql: TSql, ids: readonly string[]): Promise<Map<string, TCfbHead>> {
  if (ids.length === 0) return new Map();
  const rows = await sql.query<{ id: string; version: number; mergedIntoId: string | null }>(
    Prisma.sql`SELECT "id", "version", "mergedIntoId" FROM "Cfb" WHERE "id" IN (${Prisma.join([...new Set(ids)])})`,
  );
  return new Map(
    rows.map((r) => [r.id, { cfb_id: r.id, version: Number(r.version), merged_into_cfb_id: r.mergedIntoId }] as const),
  );
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
 * The CFBs among `ids` as retrieval ranks them (hot path: the candidate index found them), with
 * the signals retrieval weighs (stats, staleness), in the order of `ids`; merged ones left out.
 */
export async function retrievableCfbs(sql: TSql, ids: readonly string[], now = new Date()): Promise<TRetrievableCfb[]> {
  if (ids.length === 0) return [];
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
    WHERE c."id" IN (${Prisma.join([...new Set(ids)])}) AND +c."mergedIntoId" IS NULL`);
  // The unary + keeps SQLite on the primary key for the IN list: with the mergedIntoId index it
  // walked every live CFB (5 ms at 10k CFBs, a turn's whole budget).
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
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
      },
    ];
  });
}

export type { TCfb };
