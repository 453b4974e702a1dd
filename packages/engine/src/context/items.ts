// A clause's items (the words between list words and conjunctions: "fuse is good and 12 V at the
// pump" holds two), what a bypass goes around, and where a contrast ("but", "then") turns a
// statement into the outcome. Shared by the readers in intent.ts and reading-steps.ts.

import { namedSteps, type TCompiled } from "./catalog-index";
import type { TStep } from "./catalog-schema";
import { POSITION_STRIDE } from "./match";
import { indexOf } from "./phrases";
import { type TLexClause, VOCABULARY } from "./vocabulary";

/**
 * Whether a conjunction ("but") or a word of sequence ("then", "after") stands between two
 * positions of one clause, or the first position's clause turns at "but" after it, or a word of
 * sequence opens the way to the second in a later clause: the second statement is the outcome.
 */
export function contrasted(clauses: readonly TLexClause[], from: number, to: number): boolean {
  const k = Math.floor(from / POSITION_STRIDE);
  const clause = clauses[k];
  if (clause === undefined) return false;
  const a = from % POSITION_STRIDE;
  const b = to % POSITION_STRIDE;
  // "it runs and water comes out but it wont shut off, keeps cycling": a clause that turns at
  // "but" after the first statement hands on to what follows it, in the clauses after too;
  // "motor runs, room moves then stalls", "Sieb ist sauber, aber zieht Luft": so does "then" or
  // "but" in a later clause, before the later statement
  const kt = Math.floor(to / POSITION_STRIDE);
  const turns = (t: string) => VOCABULARY.sequence.has(t) || VOCABULARY.conjunctions.has(t);
  if (kt > k)
    return (
      clause.segments.slice(a + 1).some((s) => s !== clause.segments[a]) ||
      clauses
        .slice(k + 1, kt + 1)
        .some((later, j) => (k + 1 + j === kt ? later.tokens.slice(0, b) : later.tokens).some(turns))
    );
  if (k !== Math.floor(to / POSITION_STRIDE)) return false;
  return (
    clause.segments[a] !== clause.segments[b] || clause.tokens.slice(a + 1, b).some((t) => VOCABULARY.sequence.has(t))
  );
}

/** Where the item (between list words and conjunctions) that holds token `at` starts and ends. */
export function itemBounds(clause: TLexClause, at: number): { from: number; to: number } {
  const cut = (i: number) =>
    VOCABULARY.listWords.has(clause.tokens[i] ?? "") || clause.segments[i] !== clause.segments[at];
  let from = at;
  while (from > 0 && !cut(from - 1)) from--;
  let to = at;
  while (to + 1 < clause.tokens.length && !cut(to + 1)) to++;
  return { from, to };
}

/** The item (between list words and conjunctions) of a clause that holds token `at`. */
export function itemAround(clause: TLexClause | undefined, at: number): TLexClause | undefined {
  if (clause === undefined) return undefined;
  const { from, to } = itemBounds(clause, at);
  return {
    ...clause,
    tokens: clause.tokens.slice(from, to + 1),
    words: clause.words.slice(from, to + 1),
    segments: clause.segments.slice(from, to + 1),
  };
}

/** The item without the conditions a reading was taken under ("12.5 with the switch on at the pump" is at the pump). */
export function withoutConditions(item: TLexClause | undefined): TLexClause | undefined {
  if (item === undefined) return undefined;
  const tokens = [...item.tokens];
  for (const span of indexOf(VOCABULARY.conditions).in(item.tokens))
    tokens.fill("", span.start, span.start + span.length);
  return { ...item, tokens };
}

/**
 * The clause without its clauses of time, each from its opening words to the end of its segment:
 * "breaker popped again 10 seconds after the compressor came on" says nothing of the compressor.
 */
export function withoutTimeClauses(clause: TLexClause): TLexClause {
  const spans = indexOf(VOCABULARY.timeClauses).in(clause.tokens);
  if (spans.length === 0) return clause;
  const tokens = [...clause.tokens];
  for (const span of spans) {
    let end = span.start;
    while (end < tokens.length && clause.segments[end] === clause.segments[span.start]) end++;
    tokens.fill("", span.start, end);
  }
  return { ...clause, tokens };
}

/** Whether a negator precedes `start` within a few words of `tokens` ("no good", "not working"). */
export function negatedIn(tokens: readonly string[], start: number): boolean {
  for (let i = start - 1; i >= 0 && i >= start - 3; i--) {
    if (VOCABULARY.listWords.has(tokens[i] ?? "") || VOCABULARY.conjunctions.has(tokens[i] ?? "")) return false;
    if (VOCABULARY.negators.has(tokens[i] ?? "")) return true;
  }
  return false;
}

export function clauseText(clause: TLexClause | undefined): string {
  return clause?.tokens.join(" ") ?? "";
}

/** Bypass wording in a clause, but not a reading that wanders ("10.2-10.6 jumping around") nor a bypass valve. */
export function bypassSpans(clause: TLexClause) {
  const notBypass = indexOf(VOCABULARY.notBypass).in(clause.tokens);
  return indexOf(VOCABULARY.bypass)
    .in(clause.tokens)
    .filter((span) => !notBypass.some((u) => u.start <= span.start && span.start < u.start + u.length));
}

/**
 * "with a good lead the motor runs fine on direct 12v": a clause with bypass wording is about the
 * step whose parts the bypass names (the direct test), not another step naming the same motor;
 * null when the clause has no bypass wording.
 */
export function bypassTested(c: TCompiled, clause: TLexClause): Set<TStep> | null {
  const spans = bypassSpans(clause);
  if (spans.length === 0) return null;
  return new Set(
    spans.flatMap((span) => [...namedSteps(c, clause.tokens.slice(span.start, span.start + span.length))]),
  );
}

/** The clause without the items that hold bypass wording: what the bypass reaches, not what it bypasses. */
export function pastBypass(clause: TLexClause): TLexClause {
  const tokens = [...clause.tokens];
  for (const span of bypassSpans(clause)) {
    const { from, to } = itemBounds(clause, span.start);
    tokens.fill("", from, to + 1);
  }
  return { ...clause, tokens };
}

/** A clause's items ("fuse is good and 12 V at the pump"), each as the clause's tokens with the rest blanked. */
export function itemsOf(clause: TLexClause, blocked: readonly boolean[] | undefined): string[][] {
  let item = 0;
  const items = clause.tokens.map((t, i) =>
    VOCABULARY.listWords.has(t) || (i > 0 && clause.segments[i] !== clause.segments[i - 1]) ? ++item : item,
  );
  return [...new Set(items)].map((segment) =>
    clause.tokens.map((t, i) => (items[i] === segment && blocked?.[i] !== true ? t : "")),
  );
}
