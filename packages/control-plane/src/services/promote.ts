import {
  canApproveAsNew,
  cfbVersionConflict,
  DomainError,
  type TCfb,
  type TCfbDetail,
  type TCfbDraft,
  type TEditorialOverrides,
  type TPromoteRequest,
  type TPromoteResponse,
  type TProposal,
  type TResolveOutcome,
  ZCfbDraft,
} from "@solserver/contracts";
import { parseInput } from "../parse";
import { assertCanSeeThread, auditActor } from "./access";
import type { TCaller, TServiceContext } from "./context";
import type { TServiceDeps } from "./deps";
import { resolveProposal } from "./resolve";
import { createTraceLog } from "./trace-log";

/** Proposals the model was at least this sure of become `heuristic` CFBs; below, `umbra`. */
const HEURISTIC_MIN_CONFIDENCE = 0.5;

/**
 * A CFB's confidence says how solid the knowledge is, not how sure the model was (seed 001
 * §2.1). One person's approval of one conversation is a single source: solid enough to use
 * (heuristic) or still early (umbra). Corroboration and stats raise it later (issue 7).
 */
const APPROVED_CONFIDENCE = { heuristic: 0.7, umbra: 0.4 } as const;

function applyTagEdits(tags: readonly string[], overrides: TEditorialOverrides | undefined): string[] {
  const removed = new Set((overrides?.tags_remove ?? []).map((t) => t.toLowerCase()));
  const kept = tags.filter((t) => !removed.has(t.toLowerCase()));
  for (const tag of overrides?.tags_add ?? []) {
    if (!kept.some((t) => t.toLowerCase() === tag.toLowerCase())) kept.push(tag);
  }
  return kept;
}

/**
 * The CFB an approved proposal becomes, with a Jam editor's overrides applied when given. The
 * person approved it, so its trust tier says so.
 */
export function draftFromProposal(proposal: TProposal, overrides?: TEditorialOverrides): TCfbDraft {
  const p = proposal.proposed_cfb;
  const kind = overrides?.kind ?? (proposal.confidence >= HEURISTIC_MIN_CONFIDENCE ? "heuristic" : "umbra");
  return parseInput(ZCfbDraft, {
    domain: p.domain,
    kind,
    confidence: overrides?.confidence ?? APPROVED_CONFIDENCE[kind === "authoritative" ? "heuristic" : kind],
    title: overrides?.title_edit ?? p.title,
    summary: overrides?.summary_edit ?? p.summary,
    text: overrides?.text_edit ?? null,
    tags: applyTagEdits(p.tags, overrides),
    entities: p.entities,
    trust_tier: "user_approved",
    source_refs: [`thread:${proposal.thread_id}#response:${proposal.response_id}`, `proposal:${proposal.proposal_id}`],
  });
}

const union = (a: readonly string[], b: readonly string[]) => {
  const seen = new Set(a.map((x) => x.toLowerCase()));
  return [...a, ...b.filter((x) => !seen.has(x.toLowerCase()) && seen.add(x.toLowerCase()))];
};

/**
 * The CFB an approved update becomes: the target as it is, with the proposal's restatement as
 * its summary, the union of tags, entities and sources (a merged CFB's too), and the editor's
 * overrides on top. The title and full text stay the target's unless the editor changes them.
 */
export function updateDraft(
  target: TCfb,
  proposal: TProposal,
  overrides: TEditorialOverrides | undefined,
  merged: TCfb | null,
): TCfbDraft {
  const p = proposal.proposed_cfb;
  const tags = union(union(target.tags, merged?.tags ?? []), p.tags);
  return parseInput(ZCfbDraft, {
    domain: target.domain,
    kind: overrides?.kind ?? target.kind,
    confidence: overrides?.confidence ?? target.confidence,
    title: overrides?.title_edit ?? target.title,
    summary: overrides?.summary_edit ?? p.summary,
    text: overrides?.text_edit ?? target.text,
    tags: applyTagEdits(tags, overrides).slice(0, 32),
    entities: union(union(target.entities, merged?.entities ?? []), p.entities).slice(0, 32),
    trust_tier: "user_approved",
    source_refs: union(union(target.source_refs, merged?.source_refs ?? []), [
      `thread:${proposal.thread_id}#response:${proposal.response_id}`,
      `proposal:${proposal.proposal_id}`,
      ...(merged ? [`merged:${merged.cfb_id}`] : []),
    ]).slice(0, 32),
  });
}

