// The final report (complaint / cause / correction), derived from the state and the catalog.
// The decisive finding is the last completed step's: the answer that ended the diagnosis.

import { findingKey, type TAnswer, type TStep, type TSystem } from "./catalog-schema";
import { evidenceValue, type TContextState, type TReport } from "./state";

export const NO_CORRECTION = "The catalog has no correction for this finding: the technician specifies the repair.";

/** The answer a step's recorded evidence corresponds to, if any. */
export function recordedAnswer(step: TStep, evidence: Readonly<Record<string, string>>): TAnswer | null {
  const key = findingKey(step.answers[0]?.finding ?? "");
  const value = evidenceValue(evidence, key);
  if (value === undefined) return null;
  return step.answers.find((answer) => answer.finding === `${key}=${value}`) ?? null;
}

/** The last completed step and its answer: what the cause and correction come from. */
export function decisiveFinding(system: TSystem, state: TContextState): { step: TStep; answer: TAnswer } | null {
  const id = state.completed[state.completed.length - 1];
  const step = system.procedure.steps.find((s) => s.id === id);
  const answer = step === undefined ? null : recordedAnswer(step, state.evidence);
  return step !== undefined && answer !== null ? { step, answer } : null;
}

export function causeOf(decisive: { step: TStep; answer: TAnswer } | null): string {
  if (decisive === null) return "No finding recorded.";
  return decisive.answer.cause ?? `Finding ${decisive.answer.finding} (${decisive.step.question})`;
}

export function correctionOf(decisive: { step: TStep; answer: TAnswer } | null): string {
  return decisive?.answer.correction ?? NO_CORRECTION;
}

export function buildReport(
  system: TSystem,
  state: TContextState,
  authorized: boolean | null,
  escalation: "warranty" | null,
): TReport {
  const decisive = decisiveFinding(system, state);
  const steps = new Map(system.procedure.steps.map((step) => [step.id, step] as const));
  return {
    complaint: state.complaint ?? "",
    cause: causeOf(decisive),
    correction: correctionOf(decisive),
    steps_performed: state.completed.map((id) => {
      const step = steps.get(id);
      const answer = step === undefined ? null : recordedAnswer(step, state.evidence);
      return { step: id, question: step?.question ?? "", finding: answer?.finding ?? "" };
    }),
    evidence: { ...state.evidence },
    labor: { draft_minutes: state.labor.draft_minutes, lines: state.labor.lines.map((line) => ({ ...line })) },
    authorized,
    escalation,
  };
}
