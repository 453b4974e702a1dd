// Small builders shared by the tests.
import type { TResolveCandidate, TResolveProposal, TScoredCandidate } from "@solserver/contracts";

export function proposal(over: Partial<TResolveProposal> = {}): TResolveProposal {
  return {
    title: "Reset a Postgres password",
    delta_summary: "Use ALTER ROLE to reset the password, then restart the API.",
    tags: ["db", "ops"],
    entities: ["PostgreSQL"],
    domain: "ops",
    ...over,
  };
}

export function candidate(cfb_id: string, over: Partial<TResolveCandidate> = {}): TResolveCandidate {
  return {
    cfb_id,
    title: "Postgres password reset",
    summary: "How to reset a password.",
    tags: ["db", "ops"],
    entities: ["PostgreSQL"],
    bm25: 4,
    bm25_reference: 8,
    ...over,
  };
}

/** A scored candidate with a given score; components are not read by the band rules. */
export function scored(
  cfb_id: string,
  score: number,
  over: Partial<TScoredCandidate["components"]> = {},
): TScoredCandidate {
  return {
    cfb_id,
    score,
    components: { bm25_norm: 0.5, tag_overlap: 0, entity_overlap: 0, title_similarity: 0, ...over },
  };
}