/** Refuses what this caller may not do to this proposal, most specific reason first. */
async function checkPromotion(deps: TServiceDeps, caller: TCaller, input: TPromoteRequest): Promise<TProposal> {
  const proposal = await deps.repos.proposals.get(input.proposal_id);
  if (!proposal)
    throw new DomainError("NOT_FOUND", `proposal ${input.proposal_id} does not exist`, { field: "proposal_id" });
  const thread = await deps.repos.turns.threadOwner(proposal.thread_id);
  assertCanSeeThread(caller, thread?.ownerId ?? null, `proposal ${proposal.proposal_id}`);
  if (input.action === "edit_then_approve" && caller.role !== "jam") {
    throw new DomainError("FORBIDDEN", "only Jam editors may edit_then_approve", { field: "action" });
  }
  if (input.response_id !== undefined && input.response_id !== proposal.response_id) {
    throw new DomainError(
      "BAD_INPUT",
      `response_id: proposal ${proposal.proposal_id} belongs to ${proposal.response_id}, not ${input.response_id}`,
      { field: "response_id" },
    );
  }
  if (proposal.status !== "pending") {
    throw new DomainError("CONFLICT", `proposal ${proposal.proposal_id} was already ${proposal.status}`, {
      field: "proposal_id",
    });
  }
  if (input.action === "approve_create" && !canApproveAsNew(proposal)) {
    throw new DomainError(
      "BAD_INPUT",
      `action: approve_create does not apply to ${proposal.op} proposal ${proposal.proposal_id} of ${proposal.target_cfb_id}; use approve_update (or edit_then_approve), or reject it`,
      { field: "action" },
    );
  }
  if (input.editorial_overrides !== undefined && input.action !== "edit_then_approve") {
    throw new DomainError("BAD_INPUT", "editorial_overrides: only allowed with action edit_then_approve", {
      field: "editorial_overrides",
    });
  }
  if (input.action === "edit_then_approve" && input.editorial_overrides === undefined) {
    throw new DomainError("BAD_INPUT", "editorial_overrides: required with action edit_then_approve", {
      field: "editorial_overrides",
    });
  }
  return proposal;
}

/** Follows merges: the CFB an id resolves to now (a merged CFB resolves to its survivor). */
async function liveCfb(deps: TServiceDeps, cfbId: string): Promise<TCfbDetail | null> {
  let cfb = await deps.repos.cfbs.get(cfbId);
  for (let hops = 0; cfb?.merged_into_cfb_id && hops < 8; hops++)
    cfb = await deps.repos.cfbs.get(cfb.merged_into_cfb_id);
  return cfb;
}

/**
 * Where an update lands: the proposal's own target when it names an existing CFB, else resolve's
 * (update, review or merge); with resolve's merge pair around that target, the other CFB of the
 * pair is folded into it. Null when there is no CFB to update.
 */
async function updateTarget(
  deps: TServiceDeps,
  proposal: TProposal,
  resolved: TResolveOutcome,
): Promise<{ target: TCfbDetail; merged: TCfbDetail | null } | null> {
  const named = proposal.warnings.includes("target_cfb_missing") ? null : proposal.target_cfb_id;
  const targetId = named ?? (resolved.decision === "create" ? null : resolved.target_cfb_id);
  const target = targetId ? await liveCfb(deps, targetId) : null;
  if (!target) return null;
  const pair = resolved.decision === "merge" ? resolved.merge_cfb_ids : [];
  const otherId = pair.includes(target.cfb_id) ? pair.find((id) => id !== target.cfb_id) : undefined;
  const merged = otherId ? await liveCfb(deps, otherId) : null;
  return { target, merged: merged && merged.cfb_id !== target.cfb_id ? merged : null };
}

/** What approving a proposal as an update would write: its target now, and the draft after. */
export type TUpdatePlan = { target: TCfbDetail; merged: TCfbDetail | null; draft: TCfbDraft };

export async function planUpdate(
  deps: TServiceDeps,
  proposal: TProposal,
  resolved: TResolveOutcome,
  overrides: TEditorialOverrides | undefined,
): Promise<TUpdatePlan | null> {
  const found = await updateTarget(deps, proposal, resolved);
  return found && { ...found, draft: updateDraft(found.target, proposal, overrides, found.merged) };
}

