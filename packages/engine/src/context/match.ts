// Which answer a message states. Every occurrence of a pattern is a hit; overlapping hits are
// settled for the step being asked first (except in an item about another step's part), then
// longest first, so "not blown" beats "blown" and "no water" beats "no", and a word can count for
// one answer only. Words the reader has set
// aside ("no idea", "no wait", a question) are never part of a hit; a generic hit ("no") is also
// refused where the reader says the word is not an answer ("no multimeter"), and a hit a negation
// governs is reported apart ("never pushes air"). An answer scores its longest surviving hit; the
// best score wins, then the answer with more hits, then one a specific word states over one only a
// generic word ("yes") does; a tie left between answers of the same step is ambiguous (no winner).

import type { TClause } from "./text";

/**
 * A normalised pattern; `weak` when it is made only of generic words ("yes", "not working");
 * `negative` when it holds a negation itself ("not blown", "no power"); `names` when it holds a
 * part's word ("fuse holds", not "kicks on").
 */
export type TPattern = { tokens: readonly string[]; weak: boolean; negative?: boolean; names?: boolean };

/** One answer competing for the words of a message; `group` is its step, lower `priority` wins ties. */
export type TMatchCandidate = { group: number; answer: number; patterns: readonly TPattern[]; priority: number };

/**
 * Per group: the answers with the best score (exactly one means a winner); `weak` when only weak
 * patterns matched; `last` the position of each answer's last surviving hit (later is larger).
 */
export type TGroupMatch = { group: number; answers: number[]; score: number; weak: boolean; last: Map<number, number> };

/** A hit set aside because a negation governs it ("the blower never pushes air"): group and answer. */
export type TNegatedHit = { group: number; answer: number; clause: number };

/**
 * Per clause and token: `blocked` never matches; `weakBlocked` matches no weak pattern; `negated`
 * (a negation just before it, "nothing is blocking it") starts no pattern that is not negative itself.
 */
export type TMasks = {
  blocked: readonly (readonly boolean[])[];
  weakBlocked: readonly (readonly boolean[])[];
  negated?: readonly (readonly boolean[])[];
  /** A negator that negates the words just before it ("bewegt sich keinen Millimeter"). */
  negatesBefore?: readonly (readonly boolean[])[];
  /**
   * Tokens of an item about another step's part, not the asked one's ("compressor kicks on" while
   * the fan is asked): there the other steps take their words first.
   */
  elsewhere?: readonly (readonly boolean[])[];
};

type THit = {
  candidate: number;
  clause: number;
  start: number;
  length: number;
  weak: boolean;
  negative: boolean;
  names: boolean;
};

/** Orders positions across clauses: clause first, then token. */
export const POSITION_STRIDE = 1_000_000;

/** Priority 0 is the step being asked: its answers take their words before any other step's. */
export const ASKED_PRIORITY = 0;

function compareHits(a: THit, b: THit, candidates: readonly TMatchCandidate[], masks: TMasks | undefined): number {
  const pa = candidates[a.candidate]?.priority ?? 0;
  const pb = candidates[b.candidate]?.priority ?? 0;
  // (in an item about another step's part, the asked step keeps its words only by a pattern
  // that names a part: "compressor kicks on" at the fan is the compressor's, "fuse holds" at the
  // short check is the short check's)
  const first = (hit: THit, p: number) => {
    const elsewhere = masks?.elsewhere?.[hit.clause]?.[hit.start] === true;
    return Number(p === ASKED_PRIORITY ? !elsewhere || hit.names : elsewhere);
  };
  // (a generic word of the asked step yields to a longer pattern of another step over it:
  // "nothing is blocking the room" is no "nothing" from the motor)
  const generic = a.weak !== b.weak && (a.weak ? a.length < b.length : b.length < a.length);
  const asked = generic ? 0 : first(b, pb) - first(a, pa);
  // (of two as long, the one that says more than a part's name: "tripped again" over "breaker
  // tripped" in "the breaker tripped again")
  const says = Number(a.names) - Number(b.names);
  return (
    asked ||
    b.length - a.length ||
    says ||
    pa - pb ||
    a.clause - b.clause ||
    a.start - b.start ||
    a.candidate - b.candidate
  );
}

function isFree(hit: THit, masks: TMasks | undefined): boolean {
  if (!hit.negative && masks?.negated?.[hit.clause]?.[hit.start] === true) return false;
  if (!hit.negative && masks?.negatesBefore?.[hit.clause]?.[hit.start + hit.length] === true) return false;
  for (let i = hit.start; i < hit.start + hit.length; i++) {
    if (masks?.blocked[hit.clause]?.[i] === true) return false;
    if (hit.weak && masks?.weakBlocked[hit.clause]?.[i] === true) return false;
  }
  return true;
}

