import {
  cfbFieldChanges,
  type TCfb,
  type TCfbDetail,
  type TCfbDraft,
  type TCfbListResponse,
} from "@solserver/contracts";
import type { TCandidateIndex } from "../candidates/candidate-index";
import type { DbClient } from "../client";
import type { TConnection, TDialect } from "../dialect/dialect";
import { Prisma } from "../generated/prisma/client";
import { asObject, asStringArray } from "../json";
import { CFB_SELECT, type TCfbRow, toCfb } from "../mappers";
import { afterCursor, keysetOrder, pageOf, type TKeyset } from "../pagination";
import { dateOf, jsonOf, type TSql } from "../sql";
import { insertAudit, type TAuditWrite } from "./audit";
import { getCfbActivity, type TCfbActivityQuery } from "./cfb-activity";
import { insertCfbs, rewriteCfb } from "./cfb-write";
import type { TStore } from "./store";
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
const LIST_KEYSET: TKeyset = {
  table: "Cfb",
  alias: "c",
  columns: ["createdAt", "seq"],
  direction: "desc",
  what: "CFB",
};

export async function listCfbs(sql: TSql, q: TCfbListQuery): Promise<TCfbListResponse> {
  const filters: Prisma.Sql[] = [Prisma.sql`c."mergedIntoId" IS NULL`];
  if (q.domain) filters.push(Prisma.sql`c."domain" = ${q.domain}`);
  if (q.query) {
    const match = sql.dialect.cfbTextMatch("c", q.query);
    if (match === null) return { items: [], next_cursor: null };
    filters.push(match);
  }
  const after = await afterCursor(sql, LIST_KEYSET, q.cursor);
  if (after) filters.push(after);
  const rows = await sql.query<TCfbRow>(
    Prisma.sql`SELECT c.* FROM "Cfb" c WHERE ${Prisma.join(filters, " AND ")}
      ORDER BY ${keysetOrder(LIST_KEYSET)} LIMIT ${q.limit + 1}`,
  );
  const { page, nextCursor } = pageOf(rows, q.limit, (r) => r.id);
  return { items: page.map(toCfb), next_cursor: nextCursor };
}

export async function getCfb(db: DbClient, cfbId: string): Promise<TCfbDetail | null> {
  const row = await db.cfb.findUnique({
    where: { id: cfbId },
    select: {
      ...CFB_SELECT,
      revisions: {
        select: { version: true, changeKind: true, promotionEventId: true, createdAt: true, snapshot: true },
        orderBy: { version: "asc" },
      },
    },
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

/**
 * A CFB's id, version, the CFB it was merged into, its kind and trust tier: what a review needs
 * to name an update's target and say whether only a Jam editor may change it.
 */
export type TCfbHead = Pick<TCfbDetail, "cfb_id" | "version" | "merged_into_cfb_id" | "kind" | "trust_tier">;

/** The CFBs among `ids` that exist, by id, in one statement (a page of the review queue asks). */
export async function cfbHeads(sql: TSql, ids: readonly string[]): Promise<Map<string, TCfbHead>> {
  if (ids.length === 0) return new Map();
  const rows = await sql.query<{
    id: string;
    version: number;
    mergedIntoId: string | null;
    kind: string;
    trustTier: string;
  }>(
    Prisma.sql`SELECT "id", "version", "mergedIntoId", "kind", "trustTier" FROM "Cfb"
      WHERE "id" IN (${Prisma.join([...new Set(ids)])})`,
  );
  return new Map(
    rows.map(
      (r) =>
        [
          r.id,
          {
            cfb_id: r.id,
            version: Number(r.version),
            merged_into_cfb_id: r.mergedIntoId,
            kind: r.kind as TCfbHead["kind"],
            trust_tier: r.trustTier as TCfbHead["trust_tier"],
          },
        ] as const,
    ),
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

type TAuditActor = Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">;

/** A Jam editor's edit names the version it was based on in `version`, the CFB in `cfb_id`. */
const EDIT_FIELDS = { conflict: "version", notFound: "cfb_id" } as const;

export function cfbRepository(
  { prisma, sql }: TStore,
  connection: TConnection & { dialect: TDialect },
  index: TCandidateIndex,
) {
  return {
    list: (q: TCfbListQuery) => listCfbs(sql, q),
    get: (cfbId: string) => getCfb(prisma, cfbId),
    activity: (q: TCfbActivityQuery) => getCfbActivity(sql, q),
    existingIds: (ids: readonly string[]) => existingCfbIds(sql, ids),
    /** Id, version and merge of each CFB among `ids` that exists (the review queue's targets). */
    heads: (ids: readonly string[]) => cfbHeads(sql, ids),
    /** The CFBs among `ids` with retrieval's signals, in that order (retrieval's second step). */
    retrievable: (ids: readonly string[], now?: Date) => retrievableCfbs(sql, ids, now),
    /** Resolve's candidates from the candidate index (candidates/candidate-index.ts). */
    candidates: index.candidates,
    /** The candidate index itself: weighted search, sync, status. */
    index,
    /** The vector index of semantic matching, for one embeddings model (dialect/vector-store.ts). */
    openVectors: (model: string, dims: number) => connection.dialect.openVectors(connection, model, dims),
    count: () => prisma.cfb.count(),

    /** A CFB authored directly (a Jam editor, demo data), not through a proposal; audited when an actor is given. */
    async create(draft: TCfbDraft, audit?: TAuditActor): Promise<TCfb> {
      return sql.transaction(async (tx) => {
        const now = new Date();
        const [cfb] = await insertCfbs(tx, [draft], { promotionId: null, now });
        if (!cfb) throw new Error("the CFB was not written");
        if (audit)
          await insertAudit(
            tx,
            [{ ...audit, action: "cfb.create", targetType: "cfb", targetId: cfb.cfb_id, details: {} }],
            now,
          );
        return cfb;
      });
    },

    /**
     * A Jam editor's edit: version + 1, a revision with the new state, an audit event. The write is
     * conditional on `expectedVersion`, so an edit based on a stale read is CONFLICT, not a lost update.
     */
    async update(cfbId: string, expectedVersion: number, draft: TCfbDraft, audit: TAuditActor): Promise<TCfb> {
      return sql.transaction(async (tx) => {
        const now = new Date();
        const cfb = await rewriteCfb(tx, {
          cfbId,
          expectedVersion,
          change: { draft },
          revision: "edit",
          promotionId: null,
          now,
          liveOnly: false,
          fields: EDIT_FIELDS,
        });
        await insertAudit(
          tx,
          [{ ...audit, action: "cfb.update", targetType: "cfb", targetId: cfbId, details: { version: cfb.version } }],
          now,
        );
        return cfb;
      });
    },

    /**
     * Many CFBs at once (a knowledge base brought in from elsewhere, the benchmarks): the same rows
     * `create` writes, in one transaction of multi-row INSERTs, so 100,000 CFBs take seconds. Ids in
     * draft order.
     */
    async import(drafts: readonly TCfbDraft[]): Promise<string[]> {
      const written = await sql.transaction((tx) => insertCfbs(tx, drafts, { promotionId: null, now: new Date() }));
      return written.map((c) => c.cfb_id);
    },
  };
}
