import { z } from "zod";
import { DomainError } from "./errors";
import { ZCfbId, ZIsoDate } from "./ids";

export const ZCfbKind = z.enum(["authoritative", "heuristic", "umbra"]);
export const ZTrustTier = z.enum(["user_approved", "repo_adr", "derived"]);
export type TCfbKind = z.infer<typeof ZCfbKind>;
export type TTrustTier = z.infer<typeof ZTrustTier>;

const ZLabel = z.string().trim().min(1).max(64);

/**
 * Who a CFB is retrieved for (issue 19). `shared`: every thread. `private`: a user's own approval
 * wrote it, so only that user's threads retrieve and resolve against it, until a Jam editor
 * endorses it (cfbs.endorse). A Jam editor's approvals and authored CFBs are shared at once.
 */
export const ZCfbVisibility = z.enum(["shared", "private"]);
export type TCfbVisibility = z.infer<typeof ZCfbVisibility>;

/** The canonical knowledge object (seed 001 §2.1), as served on the wire. */
export const ZCfb = z.object({
  cfb_id: ZCfbId,
  domain: z.string(),
  kind: ZCfbKind,
  confidence: z.number().min(0).max(1),
  title: z.string(),
  summary: z.string(),
  text: z.string().nullable(),
  tags: z.array(z.string()),
  entities: z.array(z.string()),
  trust_tier: ZTrustTier,
  staleness: z.object({ ttl_days: z.number().int(), review_on_use: z.boolean() }),
  source_refs: z.array(z.string()),
  version: z.number().int().positive(),
  created_ts: ZIsoDate,
  updated_ts: ZIsoDate,
  last_accessed_ts: ZIsoDate.nullable(),
  visibility: ZCfbVisibility,
  /** A private CFB's owner (their email), whose threads alone retrieve it; null when shared. */
  private_to: z.string().nullable(),
});
export type TCfb = z.infer<typeof ZCfb>;

/** The compact view of a CFB that retrieval hands to a model. */
export type TCfbCard = Pick<TCfb, "cfb_id" | "domain" | "title" | "summary" | "tags" | "entities">;

/** Fields a person or a promotion may set when writing a CFB. */
export const ZCfbDraft = z.object({
  domain: z.string().trim().min(1).max(64),
  kind: ZCfbKind,
  confidence: z.number().min(0).max(1),
  title: z.string().trim().min(1).max(200),
  summary: z.string().trim().min(1).max(2000),
  text: z.string().max(20000).nullable(),
  tags: z.array(ZLabel).max(32),
  entities: z.array(ZLabel).max(32),
  trust_tier: ZTrustTier,
  source_refs: z.array(z.string().max(300)).max(32),
});
export type TCfbDraft = z.infer<typeof ZCfbDraft>;

export const ZCfbListRequest = z.object({
  /** `live` (the default): the CFBs answers draw on; `retired`: those a Jam editor retired. Merged ones are never listed. */
  state: z.enum(["live", "retired"]).default("live"),
  domain: z.string().trim().min(1).max(64).optional(),
  /** Only shared CFBs, or only private ones (a Jam editor: those awaiting endorsement). */
  visibility: ZCfbVisibility.optional(),
  query: z.string().trim().max(200).optional(),
  cursor: ZCfbId.optional(),
  limit: z.number().int().min(1).max(100).default(25),
});
export type TCfbListRequest = z.input<typeof ZCfbListRequest>;

export const ZCfbListResponse = z.object({
  items: z.array(ZCfb),
  next_cursor: ZCfbId.nullable(),
  /** True when no CFB held every word of the query: these hold the most of its words or their near spellings (a typo). */
  near_spellings: z.boolean().optional(),
});
export type TCfbListResponse = z.infer<typeof ZCfbListResponse>;

export const ZCfbGetRequest = z.object({ cfb_id: ZCfbId });

/** One field a revision changed, against the revision before it. */
export const ZCfbFieldChange = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });
export type TCfbFieldChange = z.infer<typeof ZCfbFieldChange>;

/** A CFB's content: the fields a draft sets, read from a CFB or a revision's snapshot of one. */
export function cfbDraftOf(cfb: Readonly<Record<string, unknown>>): TCfbDraft {
  return Object.fromEntries(ZCfbDraft.keyof().options.map((field) => [field, cfb[field] ?? null])) as TCfbDraft;
}