/** Matches all candidates against the clauses at once; groups without a surviving hit are absent. */
export function matchAnswers(
  clauses: readonly TClause[],
  candidates: readonly TMatchCandidate[],
  masks?: TMasks,
  negatedHits?: TNegatedHit[],
): TGroupMatch[] {
  // Index the clauses' tokens once: a pattern is only tried where its first word occurs.
  const at = new Map<string, { clause: number; start: number }[]>();
  clauses.forEach((clause, k) => {
    clause.tokens.forEach((token, i) => {
      const list = at.get(token) ?? [];
      list.push({ clause: k, start: i });
      at.set(token, list);
    });
  });
  const hits: THit[] = [];
  candidates.forEach((candidate, c) => {
    for (const pattern of candidate.patterns) {
      for (const { clause, start } of at.get(pattern.tokens[0] ?? "") ?? []) {
        const tokens = clauses[clause]?.tokens ?? [];
        let ok = start + pattern.tokens.length <= tokens.length;
        for (let k = 1; ok && k < pattern.tokens.length; k++) ok = tokens[start + k] === pattern.tokens[k];
        if (!ok) continue;
        const hit = {
          candidate: c,
          clause,
          start,
          length: pattern.tokens.length,
          weak: pattern.weak,
          negative: pattern.negative === true,
          names: pattern.names === true,
        };
        if (isFree(hit, masks)) hits.push(hit);
        else if (negatedHits !== undefined && isFree({ ...hit, negative: true }, masks))
          negatedHits.push({ group: candidate.group, answer: candidate.answer, clause });
      }
    }
  });
  hits.sort((a, b) => compareHits(a, b, candidates, masks));

  const claimed = clauses.map((clause) => new Array<boolean>(clause.tokens.length).fill(false));
  const best = new Map<number, Map<number, number>>(); // group → answer → longest surviving hit
  const last = new Map<number, Map<number, number>>(); // group → answer → last position
  const count = new Map<string, number>(); // "group:answer" → surviving hits
  const strong = new Set<string>(); // "group:answer" with a surviving non-weak hit
  for (const hit of hits) {
    const taken = claimed[hit.clause];
    if (taken === undefined) continue;
    let free = true;
    for (let i = hit.start; i < hit.start + hit.length; i++) if (taken[i]) free = false;
    if (!free) continue;
    for (let i = hit.start; i < hit.start + hit.length; i++) taken[i] = true;
    const candidate = candidates[hit.candidate];
    if (candidate === undefined) continue;
    const answers = best.get(candidate.group) ?? new Map<number, number>();
    answers.set(candidate.answer, Math.max(answers.get(candidate.answer) ?? 0, hit.length));
    best.set(candidate.group, answers);
    const positions = last.get(candidate.group) ?? new Map<number, number>();
    const position = hit.clause * POSITION_STRIDE + hit.start;
    positions.set(candidate.answer, Math.max(positions.get(candidate.answer) ?? -1, position));
    last.set(candidate.group, positions);
    if (!hit.weak) strong.add(`${candidate.group}:${candidate.answer}`);
    count.set(`${candidate.group}:${candidate.answer}`, (count.get(`${candidate.group}:${candidate.answer}`) ?? 0) + 1);
  }

  const result: TGroupMatch[] = [];
  for (const [group, answers] of [...best.entries()].sort((a, b) => a[0] - b[0])) {
    const score = Math.max(...answers.values());
    // of answers tied on their longest hit, the one said more often ("it runs but won't quit, keeps
    // going with every tap closed": cycling twice, running once)
    const tied = [...answers.entries()].filter(([, s]) => s === score).map(([answer]) => answer);
    const times = (answer: number) => count.get(`${group}:${answer}`) ?? 0;
    const most = Math.max(...tied.map(times));
    const often = tied.filter((answer) => times(answer) === most);
    // a specific word beats a generic one ("yep blown, black inside" at "is the fuse intact?")
    const specific = often.filter((answer) => strong.has(`${group}:${answer}`));
    const top = specific.length > 0 ? specific : often;
    const weak = specific.length === 0;
    result.push({ group, answers: top.sort((a, b) => a - b), score, weak, last: last.get(group) ?? new Map() });
  }
  return result;
}
