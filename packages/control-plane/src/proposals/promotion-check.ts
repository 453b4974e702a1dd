import {
  DomainError,
  proposalDecidedConflict,
  type TCfbKind,
  type TCfbVisibility,
  type TEditor,
  type TPromoteAction,
  type TPromoteRequest,
  type TProposalActions,
  type TResolveOutcome,
  type TStoredProposal,
  type TStoredProposalPreview,
  type TTrustTier,
  utcMinute,
  ZPromoteAction,
} from "@solserver/contracts";
import { heldReasons, type TResolveFacts } from "./held";
import { protectedCfb, protectedRefusal, protectionNote } from "./trust";

// What a promotion accepts, decided in one place: promote runs these checks before it writes, and
// the allowed actions every proposal carries are these same checks run against each action. So
// the dashboard never offers a button the server refuses, nor hides one it would accept.

/**
 * approve_create writes a new CFB. For an update or merge that names a real CFB that would
 * duplicate knowledge (and its summary is a delta, not a block), so only `create` proposals, or
 * those whose target is missing, can be approved as new.
 */
export function canApproveAsNew(proposal: Pick<TStoredProposalPreview, "op" | "warnings">): boolean {
  return (
    proposal.op === "create" ||
    proposal.warnings.includes("target_cfb_missing") ||
    proposal.warnings.includes("target_cfb_required")
  );
}

/**
 * A CFB as far as finding an update's target and its protection need it (a full CFB for promote,
 * a head for a queue page).
 */
export type TCfbRef = {
  cfb_id: string;
  title: string;
  version: number;
  merged_into_cfb_id: string | null;
  retired_ts: string | null;
  visibility: TCfbVisibility;
  kind: TCfbKind;
  trust_tier: TTrustTier;
};

/** Where an update lands: the target, and for a merge the other CFB folded into it. */
export type TUpdateTarget<C extends TCfbRef> = { target: C; merged: C | null };

/** The parts of resolve's decision an update's target depends on (a fresh outcome or a stored one). */
export type TResolvedTarget = Pick<TResolveOutcome, "decision" | "target_cfb_id" | "merge_cfb_ids">;

/** Follows merges: the CFB an id resolves to now (a merged CFB resolves to its survivor). */
async function liveCfb<C extends TCfbRef>(get: (id: string) => Promise<C | null>, cfbId: string): Promise<C | null> {
  let cfb = await get(cfbId);
  for (let hops = 0; cfb?.merged_into_cfb_id && hops < 8; hops++) cfb = await get(cfb.merged_into_cfb_id);
  return cfb;
}

/**
 * Where an update lands: the proposal's own target when it names an existing CFB, else resolve's
 * (update, review or merge); with resolve's merge pair around that target, the other CFB of the
 * pair is folded into it, unless it was retired since (retired knowledge is not folded back in),
 * and only when both are shared or both private (issue 19): folding shared knowledge into a
 * private CFB would take it from everyone else, and the reverse would share a user's knowledge
 * without a Jam editor's endorsement; then only the target is updated. Null when there is no CFB
 * to update.
 */
export async function findUpdateTarget<C extends TCfbRef>(
  get: (id: string) => Promise<C | null>,
  proposal: Pick<TStoredProposal, "target_cfb_id" | "warnings">,
  resolved: TResolvedTarget,
): Promise<TUpdateTarget<C> | null> {
  const named = proposal.warnings.includes("target_cfb_missing") ? null : proposal.target_cfb_id;
  const targetId = named ?? (resolved.decision === "create" ? null : resolved.target_cfb_id);
  const target = targetId ? await liveCfb(get, targetId) : null;
  if (!target) return null;
  const pair = resolved.decision === "merge" ? resolved.merge_cfb_ids : [];
  const otherId = pair.includes(target.cfb_id) ? pair.find((id) => id !== target.cfb_id) : undefined;
  const merged = otherId ? await liveCfb(get, otherId) : null;
  const folds =
    merged !== null && merged.cfb_id !== target.cfb_id && !merged.retired_ts && merged.visibility === target.visibility;
  return { target, merged: folds ? merged : null };
}

