import { compareIds } from "@solserver/contracts";
import {
  FUZZY_WEIGHT,
  type TCandidateIndex,
  type TCfbScope,
  type TRetrievableCfb,
  type TRetrievalSignals,
  visibleTo,
} from "@solserver/db";
import { analyzeTerms, cachedTermSet, termBigrams, termSet } from "@solserver/text";
import fitted from "./retrieval-fusion.json" with { type: "json" };

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

/** Why a CFB was injected: the message's words it holds and how close its meaning is. */
type TWhyInjected = {
  /** The message's words (as typed, folded) whose stem the CFB holds. */
  matched: string[];
  /** Cosine similarity of the message's and the CFB's sentence vectors; null without one. */
  similarity: number | null;
  /** The lexical score (lexicalScore, before boosts), in [0, ~1.2]. */
  lexical: number;
};

export type TRankedCfb = { cfb: TRetrievableCfb; score: number; why: TWhyInjected };

/**
 * Retrieval boosts (seed 001 §9.5), multiplied into a CFB's fused score:
 * - hotness (recent use, cfb-stats.ts): up to +25% for the hottest;
 * - ignored rate (ignored / (used + ignored) over 30 days, from 5 observations on): up to −40%
 *   for a CFB the model keeps being given and keeps ignoring;
 * - staleness (past its TTL): −15%, and a stale CFB with review_on_use that is used is flagged
 *   for review (a promotion trigger, see respond.ts).
 * Relevance stays the main term: a boost reorders close candidates, it cannot lift a CFB that
 * does not match the message at all.
 */
export const BOOSTS = { hotness: 0.25, ignoredPenalty: 0.4, minObservations: 5, stale: 0.85 } as const;

export function retrievalBoost(signals: TRetrievalSignals | undefined): number {
  if (!signals) return 1;
  const seen = signals.used30d + signals.ignored30d;
  const ignoredRate = seen >= BOOSTS.minObservations ? signals.ignored30d / seen : 0;
  return (
    (1 + BOOSTS.hotness * signals.hotness) *
    (1 - BOOSTS.ignoredPenalty * ignoredRate) *
    (signals.stale ? BOOSTS.stale : 1)
  );
}

/**
 * A message word found in a CFB's title, tags or entities weighs this much more than one found
 * only in its summary: the knowledge a question is about names its subject there, and thousands
 * of CFBs mention the same words in passing.
 */
const STRONG_FIELD_BOOST = 2;

/** Added to a CFB's relevance when every word pair of the message appears in it as written. */
export const PHRASE_BONUS = 0.2;

/** The routed domain's CFBs weigh this much more; shared CFBs are domain "general". */
export const DOMAIN_BOOST = 1.25;
const SHARED_DOMAIN = "general";

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

/** The turn's route as retrieval uses it: scope "domain" keeps only its own and shared CFBs. */
export type TRetrievalScope = { domain: string; scope: "domain" | "boost" };

/** How much one analysed term of the message weighs (retrieval passes idf; by default 1 each). */
export type TTermWeights = ReadonlyMap<string, number>;

function weightedCoverage(
  query: readonly string[],
  held: ReadonlySet<string>,
  weightOf: (t: string) => number,
): number {
  let total = 0;
  let hit = 0;
  for (const t of query) {
    const w = weightOf(t);
    total += w;
    if (held.has(t)) hit += w;
  }
  return total > 0 ? hit / total : 0;
}

/**
 * The lexical relevance of a CFB to a message: the (weighted) share of the message's analysed
 * terms it holds (a term only in the summary at 1 / STRONG_FIELD_BOOST), a small bonus for tag
 * and entity hits (curated labels are stronger evidence than prose), and PHRASE_BONUS for the
 * message's word pairs found as written in the title or summary ("postmortem template").
 */
function lexicalScore(
  query: readonly string[],
  pairs: ReadonlySet<string>,
  cfb: TRetrievableCfb,
  weightOf: (t: string) => number = () => 1,
): number {
  if (query.length === 0) return 0;
  const labels = [...cfb.tags, ...cfb.entities].join("\n");
  const strong = cachedTermSet(`${cfb.title}\n${labels}`);
  const body = cachedTermSet(cfb.summary);
  const base =
    weightedCoverage(query, strong, weightOf) +
    weightedCoverage(query, new Set([...body].filter((t) => !strong.has(t))), weightOf) / STRONG_FIELD_BOOST;
  if (base === 0) return 0;
  const bonus = 0.1 * weightedCoverage(query, cachedTermSet(labels), weightOf);
  let phrase = 0;
  if (pairs.size > 0) {
    const title = termBigrams(cfb.title);
    const summary = termBigrams(cfb.summary);
    let hit = 0;
    for (const p of pairs) if (title.has(p) || summary.has(p)) hit += 1;
    phrase = PHRASE_BONUS * (hit / pairs.size);
  }
  return Math.min(1, base + bonus) + phrase;
}

/**
 * Ranks CFBs for a message by their lexical score (lexicalScore) times the usage and domain
 * boosts, best first; ties by cfb_id in numeric order. The offline model and tests rank small
 * lists this way; a turn's retrieval is retrieveCfbs.
 */
export function rankCfbs(
  message: string,
  cfbs: readonly TRetrievableCfb[],
  limit: number,
  route?: TRetrievalScope,
  weights?: TTermWeights,
): TRankedCfb[] {
  const query = [...termSet(message)];
  const pairs = termBigrams(message);
  const weightOf = (t: string) => weights?.get(t) ?? 1;
  const ranked: TRankedCfb[] = [];
  for (const cfb of cfbs) {
    if (!inScope(cfb, route)) continue;
    const lexical = lexicalScore(query, pairs, cfb, weightOf);
    if (lexical === 0) continue;
    ranked.push({
      cfb,
      score: lexical * retrievalBoost(cfb.signals) * domainBoost(cfb, route),
      why: { matched: matchedWords(message, cfb), similarity: null, lexical },
    });
  }
  return ranked.sort(byScore).slice(0, limit);
}

function inScope(cfb: TRetrievableCfb, route: TRetrievalScope | undefined): boolean {
  return route?.scope !== "domain" || cfb.domain === route.domain || cfb.domain === SHARED_DOMAIN;
}

function domainBoost(cfb: TRetrievableCfb, route: TRetrievalScope | undefined): number {
  return route !== undefined && cfb.domain === route.domain ? DOMAIN_BOOST : 1;
}

const byScore = (a: TRankedCfb, b: TRankedCfb) => b.score - a.score || compareIds(a.cfb.cfb_id, b.cfb.cfb_id);

/** The message's words (folded, as typed) whose analysed term the CFB holds. */
function matchedWords(message: string, cfb: TRetrievableCfb): string[] {
  const held = cachedTermSet([cfb.title, cfb.summary, ...cfb.tags, ...cfb.entities].join("\n"));
  const words = analyzeTerms(message, { stem: false });
  const terms = analyzeTerms(message);
  const out = new Set<string>();
  terms.forEach((t, i) => {
    if (held.has(t)) out.add(words[i] as string);
  });
  return [...out];
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
