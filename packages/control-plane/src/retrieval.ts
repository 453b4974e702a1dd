import { FUZZY_WEIGHT, type TCandidateIndex, type TCfbScope, type TRetrievableCfb, visibleTo } from "@solserver/db";
import { termBigrams, termSet } from "@solserver/text";
import fitted from "./retrieval-fusion.json" with { type: "json" };
import {
  byScore,
  DOMAIN_BOOST,
  domainBoost,
  inScope,
  lexicalScore,
  matchedWords,
  retrievalBoost,
  SHARED_DOMAIN,
  STRONG_FIELD_BOOST,
  type TRankedCfb,
  type TRetrievalScope,
} from "./retrieval-ranking";

// A turn's CFBs (seed 001 §9), from two channels over every live CFB the caller may see:
// - lexical: the candidate index ranks every CFB in scope by the idf-weighted terms it shares with
//   the message (the one analyser's stems, near spellings of typos), and lexicalScore scores the
//   best with field weights (title and labels count double) and a bonus for word pairs as written;
// - semantic: the CFBs whose sentence vectors are nearest the message's (the embedded sentence
//   model by default), with their cosine similarity.
// The fusion is a small model fitted on the tuning splits of the evaluation sets (LoCoMo, the
// paraphrase set, CLINC150's out-of-scope messages; `pnpm bench:retrieval --fit`,
// docs/resolve.md#retrieval): a logistic regression over each candidate's scores in both
// channels, its ranks, and how far it sits from the message's best candidate, whose probability
// (times the usage and domain boosts) orders the candidates. A message whose best candidate is
// weak in both channels (under the fitted gate) gets no CFB. The fitted numbers are data
// (retrieval-fusion.json), per embeddings model. The route's domain is a boost, never a filter,
// except where an operator made the domain's scope "domain" (strict domains such as rv_service).

/**
 * A fitted fusion: the logistic model's feature means and spreads (for standardising), weights and
 * bias, and the gate: a message whose best lexical score and best cosine both stay under it gets
 * no CFB. Without `weights` (semantic matching off) candidates rank by their lexical score.
 */
export type TFusion = {
  mean?: number[];
  spread?: number[];
  weights?: number[];
  bias?: number;
  gate: { lexical: number; cosine: number };
};

/**
 * The fusion fitted for each shipped model (retrieval-fusion.json): `lexical` when semantic
 * matching is off, `default` for a model nobody fitted (an OpenAI-compatible one).
 */
const FUSIONS: Readonly<Record<string, TFusion>> = fitted.models;

export function fusionFor(model: string | null): TFusion {
  return FUSIONS[model ?? "lexical"] ?? (FUSIONS.default as TFusion);
}

/** Candidates each channel hands to the fusion: enough that boosts and the other channel can reorder. */
const CANDIDATES = 32;
/** A message's first terms searched (a pasted log must not cost more than a question). */
const MAX_MESSAGE_TERMS = 32;

/** BM25's constants for retrieval's length normalisation (candidate index, TSearchOptions.lengthNorm). */
const LENGTH_NORM = { k1: 1.2, b: 0.75 } as const;

/** idf as BM25 has it (never negative): rare words in the knowledge base weigh more. */
function retrievalWeight(documents: number, df: number): number {
  return df === 0 ? 0 : Math.log(1 + (documents - df + 0.5) / (df + 0.5));
}

/** What retrieval needs from the database: the candidate index and the CFB rows with signals. */
export type TRetrievalSource = {
  search: TCandidateIndex["search"];
  retrievable: (ids: readonly string[], now?: Date, scope?: TCfbScope) => Promise<TRetrievableCfb[]>;
};

/** The semantic channel of one message: its vector's nearest CFBs and its similarity to any. */
export type TSemanticChannel = {
  /** The embeddings model (the fusion is fitted per model). */
  model: string;
  nearest(k: number, domains?: ReadonlySet<string>): Promise<readonly { cfb_id: string; similarity: number }[]>;
  similarities(ids: readonly string[]): Promise<ReadonlyMap<string, number>>;
};

/**
 * A CFB either channel offered, with its lexical score, its cosine (null: no vector), its boosts
 * and its place in the candidate index's ranking (length-normalised; it breaks ties before the id).
 */
export type TRetrievalCandidate = {
  cfb: TRetrievableCfb;
  lexical: number;
  cosine: number | null;
  boost: number;
  indexRank: number;
};

/**
 * Both channels' candidates for a message over every live CFB in scope that `visibleTo` may see
 * (shared ones and their own private ones, issue 19): the lexical channel's and the semantic
 * channel's best CANDIDATES each, every one scored by both.
 */
