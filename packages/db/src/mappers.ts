import type {
  TCfb,
  TCfbKind,
  TProposedCfb,
  TResolveDecisionView,
  TStoredProposal,
  TStoredProposalPreview,
} from "@solserver/contracts";
import { ZEditor, ZPromoteAction, ZProposalWarning, ZProposedCfb, ZResolveOutcome } from "@solserver/contracts";
import type { Cfb, PromotionEvent, UmbraProposal, UmbraResolveDecision } from "./generated/prisma/client";
import { asObject, asStringArray } from "./json";
import { dateOf, jsonOf } from "./sql";

// Row -> wire shape, one mapper per aggregate. Explicit field by field, so a new column never
// leaks by accident. A row may come from Prisma (Json parsed, Date objects, booleans) or from the
// SQL driver (Json as text, dates as text, booleans as 0/1 on SQLite): jsonOf and dateOf read both.

/** A Cfb row as Prisma or the SQL driver returns it. */
export type TCfbRow = Pick<
  Cfb,
  | "id"
  | "domain"
  | "kind"
  | "confidence"
  | "title"
  | "summary"
  | "text"
  | "trustTier"
  | "ttlDays"
  | "version"
  | "mergedIntoId"
  | "privateToId"
> & {
  retiredAt: unknown;
  tags: unknown;
  entities: unknown;
  sourceRefs: unknown;
  reviewOnUse: unknown;
  createdAt: unknown;
  updatedAt: unknown;
  lastAccessedAt: unknown;
  /** The private owner's email, joined from User where the row is read (absent: not joined). */
  privateToEmail?: string | null;
};

/** Every column toCfb reads, for Prisma reads (explicit select: nothing else comes back). */
export const CFB_SELECT = {
  id: true,
  domain: true,
  kind: true,
  confidence: true,
  title: true,
  summary: true,
  text: true,
  tags: true,
  entities: true,
  trustTier: true,
  ttlDays: true,
  reviewOnUse: true,
  sourceRefs: true,
  version: true,
  createdAt: true,
  updatedAt: true,
  lastAccessedAt: true,
  mergedIntoId: true,
  retiredAt: true,
  privateToId: true,
} as const;

export function toCfb(row: TCfbRow): TCfb {
  const privateTo = row.privateToId ?? null;
  return {
    cfb_id: row.id,
    domain: row.domain,
    kind: row.kind as TCfbKind,
    confidence: Number(row.confidence),
    title: row.title,
    summary: row.summary,
    text: row.text,
    tags: asStringArray(jsonOf(row.tags), "Cfb.tags"),
    entities: asStringArray(jsonOf(row.entities), "Cfb.entities"),
    trust_tier: row.trustTier as TCfb["trust_tier"],
    staleness: { ttl_days: Number(row.ttlDays), review_on_use: Boolean(row.reviewOnUse) },
    source_refs: asStringArray(jsonOf(row.sourceRefs), "Cfb.sourceRefs"),
    version: Number(row.version),
    created_ts: dateOf(row.createdAt).toISOString(),
    updated_ts: dateOf(row.updatedAt).toISOString(),
    last_accessed_ts: row.lastAccessedAt ? dateOf(row.lastAccessedAt).toISOString() : null,
    visibility: privateTo === null ? "shared" : "private",
    private_to: privateTo === null ? null : (row.privateToEmail ?? null),
  };
}

/** The columns a mapper reads, as Prisma or the SQL driver returns them (Json and DateTime loose). */
type TRowOf<T, K extends keyof T, Loose extends K> = Omit<Pick<T, K>, Loose> & { [P in Loose]: unknown };

const columns = <K extends string>(...names: K[]) => Object.fromEntries(names.map((n) => [n, true])) as Record<K, true>;

const PROPOSAL_SELECT = columns(
  "id",
  "op",
  "targetCfbId",
  "title",
  "deltaSummary",
  "confidence",
  "warnings",
  "responseId",
  "threadId",
  "status",
  "proposedCfb",
  "rationale",
  "fingerprint",
  "createdAt",
  "decidedAt",
  "twinOfId",
  "echo",
);
export type TProposalRow = TRowOf<
  UmbraProposal,
  keyof typeof PROPOSAL_SELECT,
  "warnings" | "proposedCfb" | "createdAt" | "decidedAt" | "confidence"
>;

const PROMOTION_SELECT = columns(
  "id",
  "proposalId",
  "action",
  "finalCfbId",
  "editor",
  "createdAt",
  "round",
  "reopenedAt",
);
export type TPromotionRow = TRowOf<PromotionEvent, keyof typeof PROMOTION_SELECT, "createdAt" | "reopenedAt">;

