import type { TProposalActions, TProposalPreview, TStoredProposal, TStoredProposalPreview } from "@solserver/contracts";
import type { TCfbHead } from "@solserver/db";
import { once } from "../once";
import type { TResolveFacts } from "../proposals/held";
import {
  findUpdateTarget,
  proposalActions,
  type TJudgedProposal,
  type TResolvedTarget,
} from "../proposals/promotion-check";
import type { TServiceContext } from "./context";
import { currentLookups } from "./promote";

// The allowed actions each proposal carries (ZProposalActions), worked out per caller by
// promotion-check.ts, the checks promote itself runs. One proposal on its own page is decided as
// a promotion now would decide it; a page of the queue from resolve's stored decisions, so that
// listing 25 proposals costs one statement for their targets instead of 25 resolves.

/** A proposal without a stored decision is taken as resolve's "create": only its own target counts. */
const NO_DECISION: TResolvedTarget = { decision: "create", target_cfb_id: null, merge_cfb_ids: [] };

/**
 * The actions as a promotion now would decide them: resolve runs again, once, and only for a
 * pending proposal an action may update or approve as new. `lookups` are the caller's own, when
 * it needs the target too (the proposal page's preview).
 */
export async function currentActions(
  { deps, caller }: TServiceContext,
  proposal: TStoredProposal,
  lookups: Pick<ReturnType<typeof currentLookups>, "resolving" | "updateTarget" | "newerRestatement"> = currentLookups(
    deps,
    proposal,
  ),
): Promise<TProposalActions> {
  // Resolve runs only for a pending proposal (the held reasons of a decided one are moot).
  const resolved = proposal.status === "pending" ? (await lookups.resolving()).outcome : null;
  return proposalActions({ proposal, editor: caller.role, ...lookups, resolved }, "current");
}

/**
 * The actions of many proposals from their stored resolve decisions. The CFBs they could update
 * are read in one statement; a merged one's survivor when it comes up.
 */
export async function storedActions<P extends TJudgedProposal & { resolve: (TResolvedTarget & TResolveFacts) | null }>(
  { deps, caller }: TServiceContext,
  proposals: readonly P[],
): Promise<(P & { actions: TProposalActions })[]> {
  const heads = new Map<string, TCfbHead | null>();
  const load = async (ids: readonly string[]) => {
    const found = await deps.repos.cfbs.heads(ids);
    for (const id of ids) heads.set(id, found.get(id) ?? null);
  };
  await load(
    proposals.flatMap((p) =>
      p.status === "pending"
        ? [p.target_cfb_id, p.resolve?.target_cfb_id, ...(p.resolve?.merge_cfb_ids ?? [])].filter(
            (id): id is string => typeof id === "string",
          )
        : [],
    ),
  );
  const head = async (id: string) => {
    if (!heads.has(id)) await load([id]);
    return heads.get(id) ?? null;
  };
  return Promise.all(
    proposals.map(async (proposal) => {
      const updateTarget = once(() => findUpdateTarget(head, proposal, proposal.resolve ?? NO_DECISION));
      const actions = await proposalActions(
        { proposal, editor: caller.role, updateTarget, resolved: proposal.resolve },
        "stored",
      );
      return { ...proposal, actions };
    }),
  );
}

/**
 * A chat answer's previews with their actions: one statement for the response's proposals with
 * their stored decisions (none for an answer that proposed nothing), one more for their targets.
 */
export async function previewsWithActions(
  ctx: TServiceContext,
  responseId: string,
  previews: readonly TStoredProposalPreview[],
): Promise<TProposalPreview[]> {
  if (previews.length === 0) return [];
  const facts = await ctx.deps.repos.proposals.facts(responseId);
  const byId = new Map((await storedActions(ctx, facts)).map((p) => [p.proposal_id, p.actions]));
  return previews.map((p) => {
    const actions = byId.get(p.proposal_id);
    if (!actions) throw new Error(`proposal ${p.proposal_id} of ${responseId} was not found with its response`);
    return { ...p, actions };
  });
}