/** Whether two CFBs (or snapshots) hold the same content, field for field. */
export function sameCfbContent(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  return JSON.stringify(cfbDraftOf(a)) === JSON.stringify(cfbDraftOf(b));
}

/** Bookkeeping fields every write moves: not part of what a revision or a promotion changes. */
const UNCOMPARED_FIELDS = new Set(["cfb_id", "version", "created_ts", "updated_ts", "last_accessed_ts"]);

/**
 * The order changes are listed in: a CFB's fields as the contract declares them, then any other
 * in name order. Never a stored object's own key order, which a database may not keep
 * (PostgreSQL's jsonb stores keys shortest first).
 */
function byCfbFieldOrder(fields: string[]): string[] {
  const order = Object.keys(ZCfb.shape);
  const rank = (f: string) => (order.indexOf(f) === -1 ? order.length : order.indexOf(f));
  return [...fields].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Field by field, what `after` changes against `before` (CFB snapshots, or a CFB and the draft
 * that would replace it), in the contract's field order. Shared by revision history and the
 * preview of a promotion, so both show a change the same way. A field `before` does not hold was
 * not recorded then (a snapshot older than the field, e.g. `visibility`): not a change.
 */
export function cfbFieldChanges(
  before: Readonly<Record<string, unknown>> | null,
  after: Readonly<Record<string, unknown>>,
): TCfbFieldChange[] {
  if (!before) return [];
  return byCfbFieldOrder(Object.keys(after))
    .filter(
      (field) =>
        !UNCOMPARED_FIELDS.has(field) &&
        Object.hasOwn(before, field) &&
        JSON.stringify(before[field]) !== JSON.stringify(after[field]),
    )
    .map((field) => ({ field, before: before[field] ?? null, after: after[field] ?? null }));
}

export const ZCfbRevision = z.object({
  version: z.number().int().positive(),
  /** create, edit, update, merge, revert, retire, restore or endorse. */
  change_kind: z.string(),
  promotion_id: z.string().nullable(),
  /** The proposal a promotion's revision came from. */
  proposal_id: z.string().nullable(),
  /** Who made it (their email, as the audit log kept it); null when no event names them. */
  by: z.string().nullable(),
  created_ts: ZIsoDate,
  /** What this revision changed against the previous one (empty for the first). */
  changes: z.array(ZCfbFieldChange),
  /** Its content is the CFB's current content: reverting to it would change nothing. */
  same_as_current: z.boolean(),
});

/** A CFB with its history, as stored (ZCfbView, cfb-repair.ts, adds what the caller may do with it). */
export const ZCfbDetail = ZCfb.extend({
  revisions: z.array(ZCfbRevision),
  /** Set when this CFB was merged into another: the survivor that now holds its knowledge. */
  merged_into_cfb_id: z.string().nullable(),
  /** Set while the CFB is retired: out of retrieval, resolve and the default list until restored. */
  retired_ts: ZIsoDate.nullable(),
});
export type TCfbDetail = z.infer<typeof ZCfbDetail>;

/**
 * A Jam editor endorses a private CFB into shared knowledge, vouching for the version they saw:
 * if it moved since, CONFLICT and nothing changes.
 */
export const ZCfbEndorseRequest = z.object({ cfb_id: ZCfbId, version: z.number().int().positive() }).strict();
export type TCfbEndorseRequest = z.output<typeof ZCfbEndorseRequest>;

/**
 * A write based on a version the CFB has moved past: CONFLICT naming the fields that changed
 * since, so the person knows what to look at again. One wording for every place that checks.
 */
export function cfbVersionConflict(
  cfbId: string,
  current: number,
  expected: number,
  changedFields: readonly string[],
  field = "expected_cfb_version",
): DomainError {
  const changed = changedFields.length > 0 ? `: ${changedFields.join(", ")} changed` : "";
  return new DomainError(
    "CONFLICT",
    `CFB ${cfbId} is at version ${current}, not ${expected}${changed}; review it again`,
    { field },
  );
}

// Parsed requests, as a service receives them (defaults applied).
export type TCfbGetRequest = z.output<typeof ZCfbGetRequest>;
