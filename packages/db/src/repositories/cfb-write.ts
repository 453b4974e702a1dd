import { randomUUID } from "node:crypto";
import { cfbFieldChanges, cfbVersionConflict, DomainError, type TCfb, type TCfbDraft } from "@solserver/contracts";
import {
  type Expression,
  type ExpressionBuilder,
  expressionBuilder,
  type InsertObject,
  type SqlBool,
  type UpdateObject,
} from "kysely";
import { allocateIds, idNumber } from "../ids";
import { asObject } from "../json";
import { isLiveCfb, liveCfbSql } from "../live";
import { type TCfbRow, toCfb } from "../mappers";
import { jsonOf, type TSql } from "../sql";
import { fragment, rows, run, type TDatabase, typed } from "../typed-sql";

// The one write path of a CFB, used by every act that writes one: a Jam editor's create, edit,
// revert, retire, restore and merge, an import, and a promotion (create, update, merge). A CFB
// never exists without its revision history and its stats row, and every change is a new version,
// conditional on the version the change was based on. Runs inside the caller's transaction (the
// act's audit event, promotion event and trace go in the same one).

/** Staleness a new CFB starts with (the Cfb columns' defaults say the same). */
const NEW_CFB_STALENESS = { ttl_days: 180, review_on_use: true } as const;

/** Rows per INSERT: 17 parameters a CFB, well under SQLite's bound-parameter limit. */
const CHUNK = 500;

type TCfbRevisionKind = "create" | "edit" | "update" | "merge" | "revert" | "retire" | "restore" | "endorse";

/** The user a new CFB is private to (a user's own approval, issue 19); null or absent: shared. */
export type TPrivateOwner = { userId: string; email: string };

/**
 * Writes new CFBs, each at version 1 with its first revision and an empty stats row, in multi-row
 * INSERTs (an import of 100,000 takes seconds); ids in draft order. `promotionId` links the
 * revisions to the promotion that wrote them; `privateTo` makes them private to that user.
 */
export async function insertCfbs(
  tx: TSql,
  drafts: readonly TCfbDraft[],
  opts: { promotionId: string | null; now: Date; privateTo?: TPrivateOwner | null },
): Promise<TCfb[]> {
  if (drafts.length === 0) return [];
  const { now, promotionId } = opts;
  const privateTo = opts.privateTo ?? null;
  const ids = (await allocateIds(tx, { cfb: drafts.length })).cfb;
  const created = drafts.map((d, i): TCfb => {
    const at = now.toISOString();
    return {
      cfb_id: ids[i] as string,
      ...draftFields(d),
      staleness: { ...NEW_CFB_STALENESS },
      version: 1,
      created_ts: at,
      updated_ts: at,
      last_accessed_ts: null,
      visibility: privateTo ? "private" : "shared",
      private_to: privateTo?.email ?? null,
    };
  });
  for (let start = 0; start < created.length; start += CHUNK) {
    const chunk = created.slice(start, start + CHUNK);
    await run(
      tx,
      typed.insertInto("Cfb").values((eb) => chunk.map((c) => newCfbRow(eb, tx, c, now, privateTo))),
    );
    await run(
      tx,
      typed.insertInto("CfbRevision").values(chunk.map((c) => revisionRow(tx, c, "create", promotionId, now))),
    );
    await run(tx, typed.insertInto("CfbStats").values(chunk.map((c) => emptyStatsRow(c.cfb_id, now))));
  }
  return created;
}

/** A CFB's content as its columns, Json as the dialect binds it (PostgreSQL: jsonb). */
function contentColumns(tx: TSql, d: TCfbDraft) {
  const json = (value: unknown) => fragment(tx.dialect.json(value));
  return {
    domain: d.domain,
    kind: d.kind,
    confidence: d.confidence,
    title: d.title,
    summary: d.summary,
    text: d.text,
    tags: json(d.tags),
    entities: json(d.entities),
    trustTier: d.trust_tier,
    sourceRefs: json(d.source_refs),
  };
}

/** A new CFB's row, at version 1. */
function newCfbRow(
  eb: ExpressionBuilder<TDatabase, "Cfb">,
  tx: TSql,
  c: TCfb,
  now: Date,
  privateTo: TPrivateOwner | null,
): InsertObject<TDatabase, "Cfb"> {
  return {
    id: c.cfb_id,
    ...contentColumns(tx, c),
    ttlDays: c.staleness.ttl_days,
    reviewOnUse: c.staleness.review_on_use,
    version: eb.lit(1),
    seq: idNumber(c.cfb_id),
    createdAt: now,
    updatedAt: now,
    privateToId: privateTo?.userId ?? null,
  };
}