/** Whether `action` rewrites an existing CFB: approve_update, or an edit of a proposal that cannot stand as new. */
function writesUpdate(proposal: Pick<TStoredProposal, "op" | "warnings">, action: TPromoteAction): boolean {
  return action === "approve_update" || (action === "edit_then_approve" && !canApproveAsNew(proposal));
}

/**
 * What the checks read of a proposal (a stored proposal, or a chat answer's lean read of one):
 * its state, and for a decided one who decided what and when (the "already decided" answer).
 */
export type TJudgedProposal = Pick<
  TStoredProposal,
  "proposal_id" | "response_id" | "status" | "op" | "target_cfb_id" | "warnings" | "twin_of_id"
> &
  Partial<Pick<TStoredProposal, "decided_ts" | "decided_by">> & {
    promotion?: Pick<NonNullable<TStoredProposal["promotion"]>, "final_cfb_id"> | null;
  };

/** A CFB written since the proposal that resolve, taken now, says the proposal restates. */
export type TNewerRestatement = { cfb_id: string; created_ts: string; score: number };

/** What the verdict depends on besides the request. The caller may see the proposal (checked before). */
export type TPromotionFacts<C extends TCfbRef> = {
  proposal: TJudgedProposal;
  /** Who decides: the thread's user or a Jam editor. */
  editor: TEditor;
  /** Where an update would land; asked only when the action updates (it may run resolve again). */
  updateTarget: () => Promise<TUpdateTarget<C> | null>;
  /**
   * Asked only when the action writes a new CFB: a CFB approved since the proposal was made that
   * it restates (its twin's approval, or someone else's). Left out where resolve is not taken
   * again (a page of the queue, basis `stored`): promote itself always asks.
   */
  newerRestatement?: () => Promise<TNewerRestatement | null>;
  /** Resolve's decision the held reasons read (held.ts); none: nothing is held but curated knowledge. */
  resolved?: TResolveFacts | null;
};

/** The parts of a promote request the checks read. */
export type TPromotionAsk = Pick<TPromoteRequest, "action" | "response_id" | "editorial_overrides">;

/**
 * Go ahead (with the update's target when the action updates), or the error promote answers; a
 * refusal because the target is protected still says where the update would have landed.
 */
export type TPromotionVerdict<C extends TCfbRef> =
  | { ok: true; update: TUpdateTarget<C> | null }
  | { ok: false; error: DomainError; update?: TUpdateTarget<C> };

const refuse = (error: DomainError) => ({ ok: false as const, error });

