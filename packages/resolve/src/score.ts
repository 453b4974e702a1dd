// Composite score (seed 001 §6.2): 0.50·bm25_norm + 0.25·tag_overlap + 0.20·entity_overlap
// + 0.05·title_similarity, every component in [0, 1] so the score is too.
import type { TResolveCandidate, TResolveProposal, TScoredCandidate } from "@solserver/contracts";
import { entityOverlap, tagOverlap, titleSimilarity } from "./overlap";

export const WEIGHTS = { bm25: 0.5, tag: 0.25, entity: 0.2, title: 0.05 } as const;

/** Scores are kept to 4 decimals: the bands are written to 4 decimals, and rounding once here
 * means a float sum like 0.7500000000000001 cannot cross a band edge it does not really cross. */
const SCALE = 10_000;

/** Math.round(x · 10⁴) / 10⁴ (half away from zero for the non-negative scores used here). */
export function round4(x: number): number {
  return Math.round(x * SCALE) / SCALE;
}

/** A score in integer ten-thousandths, the unit decide() compares in; not-a-number counts as 0. */
export function scoreUnits(score: number): number {
  return Number.isFinite(score) ? Math.round(score * SCALE) : score === Number.POSITIVE_INFINITY ? SCALE : 0;
}

/**
 * bm25 relative to the query's reference (a CFB of average length holding every query term once,
 * see docs/resolve.md): min(1, max(0, bm25 / reference)). 0 when the reference is not a positive
 * finite number (no usable query) or bm25 is not a number.
 */
export function bm25Norm(bm25: number, reference: number): number {
  if (!Number.isFinite(reference) || reference <= 0 || Number.isNaN(bm25)) return 0;
  return Math.min(1, Math.max(0, bm25 / reference));
}

/**
 * Best first: score (in ten-thousandths) descending, then cfb_id ascending, then the raw score and
 * components descending. A total order on everything a scored candidate holds, so sorting gives
 * the same list whatever order the candidates came in.
 */
export function compareScored(a: TScoredCandidate, b: TScoredCandidate): number {
  return (
    scoreUnits(b.score) - scoreUnits(a.score) ||
    (a.cfb_id < b.cfb_id ? -1 : a.cfb_id > b.cfb_id ? 1 : 0) ||
    desc(a.score, b.score) ||
    desc(a.components.bm25_norm, b.components.bm25_norm) ||
    desc(a.components.tag_overlap, b.components.tag_overlap) ||
    desc(a.components.entity_overlap, b.components.entity_overlap) ||
    desc(a.components.title_similarity, b.components.title_similarity)
  );
}

function desc(a: number, b: number): number {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return 0;
  return b > a || Number.isNaN(a) ? 1 : -1; // NaN last
}

/**
 * Every candidate scored against the proposal, best first (see compareScored). A CFB the search
 * returned twice counts once, with its best score. Components are kept unrounded; the score is
 * their weighted sum rounded to 4 decimals.
 */
export function scoreCandidates(p: TResolveProposal, candidates: readonly TResolveCandidate[]): TScoredCandidate[] {
  const scored = candidates.map((c): TScoredCandidate => {
    const components = {
      bm25_norm: bm25Norm(c.bm25, c.bm25_reference),
      tag_overlap: tagOverlap(p.tags, c.tags),
      entity_overlap: entityOverlap(p.entities, c.entities),
      title_similarity: titleSimilarity(p.title, c.title),
    };
    const sum =
      WEIGHTS.bm25 * components.bm25_norm +
      WEIGHTS.tag * components.tag_overlap +
      WEIGHTS.entity * components.entity_overlap +
      WEIGHTS.title * components.title_similarity;
    return { cfb_id: c.cfb_id, score: Math.min(1, round4(sum)), components };
  });
  const seen = new Set<string>();
  return scored.sort(compareScored).filter((s) => {
    if (seen.has(s.cfb_id)) return false; // sorted best first: the first one seen is the best
    seen.add(s.cfb_id);
    return true;
  });
}
