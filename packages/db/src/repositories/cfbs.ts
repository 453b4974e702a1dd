import {
  cfbFieldChanges,
  sameCfbContent,
  type TCfbDetail,
  type TCfbListResponse,
  type TCfbVisibility,
} from "@solserver/contracts";
import { termSet } from "@solserver/text";
import type { Compilable, SqlBool } from "kysely";
import type { TCandidateIndex } from "../candidates/candidate-index";
import type { DbClient } from "../client";
import type { TSqlDialect } from "../dialect/dialect";
import { asObject, asStringArray } from "../json";
import { liveCfbSql } from "../live";
import { CFB_SELECT, toCfb } from "../mappers";
import { afterCursor, keysetOrder, pageOf, type TKeyset } from "../pagination";
import { prepare } from "../prepared-sql";
import { dateOf, jsonOf, type TSql } from "../sql";
import { fragment, rows, typed } from "../typed-sql";
import { openVectorStore } from "../vectors";
import { getCfbActivity, type TCfbActivityQuery } from "./cfb-activity";
import { cfbEditRepository } from "./cfb-edits";
import { ALL_CFBS, cfbColumn, inScope, scopeCondition, type TCfbScope, visibleTo } from "./cfb-visibility";
import { cfbRowsWithOwner } from "./cfb-write";
import type { TStore } from "./store";
import type { TRetrievableCfb } from "./types";

export type TCfbListQuery = {
  /** live (the default) or retired CFBs; merged ones are never listed. */
  state?: "live" | "retired" | undefined;
  domain?: string | undefined;
  query?: string | undefined;
  /** Only shared CFBs, or only private ones (within `scope`). */
  visibility?: TCfbVisibility | undefined;
  /** Whose CFBs the list may show (default: every one; services pass the caller's). */
  scope?: TCfbScope | undefined;
  cursor?: string | undefined;
  limit: number;
};

/** Only these CFBs, in this order (a search by near spellings, best first). */
type TListOnly = { only?: readonly string[] | undefined };

/**
 * Browsing and searching CFBs, newest first. A text query searches the full-text index (title,
 * summary, text, tags, entities): every word must match, the last one as a prefix ("nightly
 * exp" finds "nightly export"), and query syntax in the text is never interpreted. Merged CFBs
 * are left out, and so are retired ones unless asked for (`state: "retired"`, only those). Keyset pagination on the creation time, which never changes, then the id's number
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

async function listCfbs(sql: TSql, q: TCfbListQuery & TListOnly): Promise<TCfbListResponse> {
  let query = cfbRowsWithOwner()
    .where(
      (eb) =>
        q.state === "retired"
          ? eb.and([eb("c.mergedIntoId", "is", null), eb("c.retiredAt", "is not", null)])
          : fragment<SqlBool>(liveCfbSql("c")), // live.ts: the one definition of a live CFB
    )
    .where(scopeCondition(sql.dialect, "c", q.scope ?? ALL_CFBS));
  if (q.domain) query = query.where("c.domain", "=", q.domain);
  // Private ones are few: their index finds them (those awaiting a Jam editor's endorsement).
  if (q.visibility === "private") query = query.where("c.privateToId", "is not", null);
  // Shared ones: the shared-only scope's condition, off the privateToId index.
  if (q.visibility === "shared") query = query.where(scopeCondition(sql.dialect, "c", visibleTo(null)));
  // An id typed into the search ("CFB-0003", "cfb 3") finds that CFB.
  const id = /^\s*cfb[\s-]*0*(\d{1,9})\s*$/i.exec(q.query ?? "");
  const only = q.only;
  // No id to list: Kysely writes the empty OR as 1 = 0.
  if (only) query = query.where((eb) => (only.length > 0 ? eb("c.id", "in", only) : eb.or([])));
  else if (id) query = query.where("c.id", "=", `CFB-${(id[1] as string).padStart(4, "0")}`);
  else if (q.query) {
    const match = sql.dialect.cfbTextMatch("c", q.query);
    if (match === null) return { items: [], next_cursor: null };
    query = query.where(fragment<SqlBool>(match)); // the dialect's full-text index
  }
  const after = await afterCursor(sql, LIST_KEYSET, q.cursor);
  if (after) query = query.where(fragment<SqlBool>(after)); // keyset pagination's row-value comparison
  const found = await rows(sql, query.orderBy(fragment(keysetOrder(LIST_KEYSET))).limit(q.limit + 1));
  const { page, nextCursor } = pageOf(found, q.limit, (r) => r.id);
  const items = page.map(toCfb);
  if (q.only) {
    const rank = new Map(q.only.map((cfbId, i) => [cfbId, i]));
    items.sort((a, b) => (rank.get(a.cfb_id) ?? 0) - (rank.get(b.cfb_id) ?? 0));
  }
  return { items, next_cursor: nextCursor };
}

/**
 * The list, and when a search finds nothing holding every word, the live CFBs holding each word
 * or a near spelling of it (one letter off: "retreival" finds "retrieval"), best first, from the
 * candidate index's spelling table; `near_spellings` says so.
 */
