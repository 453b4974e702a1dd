// The router's classifier: multinomial logistic regression (softmax) over the features of
// features.ts, trained on the routing config's example messages when the config loads. Pure and
// deterministic: the examples in the config's order, a fixed-seed shuffle per epoch, a fixed
// schedule; the same examples always give the same weights, the same message the same answer.
//
// When the sentence model is loaded, each domain's nearest examples by meaning vote too: the
// probability is MEANING_SHARE of a softmax over each domain's best cosines, the rest the
// regression's (both fixed on CLINC150's validation split, docs/routing.md).

import { routeFeatures, type TFeatures } from "./features";

export type TRouterExample = { text: string; domain: string };
export type TDomainProbability = { domain: string; p: number };

const EPOCHS = 10;
const RATE = 1;
const L2 = 1e-6;
const SEED = 20261206;
/** Nearest examples per domain whose mean cosine is the domain's meaning score. */
const NEAREST = 3;
const MEANING_SHARE = 0.5;
const MEANING_TEMPERATURE = 0.05;

type TSparse = { index: Int32Array; value: Float64Array };

export type TRouterModel = {
  readonly domains: readonly string[];
  readonly examples: readonly TRouterExample[];
  /** Whether the examples' sentence vectors vote (withVectors): then classify wants the message's. */
  readonly meaning: boolean;
  /**
   * Each domain's probability for this message, best first (ties in the config's order); empty
   * when no feature of the message occurs in any example and no sentence vector is given.
   */
  classify(message: string, vector?: Float32Array | null): TDomainProbability[];
  /** The same model, with a sentence vector per example (in the order of `examples`). */
  withVectors(vectors: readonly Float32Array[]): TRouterModel;
};

function sparse(features: TFeatures, index: Map<string, number>, grow: boolean): TSparse {
  const ids: number[] = [];
  const values: number[] = [];
  let norm = 0;
  for (const [feature, weight] of features) {
    let id = index.get(feature);
    if (id === undefined) {
      if (!grow) continue;
      id = index.size;
      index.set(feature, id);
    }
    ids.push(id);
    values.push(weight);
    norm += weight * weight;
  }
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return { index: Int32Array.from(ids), value: Float64Array.from(values, (v) => v * scale) };
}

/** A deterministic in-place Fisher–Yates shuffle (a linear congruential generator from `seed`), one call per epoch. */
export function seededShuffle(seed: number): (order: number[]) => void {
  let state = seed;
  return (order) => {
    for (let i = order.length - 1; i > 0; i--) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const j = state % (i + 1);
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
  };
}

function softmax(z: Float64Array): Float64Array {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of z) max = Math.max(max, v);
  let sum = 0;
  const out = new Float64Array(z.length);
  for (let i = 0; i < z.length; i++) {
    out[i] = Math.exp((z[i] as number) - max);
    sum += out[i] as number;
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / sum;
  return out;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** Trains the classifier on `examples` for `domains` (every example's domain must be one of them). */
export function trainRouter(domains: readonly string[], examples: readonly TRouterExample[]): TRouterModel {
  const K = domains.length;
  const classOf = new Map(domains.map((d, i) => [d, i]));
  const featureIndex = new Map<string, number>();
  const rows = examples.map((e) => {
    const y = classOf.get(e.domain);
    if (y === undefined) throw new Error(`example of unknown domain "${e.domain}"`);
    return { x: sparse(routeFeatures(e.text), featureIndex, true), y };
  });
  const weights = new Float64Array(featureIndex.size * K);
  const bias = new Float64Array(K);
  const scores = (x: TSparse) => {
    const z = Float64Array.from(bias);
    for (let j = 0; j < x.index.length; j++) {
      const at = (x.index[j] as number) * K;
      const v = x.value[j] as number;
      for (let c = 0; c < K; c++) z[c] = (z[c] as number) + (weights[at + c] as number) * v;
    }
    return z;
  };
  const order = rows.map((_, i) => i);
  const shuffle = seededShuffle(SEED);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    shuffle(order);
    const rate = RATE / (1 + epoch);
    for (const i of order) {
      const { x, y } = rows[i] as { x: TSparse; y: number };
      const p = softmax(scores(x));
      for (let c = 0; c < K; c++) {
        const g = (p[c] as number) - (c === y ? 1 : 0);
        bias[c] = (bias[c] as number) - rate * g;
        for (let j = 0; j < x.index.length; j++) {
          const at = (x.index[j] as number) * K + c;
          weights[at] = (weights[at] as number) - rate * (g * (x.value[j] as number) + L2 * (weights[at] as number));
        }
      }
    }
  }

  const build = (vectors: readonly Float32Array[] | null): TRouterModel => ({
    domains,
    examples,
    meaning: vectors !== null,
    classify(message, vector) {
      const x = sparse(routeFeatures(message), featureIndex, false);
      // Nothing of the message was ever seen in an example: no evidence, only the priors.
      if (x.index.length === 0 && !(vectors && vector)) return [];
      let p = softmax(scores(x));
      if (vectors && vector) p = blendMeaning(p, vector, vectors);
      return [...p]
        .map((prob, c) => ({ domain: domains[c] as string, p: prob, c }))
        .sort((a, b) => b.p - a.p || a.c - b.c)
        .map(({ domain, p: prob }) => ({ domain, p: prob }));
    },
    withVectors(next) {
      if (next.length !== examples.length) throw new Error(`${next.length} vectors for ${examples.length} examples`);
      return build(next);
    },
  });

  /** The regression's probabilities blended with each domain's nearest examples by meaning. */
  function blendMeaning(p: Float64Array, vector: Float32Array, vectors: readonly Float32Array[]): Float64Array {
    const best: number[][] = domains.map(() => []);
    vectors.forEach((v, i) => {
      const list = best[(rows[i] as { y: number }).y] as number[];
      list.push(cosine(vector, v));
      if (list.length > NEAREST) {
        list.sort((a, b) => b - a);
        list.length = NEAREST;
      }
    });
    const z = Float64Array.from(best, (list) =>
      list.length === 0
        ? -1 / MEANING_TEMPERATURE
        : list.reduce((a, b) => a + b, 0) / list.length / MEANING_TEMPERATURE,
    );
    const meaning = softmax(z);
    return Float64Array.from(p, (v, c) => (1 - MEANING_SHARE) * v + MEANING_SHARE * (meaning[c] as number));
  }

  return build(null);
}
