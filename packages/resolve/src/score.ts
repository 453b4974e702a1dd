// Composite score (seed 001 §6.2): 0.50 text + 0.25 tags + 0.20 entities + 0.05 title, every
// component in [0, 1]. What changed from the first version, and why (docs/resolve.md has the
// evaluation behind each):
// - the text component compares the two texts themselves (analysed terms, Dice, calibrated so a
//   restatement in other words is a full match) instead of bm25 against the corpus: it means the
//   same among 50 CFBs and 100,000, and labels are no longer counted twice (as search terms and
//   as overlaps);
// - a label component is left out, and the weights of the others scaled up, when either side has
//   no labels of that kind: a proposal without tags is not evidence against a CFB with tags, so
//   a strong text match reaches update on its own;
// - with semantic matching on, the text component is the better of the lexical match and the
//   embeddings' similarity (scaled so unrelated texts score 0).
import type {
  TCandidateFlag,
  TDecisionRule,
  TResolveCandidate,
  TResolveProposal,
  TScoreComponents,
  TScoredCandidate,
} from "@solserver/contracts";
import { compareIds } from "@solserver/contracts";
import { DECISION_RULE } from "./decision-rule";
import { labelOverlap, titleSimilarity } from "./overlap";
import type { TTextProfile } from "./text/profile";
import { compareSubjects } from "./text/subject";
import { matchText } from "./text/text-match";
import { changedValues } from "./text/values";

/** The shipped rule's weights (decision-rule.json). */
export const WEIGHTS = DECISION_RULE.weights;

/** A proposal adds facts (NEW_FACTS) when this share of its terms is in sentences the CFB does not support. */
export const NEW_FACTS_SHARE = 0.2;

/**
 * Embedding cosine similarity mapped to [0, 1]: `none` and below is 0 (what unrelated texts
 * reach), `full` and above 1 (a restatement). Where cosines fall depends on the embeddings model
 * (averaged word vectors put unrelated texts at 0.9, sentence models at 0.3), so semantic
 * matching calibrates a scale per model from the knowledge base itself (control-plane
 * semantic-matching.ts); this default is for a model not yet calibrated.
 */
export type TSemanticScale = { none: number; full: number };
export const SEMANTIC_SCALE: TSemanticScale = { none: 0.6, full: 0.9 };

export function semanticComponent(
  cosine: number | null | undefined,
  scale: TSemanticScale = SEMANTIC_SCALE,
): number | null {
  if (cosine === null || cosine === undefined || !Number.isFinite(cosine)) return null;
  const { none, full } = scale;
  if (!(full > none)) return cosine >= full ? 1 : 0;
  return Math.min(1, Math.max(0, (cosine - none) / (full - none)));
}

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
 * Labels support a text match; they cannot make one. Below this text similarity, the tag and
 * entity overlaps count in proportion (at text 0.25 half): two CFBs filed under the same tags and
 * naming the same product are not the same knowledge unless their texts agree. Without a
 * comparable text (another language, too few numbers and names) labels count in full.
 */
export const LABEL_GATE = DECISION_RULE.labelGate;

/** The weighted mean of the components present (a null label component is left out). */
export function compositeScore(c: TScoreComponents, rule: TDecisionRule = DECISION_RULE): number {
  const gate = c.text_similarity === null ? 1 : Math.min(1, c.text_similarity / rule.labelGate);
  const gated = (v: number | null) => (v === null ? null : v * gate);
  const w = rule.weights;
  const parts: [number, number | null][] = [
    [w.text, c.text_similarity],
    [w.tag, gated(c.tag_overlap)],
    [w.entity, gated(c.entity_overlap)],
    [w.title, c.title_similarity],
  ];
  let weight = 0;
  let sum = 0;
  for (const [w, v] of parts) {
    if (v === null) continue;
    weight += w;
    sum += w * v;
  }
  return weight === 0 ? 0 : Math.min(1, round4(sum / weight));
}

/**
 * Best first: score (in ten-thousandths) descending, then cfb_id in numeric order, then the
 * components descending. A total order on everything a scored candidate holds, so sorting gives
 * the same list whatever order the candidates came in.
 */