async function listOrNearSpellings(sql: TSql, index: TCandidateIndex, q: TCfbListQuery): Promise<TCfbListResponse> {
  const exact = await listCfbs(sql, q);
  if (exact.items.length > 0 || !q.query || q.cursor || q.state === "retired") return exact;
  const terms = [...termSet(q.query)];
  if (terms.length === 0) return exact;
  const scope = q.scope ?? ALL_CFBS;
  const hits = await index.search(
    { terms, weight: () => 1 },
    { limit: q.limit, fuzzy: true, visibleTo: "viewer" in scope ? scope.viewer : null },
  );
  // A CFB's terms are distinct, so one holding a term per query word counts each word once.
  const every = hits.filter((h) => h.shared >= terms.length);
  if (every.length === 0) return exact;
  const near = await listCfbs(sql, { ...q, query: undefined, only: every.map((h) => h.id) });
  return { ...near, next_cursor: null, near_spellings: true };
}

/**
 * Who made each revision of a CFB, by version (the email, as the audit log kept it: the account
 * may be gone), and the proposal a promotion's revision came from. From the CFB's audit events
 * (each records the version it wrote; a creation is version 1) and the promotions, two indexed reads.
 */
async function revisionAuthors(
  db: DbClient,
  cfbId: string,
  revisions: readonly { version: number; promotionEventId: string | null }[],
): Promise<{ by: Map<number, string>; proposals: Map<number, string> }> {
  const promotionIds = revisions.flatMap((r) => (r.promotionEventId ? [r.promotionEventId] : []));
  const [events, promotions] = await Promise.all([
    db.auditEvent.findMany({
      where: { targetType: "cfb", targetId: cfbId },
      select: { action: true, actorEmail: true, details: true },
      orderBy: { createdAt: "asc" },
    }),
    promotionIds.length === 0
      ? Promise.resolve([])
      : db.promotionEvent.findMany({ where: { id: { in: promotionIds } }, select: { id: true, proposalId: true } }),
  ]);
  const proposalOf = new Map(promotions.map((p) => [p.id, p.proposalId]));
  const proposals = new Map(
    revisions.flatMap((r) => {
      const proposal = r.promotionEventId ? proposalOf.get(r.promotionEventId) : undefined;
      return proposal ? [[r.version, proposal] as const] : [];
    }),
  );
  const versionOfProposal = new Map([...proposals].map(([v, p]) => [p, v]));
  const by = new Map<number, string>();
  for (const e of events) {
    const details = (e.details ?? {}) as { version?: unknown; proposal_id?: unknown };
    // A promotion's event written before it recorded the version still names its proposal.
    const v =
      typeof details.version === "number"
        ? details.version
        : typeof details.proposal_id === "string"
          ? (versionOfProposal.get(details.proposal_id) ?? null)
          : e.action === "cfb.create"
            ? 1
            : null;
    if (v !== null && !by.has(v)) by.set(v, e.actorEmail);
  }
  return { by, proposals };
}

