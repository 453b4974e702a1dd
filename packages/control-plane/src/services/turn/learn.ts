import type { TOutputMeta, TThreadMemento } from "@solserver/contracts";
import { type TNewProposal, type TRepetitionHit, visibleTo } from "@solserver/db";
import { routeTurn } from "@solserver/engine";
import { deriveProposals } from "../../proposals/derive";
import { findTwins } from "../../proposals/twins";
import type { TServiceContext } from "../context";
import type { TServiceDeps } from "../deps";
import { resolveProposal, turnRepetitions } from "../resolve";
import type { TAdmitted } from "./admit";
import type { TAnswer } from "./answer";
import type { TGathered } from "./gather";
import { mementoAfterTurn } from "./memento";
import type { TPlan } from "./plan";
import { domainMismatch } from "./route";
import { since } from "./timing";

// Step 5, learn: what the delivered answer teaches. Its cfb_suggestions become proposals, each
// resolved against the knowledge base (seed 001 §6); the CFBs it used or ignored are counted (only
// CFBs that exist and were injected), with the repetitions that may raise promotion triggers
// (§5.2: not for acknowledgements); its domainHints against the route; and the memento after the
// turn (seed 000 step 8: the summary only when the turn may change it, the affect of the user's
// message always).

type TUsage = { used: string[]; ignored: string[]; injected: string[]; hadUnknown: boolean };

export type TLearned = {
  readonly proposals: readonly TNewProposal[];
  readonly usage: TUsage;
  readonly repetitions: readonly TRepetitionHit[] | null;
  /** The memento this turn leaves, applied to a baseline (the planned one, or a fresher one on retry). */
  readonly mementoFrom: (baseline: TThreadMemento) => TThreadMemento;
};

export async function learn(
  { deps }: TServiceContext,
  turn: TAdmitted,
  plan: TPlan,
  gathered: TGathered,
  answered: TAnswer,
): Promise<TLearned> {
  const { input, trace } = turn;
  const { route } = plan.selection;
  const meta = answered.envelope.meta;
  // Another user's private CFB does not exist here: a suggestion naming it is target_cfb_missing.
  const existing = await deps.repos.cfbs.existingIds(
    [
      ...meta.cfb_suggestions.flatMap((s) => (s.target_cfb_id ? [s.target_cfb_id] : [])),
      ...meta.used_cfb_ids,
      ...meta.ignored_cfb_ids,
    ],
    visibleTo(turn.ownerId),
  );
  // A proposal is filed under its own topic: a trailer sentence and a control-plane sentence in
  // one message land in two domains. Routed like a message of this thread (what says nothing
  // clearly of another domain stays in the turn's); a procedure thread's stay in its domain.
  const router = await deps.routing.current();
  const domainOf = (text: string) =>
    route.reason === "procedure"
      ? route.domain
      : routeTurn(router, { message: text, previousDomain: route.domain, hintHistory: [], procedureSystem: null })
          .domain;
  const proposals = await resolved(deps, turn, plan.skip ? [] : deriveProposals(meta, existing, domainOf), plan.skip);

  const usage: TUsage = plan.skip
    ? { used: [], ignored: [], injected: [], hadUnknown: false }
    : {
        ...usageOf(meta, (id) => existing.has(id) && gathered.injected.has(id)),
        injected: [...gathered.injected],
        hadUnknown: meta.unknowns.length > 0,
      };

  // The answer's domainHints against the route: repeated mismatches suggest a routing rule.
  const mismatch = domainMismatch(route, meta, input.message);
  if (mismatch)
    trace.add("selector", `Domain mismatch: ${mismatch.label}`, { router_domain: route.domain, hinted: mismatch.key });
  // Stale CFBs that asked for review on use, and were used (seed 001 §9.5).
  const staleUsed = gathered.ranked
    .filter((r) => r.cfb.signals?.stale && r.cfb.signals.reviewOnUse && usage.used.includes(r.cfb.cfb_id))
    .map((r) => r.cfb.cfb_id);
  const repetitions = plan.skip
    ? null
    : [
        ...turnRepetitions({
          routerDomain: route.domain,
          meta,
          usage,
          titles: new Map(gathered.ranked.map((r) => [r.cfb.cfb_id, r.cfb.title] as const)),
          proposals,
          staleUsed,
        }),
        ...(mismatch ? [mismatch] : []),
      ];

  const mementoFrom = (baseline: TThreadMemento) =>
    mementoAfterTurn({
      baseline,
      proposed: answered.output.summary,
      mayUpdateSummary: plan.mayUpdateSummary,
      userMessageId: turn.userMessageId,
      userMessage: input.message,
      now: deps.now(),
    });
  const memento = mementoFrom(plan.baseline.memento);
  trace.add(
    "memento",
    plan.mayUpdateSummary
      ? "Summary updated"
      : plan.peakGuardrailActive
        ? "Summary frozen at peak"
        : "Summary unchanged (skip)",
    {
      summary_updated: plan.mayUpdateSummary && Boolean(answered.output.summary),
      peakGuardrailActive: plan.peakGuardrailActive,
      affect: memento.affect.rollup,
      base_version: plan.baseline.storedVersion,
    },
  );
  return { proposals, usage, repetitions, mementoFrom };
}

