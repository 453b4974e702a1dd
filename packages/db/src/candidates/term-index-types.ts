// The shapes a TermIndex takes and gives (term-index.ts): the documents it holds, a search's
// weighted terms and options, and its hits.

/**
 * A document's terms; `strong` are those of its title and labels (a subset of `terms` or not: they
 * are indexed either way), which a search may weigh more (TSearchOptions.strongBoost). `owner`:
 * the user a private document belongs to (null or absent: shared), see TSearchOptions.visibleTo.
 */
export type TIndexedDoc = {
  id: string;
  domain: string;
  terms: Iterable<string>;
  strong?: Iterable<string>;
  owner?: string | null;
};
export type TWeightedTerm = { term: string; weight: number };
export type TIndexHit = { id: string; domain: string; score: number; shared: number };
export type TSearchOptions = {
  limit: number;
  /** Only documents of these domains (none: every domain). */
  domains?: ReadonlySet<string> | undefined;
  /**
   * Private documents are found only by their owner's searches: shared ones and those owned by
   * `visibleTo` are returned (null or absent: shared ones only). Checked per touched document,
   * like the domain, never by a walk of all documents.
   */
  visibleTo?: string | null | undefined;
  /** Multiplies a hit's score (domain boost); applied before the top `limit` are taken. */
  boost?: ((domain: string) => number) | undefined;
  /** The largest value `boost` returns: lets a search skip documents that cannot make the top. */
  maxBoost?: number | undefined;
  /**
   * Terms held by more than this share of the documents (from MIN_DOCS_FOR_DEFER documents on)
   * are not walked: their weight is added afterwards to a shortlist of `shortlist` documents
   * found through the rarer terms. Their postings are most of the work and they cannot find a
   * document on their own; they can still reorder the shortlist. The two rarest terms are
   * always walked.
   */
  deferShare?: number | undefined;
  /** The shortlist's size when terms are deferred (default 10 × limit). */
  shortlist?: number | undefined;
  /** A term in a document's title or labels (its `strong` terms) weighs this much more (default 1). */
  strongBoost?: number | undefined;
  /**
   * BM25's length normalisation (for a term found once): a document's score is multiplied by
   * (k1 + 1) / (1 + k1 · (1 − b + b · length / average length)), so a short card about the
   * question outranks a long one that mentions the same words in passing.
   */
  lengthNorm?: { k1: number; b: number } | undefined;
};
