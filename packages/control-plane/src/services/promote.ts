import {
  cfbVersionConflict,
  DomainError,
  type TCfb,
  type TCfbDetail,
  type TCfbDraft,
  type TEditorialOverrides,
  type TPromoteRequest,
  type TPromoteResponse,
  type TResolveOutcome,
  type TStoredProposal,
  ZCfbDraft,
} from "@solserver/contracts";
import { visibleTo } from "@solserver/db";
import { sameSpecifics, textProfile } from "@solserver/resolve";
import type { TTagNormalizer } from "../knowledge/tags";
import { once } from "../once";
import { parseInput } from "../parse";
import { factOf, withParagraph } from "../proposals/content";
import {
  findUpdateTarget,
  judgePromotion,
  type TNewerRestatement,
  type TResolvedTarget,
  type TUpdateTarget,
} from "../proposals/promotion-check";
import { approvedTrustTier, highestTrustTier, strongestKind } from "../proposals/trust";
import { auditActor, proposalOwner, visibleProposal } from "./access";
import type { TServiceContext } from "./context";
import type { TServiceDeps } from "./deps";
import { resolveProposal } from "./resolve";
import { learnProposalDomain } from "./routing";
import { createTraceLog } from "./trace-log";

/** Proposals the model was at least this sure of become `heuristic` CFBs; below, `umbra`. */
const HEURISTIC_MIN_CONFIDENCE = 0.5;

/**
 * A CFB's confidence says how solid the knowledge is, not how sure the model was (seed 001
 * §2.1). One person's approval of one conversation is a single source: solid enough to use
 * (heuristic) or still early (umbra). Corroboration and stats raise it later (issue 7).
 */
const APPROVED_CONFIDENCE = { heuristic: 0.7, umbra: 0.4 } as const;

/**
 * The tags a draft writes: `tags` without those an editor removed (and their near-duplicates),
 * plus those added, one per meaning (docs/tags.md), at most 32.
 */
function applyTagEdits(
  normal: TTagNormalizer,
  tags: readonly string[],
  overrides: TEditorialOverrides | undefined,
): string[] {
  const removed = overrides?.tags_remove ?? [];
  const kept = tags.filter((t) => !removed.some((r) => normal.same(t, r)));
  return normal.normalize([...kept, ...(overrides?.tags_add ?? [])]).slice(0, 32);
}

/**
 * The CFB an approved proposal becomes, with a Jam editor's overrides applied when given: the
 * proposed summary and text (without a proposed summary, the fact its change note records). The
 * person approved it, so its trust tier says so.
 */
export function draftFromProposal(
  tags: TTagNormalizer,
  proposal: TStoredProposal,
  overrides?: TEditorialOverrides,
): TCfbDraft {
  const p = proposal.proposed_cfb;
  const kind = overrides?.kind ?? (proposal.confidence >= HEURISTIC_MIN_CONFIDENCE ? "heuristic" : "umbra");
  return parseInput(ZCfbDraft, {
    domain: overrides?.domain ?? p.domain,
    kind,
    confidence: overrides?.confidence ?? APPROVED_CONFIDENCE[kind === "authoritative" ? "heuristic" : kind],
    title: overrides?.title_edit ?? p.title,
    summary: overrides?.summary_edit ?? p.summary ?? factOf(proposal.delta_summary),
    text: overrides?.text_edit ?? p.text,
    tags: applyTagEdits(tags, p.tags, overrides),
    entities: p.entities,
    trust_tier: "user_approved",
    source_refs: [`thread:${proposal.thread_id}#response:${proposal.response_id}`, `proposal:${proposal.proposal_id}`],
  });
}

/** Entities and sources: the first spelling of each, case aside. */
const union = (a: readonly string[], b: readonly string[]) => {
  const seen = new Set(a.map((x) => x.toLowerCase()));
  return [...a, ...b.filter((x) => !seen.has(x.toLowerCase()) && seen.add(x.toLowerCase()))];
};

/**
 * The content an approved update writes (docs/api.md#proposed-content): the proposed summary, else
 * the target's; the proposed text added to the target's full text. A proposal without content of
 * its own keeps the summary and adds the fact its change note records to the full text, so the
 * note itself ("Add decision: …") never lands. A target without full text starts one from its
 * summary.
 */
function updatedContent(target: TCfb, proposal: TStoredProposal): Pick<TCfbDraft, "summary" | "text"> {
  const p = proposal.proposed_cfb;
  const addition = p.text ?? (p.summary === null ? factOf(proposal.delta_summary) : null);
  return {
    summary: p.summary ?? target.summary,
    text: addition === null ? target.text : withParagraph(target.text ?? target.summary, addition),
  };
}

/**
 * The CFB an approved update becomes: the target as it is, with the proposal's content
 * (updatedContent), the union of tags, entities and sources (a merged CFB's too), and the
 * editor's overrides on top. The title stays the target's unless the editor changes it. Approving
 * never lowers what the CFBs it changes were: the highest trust tier (at least user_approved: a
 * person approved it), the strongest kind and the highest confidence of the target and a merged CFB.
 */
