// Which answer a message states. Every occurrence of a pattern is a hit; overlapping hits are
// settled longest first, so "not blown" beats "blown" and "no water" beats "no", and a word can
// count for one answer only. An answer scores its longest surviving hit; the best score wins,
// and a tie between answers of the same step is ambiguous (no winner).

import { phraseStarts, type TClause } from "./text";

/** A normalised pattern; `weak` when it is made only of generic words ("yes", "not working"). */
export type TPattern = { tokens: readonly string[]; weak: boolean };

/** One answer competing for the words of a message; `group` is its step, lower `priority` wins ties. */
export type TMatchCandidate = { group: number; answer: number; patterns: readonly TPattern[]; priority: number };

/** Per group: the answers with the best score (exactly one means a winner); `weak` when only weak patterns matched. */
export type TGroupMatch = { group: number; answers: number[]; score: number; weak: boolean };

type THit = { candidate: number; clause: number; start: number; length: number; weak: boolean };

function compareHits(a: THit, b: THit, candidates: readonly TMatchCandidate[]): number {
  const pa = candidates[a.candidate]?.priority ?? 0;
  const pb = candidates[b.candidate]?.priority ?? 0;
  return b.length - a.length || pa - pb || a.clause - b.clause || a.start - b.start || a.candidate - b.candidate;
}

/** Matches all candidates against the clauses at once; groups without a surviving hit are absent. */
export function matchAnswers(clauses: readonly TClause[], candidates: readonly TMatchCandidate[]): TGroupMatch[] {
  const hits: THit[] = [];
  candidates.forEach((candidate, c) => {
    for (const pattern of candidate.patterns) {
      clauses.forEach((clause, k) => {
        for (const start of phraseStarts(clause.tokens, pattern.tokens))
          hits.push({ candidate: c, clause: k, start, length: pattern.tokens.length, weak: pattern.weak });
      });
    }
  });
  hits.sort((a, b) => compareHits(a, b, candidates));

  const claimed = clauses.map((clause) => new Array<boolean>(clause.tokens.length).fill(false));
  const best = new Map<number, Map<number, number>>(); // group → answer → longest surviving hit
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
    if (!hit.weak) strong.add(`${candidate.group}:${candidate.answer}`);
  }

  const result: TGroupMatch[] = [];
  for (const [group, answers] of [...best.entries()].sort((a, b) => a[0] - b[0])) {
    const score = Math.max(...answers.values());
    const top = [...answers.entries()].filter(([, s]) => s === score).map(([answer]) => answer);
    const weak = top.every((answer) => !strong.has(`${group}:${answer}`));
    result.push({ group, answers: top.sort((a, b) => a - b), score, weak });
  }
  return result;
}