export const RESOLVE_DECISION_SELECT = columns(
  "id",
  "proposalId",
  "stage",
  "decision",
  "targetCfbId",
  "mergeCfbIds",
  "scores",
  "reasonCodes",
  "hysteresis",
  "modelOp",
  "modelTargetCfbId",
  "disagreement",
  "createdAt",
);
export type TResolveDecisionRow = TRowOf<
  UmbraResolveDecision,
  keyof typeof RESOLVE_DECISION_SELECT,
  "mergeCfbIds" | "scores" | "reasonCodes" | "hysteresis" | "createdAt"
>;

const isoOf = (value: unknown) => dateOf(value).toISOString();

/**
 * A proposal's content as stored. Rows written before proposals carried their content apart from
 * the change note have no `text` key and held the change note as `summary`: an update or merge of
 * those reads as one that proposed no content (approving it keeps the target's summary).
 */
function proposedCfbOf(op: string, value: unknown): TProposedCfb {
  const raw = asObject(jsonOf(value), "UmbraProposal.proposedCfb");
  if ("text" in raw) return ZProposedCfb.parse(raw);
  return ZProposedCfb.parse({ ...raw, summary: op === "create" ? raw.summary : null, text: null });
}

export function toProposalPreview(row: TProposalRow): TStoredProposalPreview {
  return {
    proposal_id: row.id,
    op: row.op as TStoredProposalPreview["op"],
    target_cfb_id: row.targetCfbId,
    title: row.title,
    delta_summary: row.deltaSummary,
    confidence: Number(row.confidence),
    warnings: asStringArray(jsonOf(row.warnings), "UmbraProposal.warnings").map((w) => ZProposalWarning.parse(w)),
  };
}

/**
 * A proposal with its decisions (any order): `promotion` is the one in force (none while a
 * reopened proposal is pending again), `earlier_decisions` those reopened, oldest first.
 */
export function toProposal(
  row: TProposalRow & {
    promotions: readonly TPromotionRow[];
    resolveDecision?: TResolveDecisionRow[];
    twinCount?: number;
    /** How many people's proposals it stands for: 1, and one per echo grouped under it. */
    people?: number;
    /** The email of who decided it (of a duplicate, its twin). */
    decidedBy?: string | null;
  },
): TStoredProposal {
  const rounds = [...row.promotions].sort((a, b) => Number(a.round) - Number(b.round));
  const promotion = rounds.find((p) => p.reopenedAt === null || p.reopenedAt === undefined) ?? null;
  const latest = row.resolveDecision?.[0];
  const pendingEcho = row.status === "pending" && Boolean(row.echo);
  return {
    ...toProposalPreview(row),
    response_id: row.responseId,
    thread_id: row.threadId,
    status: row.status as TStoredProposal["status"],
    proposed_cfb: proposedCfbOf(row.op, row.proposedCfb),
    rationale: row.rationale,
    fingerprint: row.fingerprint,
    created_ts: isoOf(row.createdAt),
    decided_ts: row.decidedAt ? isoOf(row.decidedAt) : null,
    decided_by: row.decidedBy ?? null,
    promotion: promotion
      ? {
          promotion_id: promotion.id,
          action: ZPromoteAction.parse(promotion.action),
          final_cfb_id: promotion.finalCfbId,
          editor: ZEditor.parse(promotion.editor),
          created_ts: isoOf(promotion.createdAt),
        }
      : null,
    // A pending echo leads in its owner's queue; the other person's proposal is named apart.
    twin_of_id: pendingEcho ? null : row.twinOfId,
    echo_of_id: pendingEcho ? row.twinOfId : null,
    twin_count: row.twinCount ?? 0,
    people: row.people ?? 1,
    earlier_decisions: rounds.flatMap((p) =>
      p.reopenedAt === null || p.reopenedAt === undefined
        ? []
        : [
            {
              promotion_id: p.id,
              action: ZPromoteAction.parse(p.action),
              editor: ZEditor.parse(p.editor),
              created_ts: isoOf(p.createdAt),
              reopened_ts: isoOf(p.reopenedAt),
            },
          ],
    ),
    resolve: latest ? toResolveDecisionView(latest) : null,
  };
}

/** A stored resolve decision as the API shows it. */
export function toResolveDecisionView(r: TResolveDecisionRow): TResolveDecisionView {
  const merge = r.mergeCfbIds === null ? null : jsonOf(r.mergeCfbIds);
  const outcome = ZResolveOutcome.parse({
    decision: r.decision,
    target_cfb_id: r.targetCfbId,
    merge_cfb_ids: merge === null ? [] : asStringArray(merge, "UmbraResolveDecision.mergeCfbIds"),
    scores: jsonOf(r.scores),
    reason_codes: jsonOf(r.reasonCodes),
    hysteresis_applied: Boolean(r.hysteresis),
  });
  const op = r.modelOp === "update" || r.modelOp === "merge" ? r.modelOp : "create";
  return {
    ...outcome,
    decision_id: r.id,
    stage: r.stage === "promotion" ? "promotion" : "created",
    model_op: op,
    model_target_cfb_id: r.modelTargetCfbId,
    disagreement: r.disagreement,
    created_ts: isoOf(r.createdAt),
  };
}