function updateDraft(
  normal: TTagNormalizer,
  target: TCfb,
  proposal: TStoredProposal,
  overrides: TEditorialOverrides | undefined,
  merged: TCfb | null,
): TCfbDraft {
  const p = proposal.proposed_cfb;
  const content = updatedContent(target, proposal);
  return parseInput(ZCfbDraft, {
    domain: overrides?.domain ?? target.domain,
    kind: overrides?.kind ?? strongestKind(target.kind, ...(merged ? [merged.kind] : [])),
    confidence: overrides?.confidence ?? Math.max(target.confidence, merged?.confidence ?? 0),
    title: overrides?.title_edit ?? target.title,
    summary: overrides?.summary_edit ?? content.summary,
    text: overrides?.text_edit ?? content.text,
    tags: applyTagEdits(normal, [...target.tags, ...(merged?.tags ?? []), ...p.tags], overrides),
    entities: union(union(target.entities, merged?.entities ?? []), p.entities).slice(0, 32),
    trust_tier: approvedTrustTier(target.trust_tier, ...(merged ? [merged.trust_tier] : [])),
    source_refs: union(union(target.source_refs, merged?.source_refs ?? []), [
      `thread:${proposal.thread_id}#response:${proposal.response_id}`,
      `proposal:${proposal.proposal_id}`,
      ...(merged ? [`merged:${merged.cfb_id}`] : []),
    ]).slice(0, 32),
  });
}

/**
 * The survivor of a Jam editor's merge (cfbs.merge), as a promotion's merge folds one CFB into
 * another: the survivor's content as it is, the stronger kind and trust tier of the two (a merge
 * never lowers either), the union of both CFBs' tags (one per meaning), entities and sources, and
 * a `merged:` source naming the CFB folded in.
 */
export function mergeDraft(normal: TTagNormalizer, survivor: TCfb, merged: TCfb): TCfbDraft {
  return parseInput(ZCfbDraft, {
    domain: survivor.domain,
    kind: strongestKind(survivor.kind, merged.kind),
    confidence: survivor.confidence,
    title: survivor.title,
    summary: survivor.summary,
    text: survivor.text,
    tags: normal.normalize([...survivor.tags, ...merged.tags]).slice(0, 32),
    entities: union(survivor.entities, merged.entities).slice(0, 32),
    trust_tier: highestTrustTier(survivor.trust_tier, merged.trust_tier),
    source_refs: union(union(survivor.source_refs, merged.source_refs), [`merged:${merged.cfb_id}`]).slice(0, 32),
  });
}

/** What approving a proposal as an update would write: its target now, and the draft after. */
export type TUpdatePlan = { target: TCfbDetail; merged: TCfbDetail | null; draft: TCfbDraft };

/** The update's draft on its target (the preview and the promotion both write it this way). */
export function planOf(
  tags: TTagNormalizer,
  found: TUpdateTarget<TCfbDetail>,
  proposal: TStoredProposal,
  overrides: TEditorialOverrides | undefined,
): TUpdatePlan {
  return { ...found, draft: updateDraft(tags, found.target, proposal, overrides, found.merged) };
}

/**
 * Where an update of `proposal` lands per `resolved`, read from the CFBs as they are now: among
 * the shared CFBs and those private to the proposal's thread's owner (another user's private CFB
 * is no target, even when named).
 */
export async function updateTargetOf(deps: TServiceDeps, proposal: TStoredProposal, resolved: TResolvedTarget) {
  const scope = visibleTo(await proposalOwner(deps, proposal));
  return findUpdateTarget((id) => deps.repos.cfbs.get(id, scope), proposal, resolved);
}

/** Resolve again at review or promotion: CFBs may have been created, edited, merged or endorsed since. */
export async function resolveAgain(deps: TServiceDeps, proposal: TStoredProposal) {
  return resolveProposal(
    deps,
    {
      op: proposal.op,
      targetCfbId: proposal.target_cfb_id,
      deltaSummary: proposal.delta_summary,
      proposedCfb: proposal.proposed_cfb,
      fingerprint: proposal.fingerprint,
    },
    await proposalOwner(deps, proposal),
  );
}

/**
 * A CFB approved after `proposal` was made that resolve, taken again, places it in the update (or
 * merge) band of, naming the same numbers and names: approving the proposal as new would write
 * that knowledge a second time ("region 1 runs on its own cluster" is not "region 0 …" again).
 */
async function newerRestatementOf(
  proposal: Pick<TStoredProposal, "proposal_id" | "created_ts" | "proposed_cfb" | "delta_summary">,
  outcome: TResolveOutcome,
  found: TUpdateTarget<TCfbDetail> | null,
): Promise<TNewerRestatement | null> {
  if ((outcome.decision !== "update" && outcome.decision !== "merge") || !found) return null;
  const { target } = found;
  // The CFB this very proposal became (a concurrent approval landed after this one read the
  // proposal as pending) restates nothing: the write's status flip answers "already approved".
  if (target.source_refs.includes(`proposal:${proposal.proposal_id}`)) return null;
  if (Date.parse(target.created_ts) <= Date.parse(proposal.created_ts)) return null;
  const said = textProfile(proposal.proposed_cfb.title, proposal.delta_summary);
  if (!sameSpecifics(said, textProfile(target.title, target.summary))) return null;
  const score = outcome.scores.find((s) => s.cfb_id === outcome.target_cfb_id)?.score ?? outcome.scores[0]?.score ?? 0;
  return { cfb_id: target.cfb_id, created_ts: target.created_ts, score };
}

