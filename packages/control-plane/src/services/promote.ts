import {
  canApproveAsNew,
  DomainError,
  type TCfbDraft,
  type TEditorialOverrides,
  type TPromoteRequest,
  type TPromoteResponse,
  type TProposal,
  ZCfbDraft,
} from "@solserver/contracts";
import { parseInput } from "../parse";
import { assertCanSeeThread, auditActor, requireSignedIn } from "./access";
import type { TActor, TServiceDeps } from "./deps";
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
  const kind = proposal.confidence >= HEURISTIC_MIN_CONFIDENCE ? "heuristic" : "umbra";
  return parseInput(ZCfbDraft, {
    domain: p.domain,
    kind,
    confidence: APPROVED_CONFIDENCE[kind],
    title: overrides?.title_edit ?? p.title,
    summary: overrides?.summary_edit ?? p.summary,
    text: overrides?.text_edit ?? null,
    tags: applyTagEdits(p.tags, overrides),
    entities: p.entities,
    trust_tier: "user_approved",
    source_refs: [`thread:${proposal.thread_id}#response:${proposal.response_id}`, `proposal:${proposal.proposal_id}`],
  });
}

/** Refuses what this caller may not do to this proposal, most specific reason first. */
async function checkPromotion(deps: TServiceDeps, actor: TActor, input: TPromoteRequest): Promise<TProposal> {
  const caller = requireSignedIn(actor);
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
  // approve_update needs resolve and revision diffs (issues 6 and 7): refused by name, not faked.
  if (input.action === "approve_update") {
    throw new DomainError(
      "UNSUPPORTED",
      `action: "approve_update" is not available yet; use approve_create, edit_then_approve or reject`,
      {
        field: "action",
      },
    );
  }
  const creates = input.action === "approve_create" || input.action === "edit_then_approve";
  if (creates && !canApproveAsNew(proposal)) {
    throw new DomainError(
      "UNSUPPORTED",
      `action: ${input.action} does not apply to ${proposal.op} proposal ${proposal.proposal_id} of ${proposal.target_cfb_id}; approve_update is not available yet, so reject it or leave it pending`,
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

export async function promoteProposal(
  deps: TServiceDeps,
  actor: TActor,
  input: TPromoteRequest,
): Promise<TPromoteResponse> {
  const proposal = await checkPromotion(deps, actor, input);
  const caller = requireSignedIn(actor);
  const trace = createTraceLog(deps.now);
  trace.add("promotion", `Promotion requested: ${input.action} ${proposal.proposal_id}`, { editor: caller.role });
  const draft = input.action === "reject" ? null : draftFromProposal(proposal, input.editorial_overrides);
  // Resolved again: CFBs may have been created or edited since the proposal was.
  const resolved = await resolveProposal(deps, {
    op: proposal.op,
    targetCfbId: proposal.target_cfb_id,
    deltaSummary: proposal.delta_summary,
    proposedCfb: proposal.proposed_cfb,
    fingerprint: proposal.fingerprint,
  });
  trace.add("resolve", `Resolve at promotion: ${resolved.outcome.decision}`, {
    decision: resolved.outcome.decision,
    target_cfb_id: resolved.outcome.target_cfb_id,
    top_score: resolved.outcome.scores[0]?.score ?? null,
    reason_codes: resolved.outcome.reason_codes,
    disagreement: resolved.disagreement,
  });
  const result = await deps.repos.proposals.applyPromotion({
    resolve: { ...resolved, fingerprint: proposal.fingerprint },
    proposalId: proposal.proposal_id,
    action: input.action,
    editor: caller.role,
    audit: auditActor(caller),
    cfbDraft: draft,
    overrides: input.editorial_overrides ?? null,
    trace: trace.events,
  });
  return {
    promotion_id: result.promotionId,
    proposal_id: proposal.proposal_id,
    action: input.action,
    status: draft ? "approved" : "rejected",
    final_cfb_id: result.cfb?.cfb_id ?? null,
    cfb: result.cfb,
  };
}
