import {
  type TOutputMeta,
  type TRepetitionKind,
  type TResolveCandidate,
  type TResolveDecisionKind,
  type TResolveProposal,
  trimEndWhile,
} from "@solserver/contracts";
import type { TNewProposal, TRepetitionHit } from "@solserver/db";
import { disagreement, normalizeText, resolveOutcome, type TSemanticScale } from "@solserver/resolve";
import { resolveCandidates } from "../knowledge/resolve-candidates";
import type { TServiceDeps } from "./deps";
import { activeRule } from "./resolve-rule";

const CANDIDATES = 20;

/** What resolve reads of a stored or new proposal. */
export type TResolvable = Pick<TNewProposal, "op" | "targetCfbId" | "deltaSummary" | "proposedCfb" | "fingerprint">;

export function asResolveProposal(p: TResolvable): TResolveProposal {
  return {
    title: p.proposedCfb.title,
    delta_summary: p.deltaSummary,
    tags: p.proposedCfb.tags,
    entities: p.proposedCfb.entities,
    domain: p.proposedCfb.domain,
    op: p.op,
    target_cfb_id: p.targetCfbId,
  };
}

/**
 * Umbra resolve for one proposal (seed 001 §6): the candidate index's CFBs sharing the most terms
 * with it, the composite score, the bands against the previous decision for the same fingerprint (the +0.05
 * hysteresis), and how the decision compares with what the model itself proposed. The
 * candidates are the shared CFBs and those private to `owner`, the proposal's thread's owner
 * (issue 19): a proposal never resolves against another user's private knowledge.
 */
export async function resolveProposal(
  deps: TServiceDeps,
  p: TResolvable,
  owner: string | null,
): Promise<NonNullable<TNewProposal["resolve"]>> {
  const proposal = asResolveProposal(p);
  const { candidates, semanticScale } = await resolveCandidatesOf(deps, proposal, owner);
  const previous = await deps.repos.resolve.previous(p.fingerprint);
  // The rule a Jam editor refitted on this knowledge base's reviewers, else the shipped one.
  const rule = await activeRule(deps);
  const outcome = resolveOutcome(
    proposal,
    candidates,
    previous ? { decision: previous.decision as TResolveDecisionKind } : null,
    { semanticScale, rule },
  );
  return {
    outcome,
    modelOp: p.op,
    modelTargetCfbId: p.targetCfbId,
    disagreement: disagreement(outcome, proposal),
  };
}

/**
 * The proposal's candidates: lexical, fused with its nearest neighbours when semantic matching is
 * on. An embeddings server that fails mid-request costs the semantic half of this one decision,
 * never the decision: it is then taken on the lexical candidates (and says so in the log).
 */
async function resolveCandidatesOf(
  deps: TServiceDeps,
  proposal: TResolveProposal,
  owner: string | null,
): Promise<{ candidates: TResolveCandidate[]; semanticScale?: TSemanticScale }> {
  const lexical = { candidates: deps.repos.cfbs.candidates, candidatesByIds: deps.repos.cfbs.index.candidatesByIds };
  const semantic = await deps.semantic?.get();
  if (semantic) {
    try {
      const candidates = await resolveCandidates(
        { ...lexical, semantic: semantic.search },
        proposal,
        CANDIDATES,
        owner,
      );
      return { candidates, semanticScale: semantic.search.scale() };
    } catch (error) {
      console.warn(`resolve: semantic candidates failed, lexical only: ${(error as Error).message}`);
    }
  }
  return { candidates: await resolveCandidates(lexical, proposal, CANDIDATES, owner) };
}

/** Seed 001 §5.2's repetition thresholds: how many times before a promotion trigger is raised. */
export const DEFAULT_REPETITION_THRESHOLDS: Record<TRepetitionKind, number> = {
  missing_query: 3,
  proposal_fingerprint: 3,
  feedback_tag: 3,
  unknown_type: 5,
  cfb_ignored: 5,
  cfb_used: 10,
  // A stale CFB with review_on_use is flagged the first time it is used.
  cfb_stale: 1,
  // Answers that keep naming another domain than the route: a routing rule to tune.
  domain_mismatch: 3,
};

/**
 * The type of an unknown (seed 001 §5.2's "derived classifier"), deterministic: one the user
 * must answer, a question the knowledge base could not answer, or anything else the model
 * could not resolve.
 */
function unknownType(u: TOutputMeta["unknowns"][number]): string {
  if (u.needs_user_input) return "needs_user_input";
  if (/\?\s*$/.test(u.text) || /^no knowledge block answers/i.test(u.text)) return "unanswered_question";
  return "unresolved";
}

/** A missing-knowledge query as a counter key: normalised text without trailing punctuation. */
function missingQueryKey(query: string): string {
  return trimEndWhile(normalizeText(query), (c) => /[\s?.!]/u.test(c));
}

/** Everything a turn repeated: CFB usage, coverage gaps, proposal fingerprints. */
export function turnRepetitions(args: {
  routerDomain: string;
  meta: TOutputMeta;
  usage: { used: string[]; ignored: string[] };
  titles: ReadonlyMap<string, string>;
  proposals: readonly TNewProposal[];
  /** Used CFBs past their TTL whose review_on_use asks for a review. */
  staleUsed?: readonly string[];
}): TRepetitionHit[] {
  const { routerDomain, meta } = args;
  const cfbLabel = (id: string) => (args.titles.has(id) ? `${id} "${args.titles.get(id)}"` : id);
  return [
    ...args.usage.used.map((id) => ({ kind: "cfb_used" as const, routerDomain, key: id, label: cfbLabel(id) })),
    ...args.usage.ignored.map((id) => ({ kind: "cfb_ignored" as const, routerDomain, key: id, label: cfbLabel(id) })),
    ...meta.missing_cfb_queries
      .map((q) => ({ q, key: missingQueryKey(q) }))
      .filter(({ key }) => key.length > 0)
      .map(({ q, key }) => ({ kind: "missing_query" as const, routerDomain, key, label: q.trim() })),
    ...meta.unknowns.map((u) => {
      const type = unknownType(u);
      return { kind: "unknown_type" as const, routerDomain, key: type, label: type };
    }),
    ...(args.staleUsed ?? []).map((id) => ({ kind: "cfb_stale" as const, routerDomain, key: id, label: cfbLabel(id) })),
    ...args.proposals.map((p) => ({
      kind: "proposal_fingerprint" as const,
      routerDomain,
      key: p.fingerprint,
      label: p.title,
    })),
  ];
}