export async function retrievalCandidates(
  source: TRetrievalSource,
  message: string,
  opts: {
    route?: TRetrievalScope;
    now?: Date;
    semantic?: TSemanticChannel;
    /** Whose private CFBs may be retrieved besides the shared ones (the thread's owner; null: none). */
    visibleTo?: string | null;
  },
): Promise<TRetrievalCandidate[]> {
  const terms = [...termSet(message)].slice(0, MAX_MESSAGE_TERMS);
  const weights = new Map<string, number>();
  const asked = new Set(terms);
  const route = opts.route;
  const domains = route?.scope === "domain" ? new Set([route.domain, SHARED_DOMAIN]) : undefined;
  const [hits, neighbours] = await Promise.all([
    terms.length === 0
      ? []
      : source.search(
          {
            terms,
            weight: (documents, df, term) => {
              const w = retrievalWeight(documents, df);
              // A near spelling of a typo (the index adds them) counts at FUZZY_WEIGHT, as it searched.
              weights.set(term, asked.has(term) ? w : w * FUZZY_WEIGHT);
              return w;
            },
          },
          {
            limit: CANDIDATES,
            domains,
            boost: route ? (domain) => (domain === route.domain ? DOMAIN_BOOST : 1) : undefined,
            maxBoost: DOMAIN_BOOST,
            strongBoost: STRONG_FIELD_BOOST,
            lengthNorm: LENGTH_NORM,
            fuzzy: true,
            visibleTo: opts.visibleTo ?? null,
          },
        ),
    opts.semantic ? opts.semantic.nearest(CANDIDATES, domains) : [],
  ]);
  const ids = [...new Set([...hits.map((h) => h.id), ...neighbours.map((n) => n.cfb_id)])];
  if (ids.length === 0) return [];
  const [cfbs, similarity] = await Promise.all([
    source.retrievable(ids, opts.now, visibleTo(opts.visibleTo ?? null)),
    opts.semantic ? opts.semantic.similarities(ids) : new Map<string, number>(),
  ]);
  const query = [...weights.keys()];
  const pairs = termBigrams(message);
  const weightOf = (t: string) => weights.get(t) ?? 1;
  const indexRank = new Map(hits.map((h, i) => [h.id, i] as const));
  return cfbs.flatMap((cfb) =>
    inScope(cfb, route)
      ? [
          {
            cfb,
            lexical: lexicalScore(query, pairs, cfb, weightOf),
            cosine: similarity.get(cfb.cfb_id) ?? null,
            boost: retrievalBoost(cfb.signals) * domainBoost(cfb, route),
            indexRank: indexRank.get(cfb.cfb_id) ?? Number.MAX_SAFE_INTEGER,
          },
        ]
      : [],
  );
}

/** Each candidate's rank (0 = best) by `value`, ties in list order. */
function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const out = new Array<number>(values.length);
  order.forEach(([, i], rank) => {
    out[i] = rank;
  });
  return out;
}

/**
 * The fusion model's features of each candidate, in the order of retrieval-fusion.json's
 * `features`: its lexical score and share of the best one, its cosine and distance from the best
 * one, 1 / (1 + rank) in each channel, the message's best lexical score and cosine, and whether
 * it shares a word at all.
 */
export function fusionFeatures(candidates: readonly TRetrievalCandidate[]): number[][] {
  const lexical = candidates.map((c) => c.lexical);
  const cosine = candidates.map((c) => c.cosine ?? 0);
  const bestLexical = Math.max(0, ...lexical);
  const bestCosine = Math.max(0, ...cosine);
  const lexicalRank = ranks(lexical);
  const cosineRank = ranks(cosine);
  return candidates.map((_, i) => {
    const l = lexical[i] as number;
    const c = cosine[i] as number;
    return [
      l,
      l / (bestLexical + 1e-9),
      c,
      c - bestCosine,
      1 / (1 + (lexicalRank[i] as number)),
      1 / (1 + (cosineRank[i] as number)),
      bestLexical,
      bestCosine,
      l > 0 ? 1 : 0,
    ];
  });
}

/** The fitted model's probability that a candidate answers the message. */
function probability(x: readonly number[], f: Required<TFusion>): number {
  let z = f.bias;
  x.forEach((v, k) => {
    z += (f.weights[k] as number) * ((v - (f.mean[k] as number)) / (f.spread[k] as number));
  });
  return 1 / (1 + Math.exp(-z));
}

/** Whether a message's candidates are all too weak in both channels to inject any (the fitted gate). */
export function gated(candidates: readonly TRetrievalCandidate[], fusion: TFusion): boolean {
  const bestLexical = Math.max(0, ...candidates.map((c) => c.lexical));
  const bestCosine = Math.max(0, ...candidates.map((c) => c.cosine ?? 0));
  return bestLexical < fusion.gate.lexical && bestCosine < fusion.gate.cosine;
}

/** The candidates ordered by the fitted fusion (times the boosts), best first; none when the gate closes. */
export function fuseCandidates(
  candidates: readonly TRetrievalCandidate[],
  limit: number,
  fusion: TFusion,
): TRankedCfb[] {
  if (candidates.length === 0 || gated(candidates, fusion)) return [];
  const fitted = fusion.weights ? (fusion as Required<TFusion>) : null;
  const x = fitted ? fusionFeatures(candidates) : [];
  const ranked: { r: TRankedCfb; indexRank: number }[] = [];
  candidates.forEach((c, i) => {
    // Lexical only: a candidate must share a word.
    if (!fitted && c.lexical === 0) return;
    const relevance = fitted ? probability(x[i] as number[], fitted) : c.lexical;
    ranked.push({
      r: { cfb: c.cfb, score: relevance * c.boost, why: { matched: [], similarity: c.cosine, lexical: c.lexical } },
      indexRank: c.indexRank,
    });
  });
  return ranked
    .sort((a, b) => b.r.score - a.r.score || a.indexRank - b.indexRank || byScore(a.r, b.r))
    .slice(0, limit)
    .map((x) => x.r);
}

/** A turn's CFBs: retrievalCandidates fused with the fusion fitted for its model, the best `limit`. */
export async function retrieveCfbs(
  source: TRetrievalSource,
  message: string,
  opts: Parameters<typeof retrievalCandidates>[2] & { limit: number },
): Promise<TRankedCfb[]> {
  if (opts.limit <= 0) return [];
  const candidates = await retrievalCandidates(source, message, opts);
  const fusion = fusionFor(opts.semantic?.model ?? null);
  const best = fuseCandidates(candidates, opts.limit, fusion);
  for (const r of best) r.why.matched = matchedWords(message, r.cfb);
  return best;
}
