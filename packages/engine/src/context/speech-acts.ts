// What a technician's message does besides answering a step: it names a hazard or evidence a rule
// recognises, says a completed step was never really checked, reports a repair, states labor, only
// acknowledges, or asks for the report. intent.ts reads the answers and composes these readers;
// each takes the clauses as read there (`own`: without a long paste's quoted middle).

import { ruleStarts, type TCompiled, type TRuleMatcher } from "./catalog-index";
import type { TEvidenceRule, TSafetyRule, TStep } from "./catalog-schema";
import { indexOf } from "./phrases";
import { durationOf } from "./readings";
import { type TLexClause, type TPhrase, VOCABULARY } from "./vocabulary";

/** Whether a negator precedes `start` in the same segment ("no smell of gas", "didn't see any soot"). */
function negated(clause: TLexClause, start: number): boolean {
  const segment = clause.segments[start];
  for (let i = start - 1; i >= 0 && i >= start - 4; i--) {
    // a negation does not reach over "but" or "and" ("doesn't light and I smell propane")
    if (clause.segments[i] !== segment || VOCABULARY.listWords.has(clause.tokens[i] ?? "")) return false;
    if (VOCABULARY.negators.has(clause.tokens[i] ?? "")) return true;
  }
  return false;
}

function firstRuleHit<R>(
  clauses: readonly TLexClause[],
  rules: readonly { rule: R; index: TRuleMatcher }[],
  skip: (k: number, start: number) => boolean,
) {
  for (const { rule, index } of rules)
    for (const [k, clause] of clauses.entries())
      for (const starts of ruleStarts(index, clause))
        if (starts.every((start) => !skip(k, start) && !negated(clause, start))) return { rule, clause: k };
  return null;
}

/** The technician's words as they wrote them, for the report (bounded). */
const OWN_WORDS_CHARS = 500;
function ownWords(message: string): string {
  const trimmed = message.trim();
  return trimmed.length <= OWN_WORDS_CHARS ? trimmed : `${trimmed.slice(0, OWN_WORDS_CHARS)}…`;
}

/** The safety and evidence rules a message triggers, and whether it clears the safety stop the case is in. */
export function rulesIn(
  c: TCompiled,
  clauses: readonly TLexClause[],
  quoted: ReadonlySet<number>,
  setAside: readonly (readonly boolean[])[],
  stopped: TSafetyRule | undefined,
  message: string,
): { safety: TSafetyRule | null; safetyClear: boolean; evidence: { rule: TEvidenceRule; text: string } | null } {
  // Rules: safety anywhere (a question about a gas smell still stops the case), evidence only in
  // statements that are not set aside.
  const safetyHit = firstRuleHit(clauses, c.safety, (k) => quoted.has(k));
  const clear = stopped === undefined ? undefined : c.safety.find((s) => s.rule === stopped);
  const safetyClear =
    clear !== undefined && firstRuleHit(clauses, [{ rule: clear.rule, index: clear.clear }], () => false) !== null;
  const evidenceHit = firstRuleHit(clauses, c.evidence, (k, start) => setAside[k]?.[start] === true || quoted.has(k));
  return {
    safety: safetyHit?.rule ?? null,
    safetyClear,
    evidence: evidenceHit === null ? null : { rule: evidenceHit.rule, text: ownWords(message) },
  };
}

/** The completed steps the technician takes back as never really checked. */
export function retractedIn(c: TCompiled, own: readonly TLexClause[], completed: readonly string[]): TStep[] {
  // Retractions: "I never checked the fuse" names a completed step's part.
  const retracted: TStep[] = [];
  for (const span of indexOf(VOCABULARY.retractions).all(own)) {
    const clause = own[span.clause];
    if (clause === undefined) continue;
    const part = c.parts.find(
      (p) =>
        completed.includes(p.step.id) && c.partIndex(p).in(clause.tokens).length > 0 && !retracted.includes(p.step),
    );
    if (part !== undefined) retracted.push(part.step);
  }
  return retracted;
}

/** Whether a phrase of the table occurs in the clauses. */
function said(own: readonly TLexClause[], table: readonly TPhrase[]): boolean {
  return indexOf(table).all(own).length > 0;
}

/** Whether a phrase of the table occurs in the clauses with no negation before it ("not fixed"). */
function saidPlainly(own: readonly TLexClause[], table: readonly TPhrase[]): boolean {
  return indexOf(table)
    .all(own)
    .some((span) => {
      const clause = own[span.clause];
      return clause !== undefined && !negated(clause, span.start);
    });
}

/** Whether the message says the fault is fixed (the case may close), not only that a part was worked on. */
export function resolvedIn(c: TCompiled, activeStep: TStep | undefined, own: readonly TLexClause[]): boolean {
  // "fixed it", "works now", or a repair with "now" / "again" ("swapped the cap, blowing cold now")
  // unless it still fails ("changed the fuse, still dead"). The action the step asked for is no
  // repair, and what follows it is the step's outcome: "reset it, holding on cool now" answers
  // "Reset the breaker and start on COOL: does it hold?" (issue 36).
  const asked = activeStep === undefined ? new Set<string>() : (c.questionWords.get(activeStep) ?? new Set<string>());
  const askedAction = indexOf(VOCABULARY.resolved.repairVerbs)
    .all(own)
    .some((span) => own[span.clause]?.tokens.slice(span.start, span.start + span.length).every((t) => asked.has(t)));
  return (
    saidPlainly(own, VOCABULARY.resolved.explicit) ||
    (!askedAction &&
      (saidPlainly(own, VOCABULARY.resolved.success) ||
        (saidPlainly(own, VOCABULARY.resolved.repairVerbs) &&
          saidPlainly(own, VOCABULARY.now) &&
          !said(own, VOCABULARY.still))))
  );
}

/** A labor statement: minutes said with a labor word, as the total or added to it. */
export function laborIn(own: readonly TLexClause[]): { minutes: number; mode: "set" | "add" } | null {
  const minutes = durationOf(own);
  const triggered = saidPlainly(own, VOCABULARY.labor.keywords) || saidPlainly(own, VOCABULARY.labor.add);
  return minutes !== null && triggered
    ? { minutes, mode: saidPlainly(own, VOCABULARY.labor.add) ? "add" : "set" }
    : null;
}

/** The message only acknowledges ("thanks", "ok", "got it"): it answers nothing and asks nothing. */
export function acknowledges(clauses: readonly TLexClause[]): boolean {
  return (
    clauses.length > 0 &&
    clauses.every((clause) => indexOf(VOCABULARY.acknowledgements).covers(clause.tokens, VOCABULARY.fillers))
  );
}

/** Report requests, and what may stand beside one ("ok give me the report"). */
const REPORT_OR_ACKNOWLEDGEMENT = [...VOCABULARY.reportRequests, ...VOCABULARY.acknowledgements];

/** The message only asks for the report ("START FINAL REPORT"): a command, never a note or a finding. */
export function requestsReport(clauses: readonly TLexClause[], own: readonly TLexClause[]): boolean {
  return (
    said(own, VOCABULARY.reportRequests) &&
    clauses.every((clause) => indexOf(REPORT_OR_ACKNOWLEDGEMENT).covers(clause.tokens, VOCABULARY.fillers))
  );
}