/** The CFB with its history, or null when there is none in `scope`. */
async function getCfb(db: DbClient, cfbId: string, scope: TCfbScope = ALL_CFBS): Promise<TCfbDetail | null> {
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
  if (!row || !inScope(scope, row.privateToId)) return null;
  const owner = row.privateToId
    ? await db.user.findUnique({ where: { id: row.privateToId }, select: { email: true } })
    : null;
  const cfb = toCfb({ ...row, privateToEmail: owner?.email ?? null });
  const authors = await revisionAuthors(db, cfbId, row.revisions);
  const revisions = row.revisions.map((r, i) => {
    const snapshot = asObject(r.snapshot, "CfbRevision.snapshot");
    return {
      version: r.version,
      change_kind: r.changeKind,
      promotion_id: r.promotionEventId,
      proposal_id: authors.proposals.get(r.version) ?? null,
      by: authors.by.get(r.version) ?? null,
      created_ts: r.createdAt.toISOString(),
      changes: cfbFieldChanges(
        i === 0 ? null : asObject(row.revisions[i - 1]?.snapshot, "CfbRevision.snapshot"),
        snapshot,
      ),
      same_as_current: sameCfbContent(snapshot, cfb),
    };
  });
  return {
    ...cfb,
    revisions: revisions.reverse(),
    merged_into_cfb_id: row.mergedIntoId,
    retired_ts: row.retiredAt ? row.retiredAt.toISOString() : null,
  };
}

/**
 * A CFB's id, title, version, the CFB it was merged into, its retirement, visibility, kind and
 * trust tier: what a review needs to name an update's target (a merge never folds shared knowledge into
 * a private CFB, nor the reverse, nor a retired CFB into anything) and say whether only a Jam
 * editor may change it.
 */
export type TCfbHead = Pick<
  TCfbDetail,
  "cfb_id" | "title" | "version" | "merged_into_cfb_id" | "retired_ts" | "visibility" | "kind" | "trust_tier"
>;

/** The CFBs among `ids` that exist, by id, in one statement (a page of the review queue asks). */
async function cfbHeads(sql: TSql, ids: readonly string[]): Promise<Map<string, TCfbHead>> {
  if (ids.length === 0) return new Map();
  const found = await rows(
    sql,
    typed
      .selectFrom("Cfb")
      .select(["id", "title", "version", "mergedIntoId", "retiredAt", "privateToId", "kind", "trustTier"])
      .where("id", "in", [...new Set(ids)]),
  );
  return new Map(
    found.map(
      (r) =>
        [
          r.id,
          {
            cfb_id: r.id,
            title: r.title,
            version: Number(r.version),
            merged_into_cfb_id: r.mergedIntoId,
            retired_ts: r.retiredAt ? dateOf(r.retiredAt).toISOString() : null,
            visibility: r.privateToId === null ? "shared" : "private",
            kind: r.kind as TCfbHead["kind"],
            trust_tier: r.trustTier as TCfbHead["trust_tier"],
          },
        ] as const,
    ),
  );
}

/** Who may see a CFB: its private owner's id (null: shared), or null when there is no such CFB. */
async function cfbOwner(sql: TSql, cfbId: string): Promise<{ privateToId: string | null } | null> {
  const [row] = await rows(sql, typed.selectFrom("Cfb").select("privateToId").where("id", "=", cfbId));
  return row ? { privateToId: row.privateToId ?? null } : null;
}

/** The CFBs among `ids` that exist in `scope`, with their domain (hot path: every chat turn asks). */
/**
 * A prepared statement for each kind of scope (its condition differs), the viewer a value: the
 * turn's statements that read CFBs in a scope.
 */
function perScope<S extends Compilable>(
  build: (v: { ids: string[]; viewer: string | null }, d: TSqlDialect, scope: TCfbScope) => S,
) {
  const of = (scopeOf: (viewer: string | null) => TCfbScope) =>
    prepare((v: { ids: string[]; viewer: string | null }, d) => build(v, d, scopeOf(v.viewer)), ["ids"]);
  return { all: of(() => ALL_CFBS), shared: of(() => visibleTo(null)), viewer: of((viewer) => visibleTo(viewer)) };
}

const scopeKind = (scope: TCfbScope) => ("all" in scope ? "all" : scope.viewer === null ? "shared" : "viewer");
const viewerOf = (scope: TCfbScope) => ("all" in scope ? null : scope.viewer);

