// Whether a proposal is about the same thing as a CFB. People repeat a pattern with another
// subject ("The awning / furnace / water pump on 2019 travel trailers needs a 15 A breaker check
// first"): the texts are nearly the same, the subject is not, and an update would put one subject's
// fact into another's CFB. So the two texts are aligned word by word (their analysed terms, title
// with title and first sentence with first sentence, by a longest common subsequence) and the
// places where they differ are read:
// - a **replacement**: each side has words there the other text holds nowhere ("microwave" where
//   the CFB says "water heater", "standup" where it says "office") → a different subject;
// - an **insertion** right at the title's head, words the CFB holds nowhere ("water heater
//   heating element" against "water heater") → a close subject: a part and its assembly, a person
//   decides.
// Only texts that share a skeleton are read this way (at least half of the shorter sequence in
// common): a restatement in other words has no skeleton to misread, and is judged by its meaning.
import { analysisLanguage, analyzeToken, clauses, detectLanguage, isUnit, LANGUAGES } from "@solserver/text";
import type { TTextProfile } from "./profile";
import { isValueWord } from "./values";

type TSubjectRelation = "same" | "close" | "different";
export type TSubjectComparison = {
  relation: TSubjectRelation;
  /** The words (analysed terms) only the proposal has where the subjects differ, and the CFB's. */
  proposal: string[];
  candidate: string[];
  /** Values replaced where the texts otherwise align ("1 year" of labour → "2 years"). */
  changes: { old: string; new: string }[];
};

/** A sequence pair shares a skeleton when this share of the shorter one is common to both. */
const SKELETON = 0.5;
/**
 * Where a text names its subject: a replacement at the start of the title or of the first sentence
 * ("microwave" / "water heater"), or right after a preposition within the first SUBJECT_AT words
 * ("hotfixes to the <search API>"), is a subject; elsewhere it rewords the predicate ("start with"
 * / "check", "Figma seat" / "Figma access"). An insertion within HEAD words of the title's start
 * narrows the subject.
 */
const SUBJECT_AT = 2;
const HEAD = 3;

const NUMERIC = /^[\d.:]+$/;

type THunk = { at: number; removed: string[]; added: string[] };

/** The places where `b` (the proposal) differs from `a` (the CFB), and how much they share. */
function diff(a: readonly string[], b: readonly string[]): { common: number; hunks: THunk[] } {
  const n = a.length;
  const m = b.length;
  // LCS table, small: titles and first sentences are a few dozen terms.
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      (lcs[i] as number[])[j] =
        a[i] === b[j]
          ? ((lcs[i + 1] as number[])[j + 1] as number) + 1
          : Math.max((lcs[i + 1] as number[])[j] as number, (lcs[i] as number[])[j + 1] as number);
  const hunks: THunk[] = [];
  let hunk: THunk | null = null;
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      if (hunk) hunks.push(hunk);
      hunk = null;
      i++;
      j++;
      continue;
    }
    hunk ??= { at: j, removed: [], added: [] };
    if (j < m && (i >= n || ((lcs[i] as number[])[j + 1] as number) >= ((lcs[i + 1] as number[])[j] as number)))
      hunk.added.push(b[j++] as string);
    else hunk.removed.push(a[i++] as string);
  }
  if (hunk) hunks.push(hunk);
  return { common: (lcs[0] as number[])[0] as number, hunks };
}

/** The words of a hunk side that the other text holds nowhere (numbers are values, not subjects). */
function exclusive(words: readonly string[], other: ReadonlySet<string>): string[] {
  return words.filter((w) => !NUMERIC.test(w) && !isValueWord(w) && !other.has(w));
}

export function compareSubjects(p: TTextProfile, c: TTextProfile): TSubjectComparison {
  const pairs = [
    { a: c.titleSequence, b: p.titleSequence, after: p.titleAfterPreposition, title: true },
    { a: c.leadSequence, b: p.leadSequence, after: p.leadAfterPreposition, title: false },
  ];
  let close: TSubjectComparison | null = null;
  let titleDiffers: TSubjectComparison | null = null;
  let leadAgrees = false;
  const changes: { old: string; new: string }[] = [];
  for (const { a, b, after, title } of pairs) {
    const shorter = Math.min(a.length, b.length);
    if (shorter === 0) continue;
    const { common, hunks } = diff(a, b);
    if (common < SKELETON * shorter) continue;
    let differs: TSubjectComparison | null = null;
    for (const h of hunks) {
      const valueOnly = (words: string[]) => words.length > 0 && words.every((w) => NUMERIC.test(w) || isValueWord(w));
      if (valueOnly(h.added) && valueOnly(h.removed))
        changes.push({ old: h.removed.join(" "), new: h.added.join(" ") });
      const added = exclusive(h.added, c.terms);
      const removed = exclusive(h.removed, p.terms);
      // The first words, or the object of a preposition right after them ("hotfixes to the <X>").
      const atSubject = h.at === 0 || (h.at < SUBJECT_AT + 1 && after[h.at] === true);
      if (added.length > 0 && removed.length > 0 && atSubject) {
        differs ??= { relation: "different", proposal: added, candidate: removed, changes: [] };
        continue;
      }
      // Words inserted right after the title's first words name a part of that subject ("water
      // heater <heating element>"); words before them only qualify it ("<Suburban> water heater").
      if (title && added.length > 0 && removed.length === 0 && h.at >= 1 && h.at < HEAD)
        close ??= { relation: "close", proposal: added, candidate: [], changes: [] };
    }
    if (!title && differs) return differs;
    if (title) titleDiffers = differs;
    else leadAgrees = true;
  }
  // A title is a name someone chose ("PostgreSQL migrations" / "Database schema migrations"):
  // when the first sentences align with no other subject, the title alone does not make one.
  if (titleDiffers && !leadAgrees) return titleDiffers;
  return close ? { ...close, changes } : { relation: "same", proposal: [], candidate: [], changes };
}

/**
 * Whether a text names a subject at all: some clause of it holds two words that are neither
 * numbers, units nor function words, in a language the analyser reads. "15 A, 30 days", "ops,
 * deploy, freeze", "85% / 95%", a line of emoji or a text in a script without a stemmer name none.
 */
export function namesSubject(title: string, body: string): boolean {
  const text = `${title}\n${body}`;
  const language = detectLanguage(text);
  if (language !== null && !(LANGUAGES as readonly string[]).includes(language) && language !== "cyrillic")
    return false;
  const analysed = analysisLanguage(text);
  return clauses(text).some(
    (clause) =>
      clause.tokens.filter((t) => !isUnit(t) && !/\d/.test(t) && analyzeToken(t, analysed) !== null).length >= 2,
  );
}