export function compareScored(a: TScoredCandidate, b: TScoredCandidate): number {
  return (
    scoreUnits(b.score) - scoreUnits(a.score) ||
    compareIds(a.cfb_id, b.cfb_id) ||
    desc(a.score, b.score) ||
    desc(a.components.text_similarity ?? -1, b.components.text_similarity ?? -1) ||
    desc(a.components.tag_overlap ?? -1, b.components.tag_overlap ?? -1) ||
    desc(a.components.entity_overlap ?? -1, b.components.entity_overlap ?? -1) ||
    desc(a.components.title_similarity, b.components.title_similarity)
  );
}

function desc(a: number, b: number): number {
  if (a === b || (Number.isNaN(a) && Number.isNaN(b))) return 0;
  return b > a || Number.isNaN(a) ? 1 : -1; // NaN last
}

/** Both sides labelled, half their entities and tags shared: the labels name one subject. */
function sameLabels(c: TScoreComponents): boolean {
  return (c.entity_overlap ?? 0) >= 0.5 && (c.tag_overlap ?? 0) >= 0.5;
}

function uniqueChanges(changes: { old: string; new: string }[]): { old: string; new: string }[] {
  const seen = new Set<string>();
  return changes.filter((c) => {
    const key = `${c.old}\u0000${c.new}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * One candidate against the proposal, given both texts' profiles. The score never depends on
 * `detail`; without it new_share is 0 and only LANGUAGE_DIFFERS / SEMANTIC_MATCH can be flagged.
 */
export function scoreCandidate(
  p: TResolveProposal,
  pText: TTextProfile,
  c: TResolveCandidate,
  cText: TTextProfile,
  detail = true,
  scale: TSemanticScale = SEMANTIC_SCALE,
  rule: TDecisionRule = DECISION_RULE,
): TScoredCandidate {
  const lexical = matchText(pText, cText, detail);
  const semantic = semanticComponent(c.semantic_similarity, scale);
  const text = semantic === null ? lexical.text : Math.max(lexical.text ?? 0, semantic);
  const components: TScoreComponents = {
    text_similarity: text,
    tag_overlap: labelOverlap(p.tags, c.tags),
    entity_overlap: labelOverlap(p.entities, c.entities),
    title_similarity: titleSimilarity(p.title, c.title),
    semantic_similarity: c.semantic_similarity ?? null,
    new_share: lexical.newShare,
  };
  const flags: TCandidateFlag[] = [];
  const semanticCarries = semantic !== null && semantic > (lexical.text ?? 0);
  // The subject and the values are read for the best few only (detail), like new facts.
  // Across languages the words cannot be aligned: no subject verdict from them.
  const read = detail && !lexical.languageDiffers ? compareSubjects(pText, cText) : undefined;
  // The words name another subject, the labels the same one: the
  // wording may have moved the subject, a person decides. Never an update, never silently new.
  const subject =
    read?.relation === "different" && sameLabels(components) ? { ...read, relation: "close" as const } : read;
  // The values read as values say it best ("15 A" → "20 A"); the aligned words only when no value
  // reading found the change ("1 year" of labour → "2 years").
  const valueChanges = changedValues(pText.values, cText.values);
  const changes =
    subject && subject.relation !== "different"
      ? valueChanges.length > 0
        ? valueChanges
        : uniqueChanges(subject.changes)
      : [];
  if (subject?.relation === "different") flags.push("SUBJECT_DIFFERS");
  if (subject?.relation === "close") flags.push("SUBJECT_CLOSE");
  if (changes.length > 0) flags.push("VALUE_CHANGED");
  // New words are new facts only when the words are what matched: a paraphrase the embeddings
  // recognise rewords everything, and its "new" words say the same thing.
  if (lexical.newShare >= NEW_FACTS_SHARE && !semanticCarries) flags.push("NEW_FACTS");
  if (lexical.contradicts) flags.push("CONTRADICTS");
  if (lexical.languageDiffers) flags.push("LANGUAGE_DIFFERS");
  if (semanticCarries) flags.push("SEMANTIC_MATCH");
  return {
    cfb_id: c.cfb_id,
    score: compositeScore(components, rule),
    components,
    flags,
    ...(subject
      ? { subject: { relation: subject.relation, proposal: subject.proposal, candidate: subject.candidate } }
      : {}),
    ...(changes.length > 0 ? { changes } : {}),
  };
}