/**
 * A new CFB's stats row: every counter at its column default (0). TDatabase does not know the
 * defaults and wants every column, hence the cast; the columns named are still checked.
 */
function emptyStatsRow(cfbId: string, now: Date): TStatsInsert {
  return { cfbId, updatedAt: now } satisfies Partial<TStatsInsert> as TStatsInsert;
}

type TStatsInsert = InsertObject<TDatabase, "CfbStats">;

export type TCfbRewrite = {
  cfbId: string;
  /** The version the change was based on: another change since is CONFLICT. */
  expectedVersion: number;
  /**
   * The CFB's new content; or (merged away) the CFB it now points to, null when an undone
   * approval takes its merge back; or retired (true) or
   * restored (false), which needs a CFB that is not merged and is live, or retired, as it says;
   * or (endorsed) shared from now on, which needs a live private CFB. Each is a version, so the
   * candidate index's log (every process's index) sees it.
   */
  change: { draft: TCfbDraft } | { mergedInto: string | null } | { retired: boolean } | { endorse: true };
  revision: TCfbRevisionKind;
  promotionId: string | null;
  now: Date;
  /** Promotions and merges write only live CFBs (live.ts): one merged or retired meanwhile is CONFLICT. */
  liveOnly: boolean;
  /**
   * The request fields errors name: `conflict` a stale version (an edit: version; a promotion:
   * expected_cfb_version), `cfb` the CFB itself (missing, merged, retired: an edit's cfb_id).
   */
  fields: { conflict: string; cfb: string };
};

/** What state the CFB must be in for the write: any, live, or retired (and not merged). */
type TRequiredState = "any" | "live" | "retired";

function requiredState(w: TCfbRewrite): TRequiredState {
  if ("retired" in w.change) return w.change.retired ? "live" : "retired";
  if ("endorse" in w.change) return "live";
  return w.liveOnly ? "live" : "any";
}

const onCfb = expressionBuilder<TDatabase, "Cfb">();

/** The condition on the Cfb row for each state (none for any). */
const STATE_CONDITION: Record<TRequiredState, Expression<SqlBool> | null> = {
  any: null,
  live: fragment<SqlBool>(liveCfbSql()), // live.ts: the one definition of a live CFB
  retired: onCfb.and([onCfb("mergedIntoId", "is", null), onCfb("retiredAt", "is not", null)]),
};

/**
 * Why a CFB is not in the state a write needs, and what to do next; null when it is (the
 * version moved instead).
 */
function stateConflict(w: TCfbRewrite, row: TCfbRow): DomainError | null {
  const state = requiredState(w);
  const conflict = (message: string) => new DomainError("CONFLICT", message, { field: w.fields.cfb });
  if (state === "any") return null;
  if (row.mergedIntoId) {
    return conflict(`CFB ${w.cfbId} was merged into ${row.mergedIntoId}; work on ${row.mergedIntoId} instead`);
  }
  const retired = !isLiveCfb(row);
  if (state === "retired" && !retired) return conflict(`CFB ${w.cfbId} is not retired: nothing to restore`);
  if (state === "live" && retired) {
    return conflict(
      "retired" in w.change
        ? `CFB ${w.cfbId} is already retired; restore it to bring it back`
        : `CFB ${w.cfbId} is retired; restore it on its page first to change it`,
    );
  }
  return null;
}

/**
 * A new version of a CFB: version + 1 conditional on `expectedVersion`, and its revision. A stale
 * version is CONFLICT naming the fields that changed since; nothing is written (the caller's
 * transaction rolls back).
 */