/** Promote's checks, most specific reason first; the first that fails is the answer. */
export async function judgePromotion<C extends TCfbRef>(
  facts: TPromotionFacts<C>,
  ask: TPromotionAsk,
): Promise<TPromotionVerdict<C>> {
  const { proposal } = facts;
  if (ask.action === "edit_then_approve" && facts.editor !== "jam") {
    return refuse(new DomainError("FORBIDDEN", "only Jam editors may edit_then_approve", { field: "action" }));
  }
  if (ask.response_id !== undefined && ask.response_id !== proposal.response_id) {
    return refuse(
      new DomainError(
        "BAD_INPUT",
        `response_id: proposal ${proposal.proposal_id} belongs to ${proposal.response_id}, not ${ask.response_id}`,
        { field: "response_id" },
      ),
    );
  }
  if (proposal.status !== "pending") {
    return refuse(proposalDecidedConflict({ ...proposal, final_cfb_id: proposal.promotion?.final_cfb_id ?? null }));
  }
  if (ask.action === "approve_create" && !canApproveAsNew(proposal)) {
    return refuse(
      new DomainError(
        "BAD_INPUT",
        `action: approve_create does not apply to ${proposal.op} proposal ${proposal.proposal_id} of ${proposal.target_cfb_id}; use approve_update (or edit_then_approve), or reject it`,
        { field: "action" },
      ),
    );
  }
  if (ask.editorial_overrides !== undefined && ask.action !== "edit_then_approve") {
    return refuse(
      new DomainError("BAD_INPUT", "editorial_overrides: only allowed with action edit_then_approve", {
        field: "editorial_overrides",
      }),
    );
  }
  if (ask.action === "edit_then_approve" && ask.editorial_overrides === undefined) {
    return refuse(
      new DomainError("BAD_INPUT", "editorial_overrides: required with action edit_then_approve", {
        field: "editorial_overrides",
      }),
    );
  }
  if (!writesUpdate(proposal, ask.action)) {
    const newer = ask.action === "reject" ? null : await facts.newerRestatement?.();
    if (newer) {
      return refuse(
        new DomainError(
          "CONFLICT",
          `action: proposal ${proposal.proposal_id} restates ${newer.cfb_id}, approved at ${utcMinute(newer.created_ts)} after the proposal was made (resolve now: score ${newer.score.toFixed(2)}); approving it as new would write the same knowledge twice: approve it as an update of ${newer.cfb_id} instead, or reject it`,
          { field: "action" },
        ),
      );
    }
    return { ok: true, update: null };
  }
  const update = await facts.updateTarget();
  if (!update) {
    return refuse(
      new DomainError(
        "BAD_INPUT",
        `action: proposal ${proposal.proposal_id} names no CFB to update and resolve found none close enough; use approve_create or reject`,
        { field: "action" },
      ),
    );
  }
  if (update.target.retired_ts) {
    // Retired knowledge stays out until a Jam editor restores it: an approval must not change it unseen.
    return refuse(
      new DomainError(
        "CONFLICT",
        `CFB ${update.target.cfb_id} is retired; restore it on its page first to approve this update, or reject the proposal`,
        { field: "action" },
      ),
    );
  }
  // Curated knowledge (authoritative, or a repository ADR) is changed by Jam editors only.
  const guarded = protectedCfb(update);
  if (guarded && facts.editor !== "jam") {
    return { ok: false, error: new DomainError("FORBIDDEN", protectedRefusal(guarded), { field: "action" }), update };
  }
  return { ok: true, update };
}

/**
 * Each action as a reviewer's button sends it: edit_then_approve with overrides that change
 * nothing (real overrides can only add refusals of their own: a field out of bounds), and no
 * `expected_cfb_version` (a stale version is a conflict of that request, not of the action).
 */
const probe = (action: TPromoteAction): TPromotionAsk =>
  action === "edit_then_approve" ? { action, editorial_overrides: {} } : { action };

/** What this caller may do with the proposal: promote's verdict on each of the four actions. */
export async function proposalActions<C extends TCfbRef>(
  facts: TPromotionFacts<C>,
  basis: TProposalActions["basis"],
): Promise<TProposalActions> {
  const allowed: TPromoteAction[] = [];
  const unavailable: TProposalActions["unavailable"] = [];
  let update: TUpdateTarget<C> | null = null;
  // Where an update would land, allowed or not: its protection is said either way.
  let reach: TUpdateTarget<C> | null = null;
  for (const action of ZPromoteAction.options) {
    const verdict = await judgePromotion(facts, probe(action));
    if (action === "approve_update") reach = verdict.update ?? null;
    if (!verdict.ok) {
      unavailable.push({ action, code: verdict.error.code, reason: verdict.error.message });
      continue;
    }
    allowed.push(action);
    if (action === "approve_update") update = verdict.update;
  }
  const editing = allowed.includes("edit_then_approve");
  const guarded = reach && protectedCfb(reach);
  const primary = allowed.includes("approve_create")
    ? "approve_create"
    : allowed.includes("approve_update")
      ? "approve_update"
      : null;
  return {
    allowed,
    primary,
    update: update && {
      cfb_id: update.target.cfb_id,
      title: update.target.title,
      version: update.target.version,
      merge_cfb_id: update.merged?.cfb_id ?? null,
    },
    protection: guarded && {
      cfb_id: guarded.cfb_id,
      kind: guarded.kind,
      trust_tier: guarded.trust_tier,
      note: protectionNote(guarded, facts.editor),
    },
    held: heldReasons(primary, facts.resolved ?? null, update),
    covered_by: reach && allowed.includes("reject") ? { cfb_id: reach.target.cfb_id, title: reach.target.title } : null,
    edit: editing ? (writesUpdate(facts.proposal, "edit_then_approve") ? "update" : "create") : null,
    unavailable,
    basis,
  };
}