const EXISTING = perScope((v, d, scope) =>
  typed
    .selectFrom("Cfb as c")
    .select(["c.id", "c.domain"])
    .where("c.id", "in", v.ids)
    .where(scopeCondition(d, "c", scope)),
);

async function existingCfbIds(
  sql: TSql,
  ids: readonly string[],
  scope: TCfbScope = ALL_CFBS,
): Promise<Map<string, { domain: string }>> {
  if (ids.length === 0) return new Map();
  const found = await rows(
    sql,
    EXISTING[scopeKind(scope)]({ ids: [...new Set(ids)], viewer: viewerOf(scope) }, sql.dialect),
  );
  return new Map(found.map((r) => [r.id, { domain: r.domain }] as const));
}

/** Retrieval's rows of the CFBs `ids` in a scope (hot path). */
const RETRIEVABLE = perScope((v, d, scope) =>
  typed
    .selectFrom("Cfb as c")
    .leftJoin("CfbStats as s", "s.cfbId", "c.id")
    .select([
      "c.id",
      "c.domain",
      "c.title",
      "c.summary",
      "c.tags",
      "c.entities",
      "c.updatedAt",
      "c.ttlDays",
      "c.reviewOnUse",
      "s.hotness",
      "s.usedByModel30d as used",
      "s.ignoredByModel30d as ignored",
    ])
    .where("c.id", "in", v.ids)
    // Unindexed (the dialect's): the planner must stay on the primary key for the IN list;
    // SQLite's walked every live CFB through the mergedIntoId index otherwise (5 ms at 10k
    // CFBs, a turn's whole budget).
    .where(fragment(d.unindexed(cfbColumn("c", "mergedIntoId"))), "is", null)
    .where("c.retiredAt", "is", null)
    .where(scopeCondition(d, "c", scope)),
);

/**
 * The CFBs among `ids` as retrieval ranks them (hot path: the candidate index found them), with
 * the signals retrieval weighs (stats, staleness), in the order of `ids`; merged and retired ones
 * and those out of `scope` left out (the index already left them out; semantic neighbours come
 * from elsewhere).
 */
async function retrievableCfbs(
  sql: TSql,
  ids: readonly string[],
  now = new Date(),
  scope: TCfbScope = visibleTo(null),
): Promise<TRetrievableCfb[]> {
  if (ids.length === 0) return [];
  const found = await rows(
    sql,
    RETRIEVABLE[scopeKind(scope)]({ ids: [...new Set(ids)], viewer: viewerOf(scope) }, sql.dialect),
  );
  const byId = new Map(found.map((r) => [r.id, r]));
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

export function cfbRepository({ prisma, sql }: TStore, index: TCandidateIndex) {
  return {
    list: (q: TCfbListQuery) => listOrNearSpellings(sql, index, q),
    /** The CFB with its history; null when it does not exist in `scope` (default: every CFB). */
    get: (cfbId: string, scope?: TCfbScope) => getCfb(prisma, cfbId, scope),
    activity: (q: TCfbActivityQuery) => getCfbActivity(sql, q),
    /** The CFBs among `ids` that exist in `scope` (default: every CFB). */
    existingIds: (ids: readonly string[], scope?: TCfbScope) => existingCfbIds(sql, ids, scope),
    /** Id, version, merge and visibility of each CFB among `ids` that exists (the review queue's targets). */
    heads: (ids: readonly string[]) => cfbHeads(sql, ids),
    /** The private owner of a CFB (null: shared), or null when it does not exist (access checks). */
    owner: (cfbId: string) => cfbOwner(sql, cfbId),
    /**
     * The CFBs among `ids` in `scope` (default: shared only) with retrieval's signals, in that
     * order (retrieval's second step).
     */
    retrievable: (ids: readonly string[], now?: Date, scope?: TCfbScope) => retrievableCfbs(sql, ids, now, scope),
    /** Resolve's candidates from the candidate index (candidates/candidate-index.ts). */
    candidates: index.candidates,
    /** The candidate index itself: weighted search, sync, status. */
    index,
    /** The stored vectors of semantic matching, for one embeddings model (vectors.ts). */
    openVectors: (model: string, dims: number) => openVectorStore(sql, index, model, dims),
    count: () => prisma.cfb.count(),

    ...cfbEditRepository(sql),
  };
}
