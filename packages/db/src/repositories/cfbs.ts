import type { TCfb, TCfbDetail, TCfbListResponse } from "@solserver/contracts";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import { asStringArray } from "../json";
import { toCfb } from "../mappers";
import { afterCursor, cursorPosition, pageOf } from "../pagination";
import { jsonOf, type TSql } from "../sql";
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

export async function getCfb(db: DbClient, cfbId: string): Promise<TCfbDetail | null> {
  const row = await db.cfb.findUnique({
    where: { id: cfbId },
    include: { revisions: { orderBy: { version: "desc" } } },
  });
  if (!row) return null;
  return {
    ...toCfb(row),
    revisions: row.revisions.map((r) => ({
      version: r.version,
      change_kind: r.changeKind,
      promotion_id: r.promotionEventId,
      created_ts: r.createdAt.toISOString(),
    })),
  };
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
 * Candidate CFBs for a turn, most recently updated first (hot path). Ranking happens in
 * control-plane; full-text candidate retrieval replaces this scan when resolve lands.
 */
export async function listRetrievableCfbs(sql: TSql, limit: number): Promise<TRetrievableCfb[]> {
  const rows = await sql.query<{
    id: string;
    domain: string;
    title: string;
    summary: string;
    tags: unknown;
    entities: unknown;
  }>(Prisma.sql`SELECT "id", "domain", "title", "summary", "tags", "entities" FROM "Cfb"
    ORDER BY "updatedAt" DESC, "id" DESC LIMIT ${limit}`);
  return rows.map((r) => ({
    cfb_id: r.id,
    domain: r.domain,
    title: r.title,
    summary: r.summary,
    tags: asStringArray(jsonOf(r.tags), "Cfb.tags"),
    entities: asStringArray(jsonOf(r.entities), "Cfb.entities"),
  }));
}

export type { TCfb };
