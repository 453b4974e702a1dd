import {
  canApproveAsNew,
  DomainError,
  type TCfbDraft,
  type TPromoteRequest,
  type TPromoteResponse,
  type TProposal,
  ZCfbDraft,
} from "@solserver/contracts";
import { parseInput } from "../parse";
import { requireReviewer } from "./access";
import type { TActor, TServiceDeps } from "./deps";
import { createTraceLog } from "./trace-log";

// Actions this build performs. approve_update and edit_then_approve need resolve and CFB
// revisions with diffs (issues 6 and 7); until then they are refused by name, not faked.
const PERFORMED = new Set(["approve_create", "reject"]);

/** Proposals the model was at least this sure of become `heuristic` CFBs; below, `umbra`. */
const HEURISTIC_MIN_CONFIDENCE = 0.5;

/**
 * A CFB's confidence says how solid the knowledge is, not how sure the model was (seed 001
 * §2.1). One person's approval of one conversation is a single source: solid enough to use
 * (heuristic) or still early (umbra). Corroboration and stats raise it later (issue 7).
 */
const APPROVED_CONFIDENCE = { heuristic: 0.7, umbra: 0.4 } as const;

/** The CFB an approved proposal becomes: the person approved it, so its trust tier says so. */
export function draftFromProposal(proposal: TProposal): TCfbDraft {
  const p = proposal.proposed_cfb;
  const kind = proposal.confidence >= HEURISTIC_MIN_CONFIDENCE ? "heuristic" : "umbra";
  return parseInput(ZCfbDraft, {
    domain: p.domain,
    kind,
    confidence: APPROVED_CONFIDENCE[kind],
    title: p.title,
    summary: p.summary,
    text: null,
    tags: p.tags,
    entities: p.entities,
    trust_tier: "user_approved",
    source_refs: [`thread:${proposal.thread_id}#response:${proposal.response_id}`, `proposal:${proposal.proposal_id}`],
  });
}

export async function promoteProposal(
  deps: TServiceDeps,
  actor: TActor,
  input: TPromoteRequest,
): Promise<TPromoteResponse> {
  const reviewer = requireReviewer(actor);
  const proposal = await deps.repos.proposals.get(input.proposal_id);
  if (!proposal)
    throw new DomainError("NOT_FOUND", `proposal ${input.proposal_id} does not exist`, { field: "proposal_id" });
  if (input.response_id !== undefined && input.response_id !== proposal.response_id) {
    throw new DomainError(
      "BAD_INPUT",
      `response_id: proposal ${proposal.proposal_id} belongs to ${proposal.response_id}, not ${input.response_id}`,
      {
        field: "response_id",
      },
    );
  }
  if (proposal.status !== "pending") {
    throw new DomainError("CONFLICT", `proposal ${proposal.proposal_id} was already ${proposal.status}`, {
      field: "proposal_id",
    });
  }
  if (!PERFORMED.has(input.action)) {
    throw new DomainError(
      "UNSUPPORTED",
      `action: "${input.action}" is not available yet; use approve_create or reject`,
      { field: "action" },
    );
  }
  if (input.action === "approve_create" && !canApproveAsNew(proposal)) {
    throw new DomainError(
      "UNSUPPORTED",
      `action: approve_create does not apply to ${proposal.op} proposal ${proposal.proposal_id} of ${proposal.target_cfb_id}; approve_update is not available yet, so reject it or leave it pending`,
      { field: "action" },
    );
  }
  if (input.editorial_overrides !== undefined) {
    throw new DomainError("BAD_INPUT", "editorial_overrides: only allowed with action edit_then_approve", {
      field: "editorial_overrides",
    });
  }
  const trace = createTraceLog(deps.now);
  trace.add("promotion", `Promotion requested: ${input.action} ${proposal.proposal_id}`, { editor: reviewer.editor });
  const draft = input.action === "approve_create" ? draftFromProposal(proposal) : null;
  const result = await deps.repos.proposals.applyPromotion({
    proposalId: proposal.proposal_id,
    action: input.action,
    editor: reviewer.editor,
    cfbDraft: draft,
    overrides: null,
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