/** The derived proposals with resolve's decision on each (and their trace events). */
async function resolved(
  deps: TServiceDeps,
  turn: TAdmitted,
  derived: readonly TNewProposal[],
  skip: boolean,
): Promise<TNewProposal[]> {
  const { trace } = turn;
  trace.add(
    "proposals",
    skip ? "Skipped: acknowledgement turn" : `Derived ${derived.length} proposal(s)`,
    { warnings: derived.flatMap((p) => p.warnings.map((w) => `${p.suggestionIndex}:${w}`)) },
    skip ? "skipped" : "completed",
  );
  const started = performance.now();
  const proposals: TNewProposal[] = [];
  for (const p of derived) proposals.push({ ...p, resolve: await resolveProposal(deps, p, turn.ownerId) });
  // Twins: the same suggestion again (in this turn, or pending from an earlier one) joins its group.
  if (proposals.length > 0) {
    const candidates = await deps.repos.proposals.twinCandidates({
      ownerId: turn.ownerId,
      threadId: turn.threadId,
      fingerprints: proposals.map((p) => p.fingerprint),
    });
    findTwins(proposals, candidates).forEach((twinOf, i) => {
      (proposals[i] as TNewProposal).twinOf = twinOf;
    });
    const grouped = proposals.flatMap((p) =>
      p.twinOf
        ? [
            {
              suggestion: p.suggestionIndex,
              twin_of:
                "proposalId" in p.twinOf
                  ? p.twinOf.proposalId
                  : `suggestion ${derived[p.twinOf.index]?.suggestionIndex}`,
            },
          ]
        : [],
    );
    if (grouped.length > 0)
      trace.add("proposals", `Grouped ${grouped.length} twin(s) under pending proposals`, { twins: grouped });
  }
  trace.add(
    "resolve",
    proposals.length === 0 ? "Nothing to resolve" : `Resolved ${proposals.length} proposal(s)`,
    {
      decisions: proposals.map((p) => ({
        suggestion: p.suggestionIndex,
        decision: p.resolve?.outcome.decision,
        target_cfb_id: p.resolve?.outcome.target_cfb_id ?? null,
        top_score: p.resolve?.outcome.scores[0]?.score ?? null,
        reason_codes: p.resolve?.outcome.reason_codes,
        disagreement: p.resolve?.disagreement ?? null,
      })),
      duration_ms: since(started),
    },
    proposals.length === 0 ? "skipped" : "completed",
  );
  return proposals;
}

/**
 * Usage events for a turn: each CFB at most once, "used" winning over "ignored" when the model
 * lists it in both, and only CFBs that `counts` (exist and were injected).
 */
function usageOf(meta: TOutputMeta, counts: (cfbId: string) => boolean): { used: string[]; ignored: string[] } {
  const used = [...new Set(meta.used_cfb_ids)].filter(counts);
  const ignored = [...new Set(meta.ignored_cfb_ids)].filter((id) => counts(id) && !used.includes(id));
  return { used, ignored };
}