/** The checks' lookups for a proposal as a promotion now decides it: resolve again (once), then the target. */
export function currentLookups(deps: TServiceDeps, proposal: TStoredProposal) {
  const resolving = once(() => resolveAgain(deps, proposal));
  const updateTarget = once(async () => updateTargetOf(deps, proposal, (await resolving()).outcome));
  const newerRestatement = once(async () =>
    newerRestatementOf(proposal, (await resolving()).outcome, await updateTarget()),
  );
  return { resolving, updateTarget, newerRestatement };
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

export async function promoteProposal(ctx: TServiceContext, input: TPromoteRequest): Promise<TPromoteResponse> {
  const { deps, caller } = ctx;
  const proposal = await visibleProposal(ctx, input.proposal_id);
  const moved = input.editorial_overrides?.domain;
  const domains = [deps.routing.config.fallback_domain, ...deps.routing.config.domains.map((d) => d.id)];
  if (moved !== undefined && moved !== proposal.proposed_cfb.domain && !domains.includes(moved))
    throw new DomainError(
      "BAD_INPUT",
      `editorial_overrides.domain: "${moved}" is not a domain of the routing config (${[...new Set(domains)].join(", ")})`,
      { field: "editorial_overrides.domain" },
    );
  // "Already known": the rejection names the CFB that says it; nothing is written to the CFB.
  let reason = input.reason ?? null;
  if (input.known_cfb_id !== undefined) {
    const known = await deps.repos.cfbs.get(input.known_cfb_id, visibleTo(await proposalOwner(deps, proposal)));
    if (!known || known.retired_ts !== null)
      throw new DomainError("BAD_INPUT", `known_cfb_id: ${input.known_cfb_id} is not a live CFB the proposer can see`, {
        field: "known_cfb_id",
      });
    reason = `Already known: ${known.cfb_id} “${known.title}”${reason ? `. ${reason}` : ""}`;
  }
  // Resolve runs once, and only for a request the checks before it let through.
  const { resolving, updateTarget, newerRestatement } = currentLookups(deps, proposal);
  const verdict = await judgePromotion({ proposal, editor: caller.role, updateTarget, newerRestatement }, input);
  if (!verdict.ok) throw verdict.error;
  const trace = createTraceLog(deps.now);
  trace.add("promotion", `Promotion requested: ${input.action} ${proposal.proposal_id}`, { editor: caller.role });
  const resolved = await resolving();
  trace.add("resolve", `Resolve at promotion: ${resolved.outcome.decision}`, {
    decision: resolved.outcome.decision,
    target_cfb_id: resolved.outcome.target_cfb_id,
    top_score: resolved.outcome.scores[0]?.score ?? null,
    reason_codes: resolved.outcome.reason_codes,
    disagreement: resolved.disagreement,
  });
  let cfbDraft: TCfbDraft | null = null;
  let cfbUpdate: { cfbId: string; expectedVersion: number; draft: TCfbDraft; mergedId: string | null } | null = null;
  if (verdict.update) {
    const plan = planOf(deps.tags, verdict.update, proposal, input.editorial_overrides);
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
    cfbDraft = draftFromProposal(deps.tags, proposal, input.editorial_overrides);
  }
  // A user's own approval is their knowledge until a Jam editor endorses it; a Jam editor's
  // approval is shared at once (issue 19). An update keeps its target's visibility.
  const privateTo = caller.role === "jam" ? null : { userId: caller.userId, email: caller.email };
  const result = await deps.repos.proposals.applyPromotion({
    resolve: { ...resolved, fingerprint: proposal.fingerprint },
    proposalId: proposal.proposal_id,
    action: input.action,
    editor: caller.role,
    audit: auditActor(caller),
    cfbDraft,
    cfbPrivateTo: cfbDraft ? privateTo : null,
    cfbUpdate,
    overrides: input.editorial_overrides ?? null,
    reason,
    trace: trace.events,
  });
  if (result.cfb) deps.semantic?.afterWrite();
  if (moved && result.cfb) {
    const source = await deps.repos.turns.responseSource(proposal.response_id);
    if (source)
      await learnProposalDomain(
        deps,
        caller,
        { proposal_id: proposal.proposal_id, domain: proposal.proposed_cfb.domain },
        moved,
        source.user_message,
      );
  }
  return {
    promotion_id: result.promotionId,
    proposal_id: proposal.proposal_id,
    action: input.action,
    status: input.action === "reject" ? "rejected" : "approved",
    final_cfb_id: result.cfb?.cfb_id ?? null,
    cfb: result.cfb,
    merged_cfb_id: result.mergedCfbId,
    decided_by: caller.email,
    decided_ts: result.decidedTs,
    folded_proposal_ids: result.folded,
  };
}