/** Resolve again at review or promotion: CFBs may have been created, edited or merged since. */
export function resolveAgain(deps: TServiceDeps, proposal: TProposal) {
  return resolveProposal(deps, {
    op: proposal.op,
    targetCfbId: proposal.target_cfb_id,
    deltaSummary: proposal.delta_summary,
    proposedCfb: proposal.proposed_cfb,
    fingerprint: proposal.fingerprint,
  });
}

/** The fields of a CFB that revisions after `version` changed, in the order they first did. */
function fieldsChangedSince(cfb: TCfbDetail, version: number): string[] {
  return [
    ...new Set(
      cfb.revisions
        .filter((r) => r.version > version)
        .sort((a, b) => a.version - b.version)
        .flatMap((r) => r.changes.map((c) => c.field)),
    ),
  ];
}

export async function promoteProposal(
  { deps, caller }: TServiceContext,
  input: TPromoteRequest,
): Promise<TPromoteResponse> {
  const proposal = await checkPromotion(deps, caller, input);
  const trace = createTraceLog(deps.now);
  trace.add("promotion", `Promotion requested: ${input.action} ${proposal.proposal_id}`, { editor: caller.role });
  const resolved = await resolveAgain(deps, proposal);
  trace.add("resolve", `Resolve at promotion: ${resolved.outcome.decision}`, {
    decision: resolved.outcome.decision,
    target_cfb_id: resolved.outcome.target_cfb_id,
    top_score: resolved.outcome.scores[0]?.score ?? null,
    reason_codes: resolved.outcome.reason_codes,
    disagreement: resolved.disagreement,
  });
  // An update: approve_update, or an edit of a proposal that cannot stand as a new CFB.
  const updates =
    input.action === "approve_update" || (input.action === "edit_then_approve" && !canApproveAsNew(proposal));
  let cfbDraft: TCfbDraft | null = null;
  let cfbUpdate: { cfbId: string; expectedVersion: number; draft: TCfbDraft; mergedId: string | null } | null = null;
  if (updates) {
    const plan = await planUpdate(deps, proposal, resolved.outcome, input.editorial_overrides);
    if (!plan) {
      throw new DomainError(
        "BAD_INPUT",
        `action: proposal ${proposal.proposal_id} names no CFB to update and resolve found none close enough; use approve_create or reject`,
        { field: "action" },
      );
    }
    const { target, merged } = plan;
    if (input.expected_cfb_version !== undefined && input.expected_cfb_version !== target.version) {
      const changed = fieldsChangedSince(target, input.expected_cfb_version);
      throw cfbVersionConflict(target.cfb_id, target.version, input.expected_cfb_version, changed);
    }
    cfbUpdate = {
      cfbId: target.cfb_id,
      // The write is conditional on the version read here: an edit in between is CONFLICT.
      expectedVersion: target.version,
      draft: plan.draft,
      mergedId: merged?.cfb_id ?? null,
    };
    trace.add("promotion", merged ? `Merge ${merged.cfb_id} into ${target.cfb_id}` : `Update ${target.cfb_id}`, {
      target_cfb_id: target.cfb_id,
      base_version: target.version,
      merged_cfb_id: merged?.cfb_id ?? null,
    });
  } else if (input.action !== "reject") {
    cfbDraft = draftFromProposal(proposal, input.editorial_overrides);
  }
  const result = await deps.repos.proposals.applyPromotion({
    resolve: { ...resolved, fingerprint: proposal.fingerprint },
    proposalId: proposal.proposal_id,
    action: input.action,
    editor: caller.role,
    audit: auditActor(caller),
    cfbDraft,
    cfbUpdate,
    overrides: input.editorial_overrides ?? null,
    trace: trace.events,
  });
  if (result.cfb) deps.semantic?.afterWrite();
  return {
    promotion_id: result.promotionId,
    proposal_id: proposal.proposal_id,
    action: input.action,
    status: input.action === "reject" ? "rejected" : "approved",
    final_cfb_id: result.cfb?.cfb_id ?? null,
    cfb: result.cfb,
    merged_cfb_id: result.mergedCfbId,
  };
}
