// A reader learned from labelled technician messages (issue 36): one logistic regression per
// step answer ("fuse=blown"), over the message's words, word pairs and character 2–5-grams of each
// word, so a paraphrase, a typo or a dictated homophone still shares most features with the
// examples. Pure and deterministic: the examples in their order, a fixed-seed shuffle per epoch,
// a fixed schedule. The rules read first; intent.ts asks this reader only to fill in what they
// missed and to drop what it is sure nobody said (docs/procedure-mode.md, "The learned reader").

import { tokens } from "@solserver/text";
import { seededShuffle } from "../router/classifier";

export type TLabelledMessage = { text: string; labels: readonly string[] };

export type TLearnedReader = {
  /** Each label's probability for this message; labels seen fewer than MIN_POSITIVES times are absent. */
  probabilities(text: string): Map<string, number>;
};

const EPOCHS = 10;
const RATE = 1;
const L2 = 1e-6;
const SEED = 20261207;
const MIN_POSITIVES = 2;
const GRAMS = [2, 5] as const;
/** Features read from at most this much of a message (a long paste adds nothing a label needs). */
const MAX_CHARS = 2000;

type TSparse = { index: Int32Array; value: Float64Array };

function features(text: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (f: string) => out.set(f, (out.get(f) ?? 0) + 1);
  const words = tokens(text.slice(0, MAX_CHARS).toLowerCase());
  words.forEach((word, i) => {
    add(`w:${word}`);
    if (i > 0) add(`b:${words[i - 1]} ${word}`);
    const edged = ` ${word} `;
    for (let n = GRAMS[0]; n <= GRAMS[1]; n++)
      for (let k = 0; k + n <= edged.length; k++) add(`g:${edged.slice(k, k + n)}`);
  });
  return out;
}

/** The message's features as unit-length sparse rows; unseen features are dropped unless `grow`. */
function sparse(text: string, index: Map<string, number>, grow: boolean): TSparse {
  const ids: number[] = [];
  const values: number[] = [];
  for (const [feature, count] of features(text)) {
    let id = index.get(feature);
    if (id === undefined) {
      if (!grow) continue;
      id = index.size;
      index.set(feature, id);
    }
    ids.push(id);
    values.push(count);
  }
  let norm = 0;
  for (const v of values) norm += v * v;
  norm = Math.sqrt(norm);
  return { index: Int32Array.from(ids), value: Float64Array.from(values, (v) => (norm > 0 ? v / norm : 0)) };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** Trains one regression per label with at least MIN_POSITIVES examples, all in one pass over the rows. */
export function trainReader(examples: readonly TLabelledMessage[]): TLearnedReader {
  const counts = new Map<string, number>();
  for (const e of examples) for (const l of new Set(e.labels)) counts.set(l, (counts.get(l) ?? 0) + 1);
  const labels = [...counts].filter(([, n]) => n >= MIN_POSITIVES).map(([l]) => l);
  const K = labels.length;
  const labelIndex = new Map(labels.map((l, i) => [l, i]));
  const featureIndex = new Map<string, number>();
  const rows = examples.map((e) => {
    const y = new Uint8Array(K);
    for (const l of e.labels) {
      const k = labelIndex.get(l);
      if (k !== undefined) y[k] = 1;
    }
    return { x: sparse(e.text, featureIndex, true), y };
  });
  const weights = new Float64Array(featureIndex.size * K);
  const bias = new Float64Array(K);
  const z = new Float64Array(K);
  const scores = (x: TSparse) => {
    z.set(bias);
    for (let j = 0; j < x.index.length; j++) {
      const at = (x.index[j] as number) * K;
      const v = x.value[j] as number;
      for (let k = 0; k < K; k++) z[k] = (z[k] as number) + (weights[at + k] as number) * v;
    }
    return z;
  };
  const order = rows.map((_, i) => i);
  const shuffle = seededShuffle(SEED);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    shuffle(order);
    const rate = RATE / (1 + epoch);
    for (const i of order) {
      const { x, y } = rows[i] as (typeof rows)[number];
      const s = scores(x);
      for (let k = 0; k < K; k++) {
        // twice the logistic gradient: the step the router's two-class softmax takes (its schedule)
        const g = 2 * (sigmoid(s[k] as number) - (y[k] as number));
        bias[k] = (bias[k] as number) - rate * g;
        for (let j = 0; j < x.index.length; j++) {
          const at = (x.index[j] as number) * K + k;
          weights[at] = (weights[at] as number) - rate * (g * (x.value[j] as number) + L2 * (weights[at] as number));
        }
      }
    }
  }
  return {
    probabilities(text) {
      const s = scores(sparse(text, featureIndex, false));
      return new Map(labels.map((l, k) => [l, sigmoid(s[k] as number)]));
    },
  };
}
