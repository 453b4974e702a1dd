// Resolve's candidates for a proposal: the candidate index's CFBs sharing the most terms with it,
// fused with its nearest neighbours by embedding when semantic matching is on, each carrying its
// cosine similarity for the score's text component. One function for the turn, promotion and the
// evaluation, so what is measured is what runs. Every side is asked in one user's scope (issue
// 19): the shared CFBs and those private to the proposal's thread's owner, never another user's.
import type { TCandidateQuery, TResolveCandidate, TResolveProposal } from "@solserver/contracts";
import type { TVisibleTo } from "@solserver/db";
import { buildCandidateQuery } from "@solserver/resolve";
import { reciprocalRankFusion, type TSemanticSearch } from "./semantic";

export type TResolveKnowledge = {
  candidates(query: TCandidateQuery, opts?: { limit?: number } & TVisibleTo): Promise<TResolveCandidate[]>;
  candidatesByIds?(ids: readonly string[], opts?: TVisibleTo): Promise<TResolveCandidate[]>;
  semantic?: TSemanticSearch | undefined;
};

/** The text a proposal is embedded as (a CFB is embedded as its title and summary the same way). */
export function proposalText(p: Pick<TResolveProposal, "title" | "delta_summary">): string {
  return `${p.title}\n${p.delta_summary}`;
}

/** The candidates among the shared CFBs and those private to `visibleTo` (null: shared only). */
export async function resolveCandidates(
  k: TResolveKnowledge,
  p: TResolveProposal,
  limit: number,
  visibleTo: string | null = null,
): Promise<TResolveCandidate[]> {
  const query = buildCandidateQuery(p);
  const scope = { visibleTo };
  if (!k.semantic || !k.candidatesByIds) return k.candidates(query, { limit, ...scope });
  // Each side offers twice the final number; the fused best `limit` are scored.
  const [lexical, vector] = await Promise.all([
    k.candidates(query, { limit: limit * 2, ...scope }),
    k.semantic.embed(proposalText(p)),
  ]);
  const nearest = await k.semantic.nearest(vector, limit * 2, scope);
  const ids = reciprocalRankFusion([lexical.map((c) => c.cfb_id), nearest.map((n) => n.cfb_id)], limit);
  const known = new Map(lexical.map((c) => [c.cfb_id, c] as const));
  const missing = ids.filter((id) => !known.has(id));
  for (const c of await k.candidatesByIds(missing, scope)) known.set(c.cfb_id, c);
  const similarity = await k.semantic.similarities(vector, ids);
  return ids.flatMap((id) => {
    const c = known.get(id);
    return c ? [{ ...c, semantic_similarity: similarity.get(id) ?? null }] : [];
  });
}