export async function rewriteCfb(tx: TSql, w: TCfbRewrite): Promise<TCfb> {
  const endorse = "endorse" in w.change;
  // Retiring, restoring and endorsing are versions too: the candidate index's trigger on "version" sees them.
  let update = typed
    .updateTable("Cfb")
    .set((eb) => ({ ...changedColumns(eb, tx, w), version: eb("version", "+", eb.lit(1)), updatedAt: w.now }))
    .where("id", "=", w.cfbId)
    .where("version", "=", w.expectedVersion);
  const state = STATE_CONDITION[requiredState(w)];
  if (state) update = update.where(state);
  if (endorse) update = update.where("privateToId", "is not", null);
  const moved = await run(tx, update);
  const row = await readCfbRow(tx, w.cfbId);
  if (!row) throw new DomainError("NOT_FOUND", `CFB ${w.cfbId} does not exist`, { field: w.fields.cfb });
  if (moved !== 1) {
    const refused = stateConflict(w, row);
    if (refused) throw refused;
    if (endorse && row.privateToId === null) {
      throw new DomainError("CONFLICT", `CFB ${w.cfbId} is already shared`, { field: w.fields.cfb });
    }
    const current = toCfb(row);
    throw cfbVersionConflict(
      w.cfbId,
      current.version,
      w.expectedVersion,
      await changedSince(tx, w.cfbId, w.expectedVersion, current),
      w.fields.conflict,
    );
  }
  const cfb = toCfb(row);
  await run(tx, typed.insertInto("CfbRevision").values(revisionRow(tx, cfb, w.revision, w.promotionId, w.now)));
  return cfb;
}

/** The columns a rewrite's change sets, besides the version and time every change moves. */
function changedColumns(
  eb: ExpressionBuilder<TDatabase, "Cfb">,
  tx: TSql,
  { change, now }: TCfbRewrite,
): UpdateObject<TDatabase, "Cfb"> {
  if ("draft" in change) return contentColumns(tx, change.draft);
  if ("mergedInto" in change) return { mergedIntoId: change.mergedInto };
  if ("retired" in change) return { retiredAt: change.retired ? now : null };
  return { privateToId: eb.lit(null) };
}

/** A CFB's rows as stored with their private owner's email (`c` the CFB, `u` the owner). */
export function cfbRowsWithOwner() {
  return typed
    .selectFrom("Cfb as c")
    .leftJoin("User as u", "u.id", "c.privateToId")
    .selectAll("c")
    .select("u.email as privateToEmail");
}

/** A CFB's row as stored (with its private owner's email), for the writer's read-back and the merge partner. */
export async function readCfbRow(tx: TSql, cfbId: string): Promise<TCfbRow | null> {
  const [row] = await rows(tx, cfbRowsWithOwner().where("c.id", "=", cfbId));
  return row ?? null;
}

/** The snapshot a CFB's revision `version` took. */
function snapshotAt(cfbId: string, version: number) {
  return typed.selectFrom("CfbRevision").select("snapshot").where("cfbId", "=", cfbId).where("version", "=", version);
}

/** A revision's snapshot of the CFB (revisions never change once written), or null. */
export async function revisionSnapshot(sql: TSql, cfbId: string, version: number) {
  const [row] = await rows(sql, snapshotAt(cfbId, version));
  return row ? asObject(jsonOf(row.snapshot), "CfbRevision.snapshot") : null;
}

function draftFields(
  d: TCfbDraft,
): Omit<
  TCfb,
  "cfb_id" | "staleness" | "version" | "created_ts" | "updated_ts" | "last_accessed_ts" | "visibility" | "private_to"
> {
  return {
    domain: d.domain,
    kind: d.kind,
    confidence: d.confidence,
    title: d.title,
    summary: d.summary,
    text: d.text,
    tags: d.tags,
    entities: d.entities,
    trust_tier: d.trust_tier,
    source_refs: d.source_refs,
  };
}

function revisionRow(
  tx: TSql,
  cfb: TCfb,
  kind: TCfbRevisionKind,
  promotionId: string | null,
  now: Date,
): InsertObject<TDatabase, "CfbRevision"> {
  return {
    id: randomUUID(),
    cfbId: cfb.cfb_id,
    version: cfb.version,
    snapshot: fragment(tx.dialect.json(cfb)),
    changeKind: kind,
    promotionEventId: promotionId,
    createdAt: now,
  };
}

/** What changed in a CFB since `expectedVersion`: field names, for the CONFLICT message. */
async function changedSince(tx: TSql, cfbId: string, expectedVersion: number, current: TCfb): Promise<string[]> {
  const [base] = await rows(tx, snapshotAt(cfbId, expectedVersion));
  if (!base) return [];
  return cfbFieldChanges(jsonOf(base.snapshot) as Record<string, unknown>, current).map((c) => c.field);
}
