// The final report (complaint / cause / correction), derived from the state and the catalog. It
// is written in English, the shop's record, with a copy in the technician's language. A report is
// versioned: a correction, a labor change, new evidence or a note after it makes a new revision
// and the earlier ones are kept (state.report_history).

import { findingKey, findingValue, type TAnswer, type TStep, type TSystem } from "./catalog-schema";
import { evidenceValue, type TContextState, type TReport } from "./state";

export const NO_CORRECTION = "The catalog has no correction for this finding: the technician specifies the repair.";
export const NO_FINDING = "No finding recorded.";
/** Labor lines the technician added or corrected (not a step). */
export const TECHNICIAN_LINE = "@technician";

/** The answer a step's recorded evidence corresponds to, if any. */
export function recordedAnswer(step: TStep, evidence: Readonly<Record<string, string>>): TAnswer | null {
  const key = findingKey(step.answers[0]?.finding ?? "");
  const value = evidenceValue(evidence, key);
  if (value === undefined) return null;
  return step.answers.find((answer) => answer.finding === `${key}=${value}`) ?? null;
}

/** The step and answer the diagnosis concludes from (the engine walks the procedure to find it). */
export type TDecisive = {
  step: TStep;
  answer: TAnswer;
  /** The catalog doctrine that put this conclusion in place of the procedure's last finding. */
  doctrine?: { id: string; rule: string };
} | null;

export function causeOf(decisive: { step: TStep; answer: { cause?: string; finding: string } } | null): string {
  if (decisive === null) return NO_FINDING;
  return decisive.answer.cause ?? `Finding ${decisive.answer.finding} (${decisive.step.question})`;
}

export function correctionOf(decisive: { answer: { correction?: string } } | null): string {
  return decisive?.answer.correction ?? NO_CORRECTION;
}

/** How the case ended: authorized or not, escalated (and why), or repaired by the technician. */
export type TOutcomeFields = Pick<TReport, "authorized" | "escalation" | "resolution" | "repair"> & {
  /** The evidence rule (id) whose cause and correction replace the procedure's. */
  rule?: string;
};

/** The report's parts, each readable in the catalog's texts (`system`) or the technician's (`local`). */
function reportParts(
  system: TSystem,
  local: TSystem,
  state: TContextState,
  outcome: TOutcomeFields,
  decisive: TDecisive,
) {
  const find = (sys: TSystem, id: string) => sys.procedure.steps.find((s) => s.id === id);
  const localDecisive =
    decisive === null
      ? null
      : {
          step: find(local, decisive.step.id) ?? decisive.step,
          answer:
            local.procedure.steps
              .find((s) => s.id === decisive.step.id)
              ?.answers.find((a) => a.id === decisive.answer.id) ?? decisive.answer,
        };
  // what the technician stated for a step the path never reached is theirs too ("ran it on
  // direct 12 V" beside a switch with no output): listed after the steps performed on the path
  const stated = system.procedure.steps.filter(
    (step) => !state.completed.includes(step.id) && Object.hasOwn(state.pending_findings, step.id),
  );
  const stepsOf = (sys: TSystem, labelled: boolean) =>
    [...state.completed, ...stated.map((step) => step.id)].flatMap((id) => {
      const step = find(sys, id);
      const flowStep = find(system, id);
      if (step === undefined || flowStep === undefined) return [];
      const answer = state.completed.includes(id)
        ? recordedAnswer(flowStep, state.evidence)
        : (flowStep.answers.find((a) => a.finding === state.pending_findings[id]) ?? null);
      if (answer === null) return [];
      const shown = labelled ? (step.answers.find((a) => a.id === answer.id)?.label ?? answer.finding) : answer.finding;
      return [{ step: id, question: step.question, finding: shown }];
    });
  const notChecked = (sys: TSystem) =>
    state.completed.flatMap((id) => {
      const entry = Object.hasOwn(state.not_checked, id) ? state.not_checked[id] : undefined;
      const step = find(sys, id);
      return entry?.passed === true && step !== undefined
        ? [{ step: id, question: step.question, reason: entry.reason }]
        : [];
    });
  const observations = (sys: TSystem) =>
    state.observations.map((o) => ({
      rule: o.rule,
      label: (sys.evidence_rules ?? []).find((r) => r.id === o.rule)?.label ?? o.rule,
      text: o.text,
    }));
  // the doctrine cited, in the system's words
  const doctrine = (sys: TSystem) => {
    const cited = outcome.rule === undefined ? decisive?.doctrine : undefined;
    const rule = cited === undefined ? undefined : (sys.doctrine ?? []).find((d) => d.id === cited.id);
    return cited === undefined ? [] : [{ id: cited.id, rule: rule?.rule ?? cited.rule }];
  };
  const ruleText = (sys: TSystem) => {
    const rule = (sys.evidence_rules ?? []).find((r) => r.id === outcome.rule);
    return rule === undefined ? null : { cause: rule.cause, correction: rule.correction };
  };
  const evidence = {
    ...state.evidence,
    ...Object.fromEntries(
      stated.map((step) => {
        const finding = state.pending_findings[step.id] ?? "";
        return [findingKey(finding), findingValue(finding)];
      }),
    ),
  };
  return { decisive, localDecisive, stepsOf, notChecked, observations, doctrine, ruleText, evidence };
}

/**
 * The report for the state as it is now: revision = one more than the kept history, the reason
 * the case was reopened (if it was), notes carried over from the last revision.
 */
export function buildReport(
  system: TSystem,
  local: TSystem,
  state: TContextState,
  decisive: TDecisive,
  outcome: TOutcomeFields,
  note?: string,
): TReport {
  const parts = reportParts(system, local, state, outcome, decisive);
  const previous = state.report_history.at(-1) ?? null;
  const english = parts.ruleText(system) ?? {
    cause: causeOf(parts.decisive),
    correction: correctionOf(parts.decisive),
  };
  const cause =
    outcome.resolution === "fixed_by_technician" && parts.decisive === null
      ? `Repaired by the technician before a cause was isolated.`
      : english.cause;
  const correction =
    outcome.resolution === "fixed_by_technician"
      ? `Repaired by the technician: ${outcome.repair ?? ""}`.trim()
      : english.correction;
  const translation =
    local === system
      ? null
      : (() => {
          const text = parts.ruleText(local) ?? {
            cause: causeOf(parts.localDecisive),
            correction: correctionOf(parts.localDecisive),
          };
          return {
            language: state.language,
            cause: outcome.resolution === "fixed_by_technician" && parts.decisive === null ? cause : text.cause,
            correction: outcome.resolution === "fixed_by_technician" ? (outcome.repair ?? "") : text.correction,
            steps_performed: parts.stepsOf(local, true),
            not_checked: parts.notChecked(local),
            observations: parts.observations(local),
            doctrine: parts.doctrine(local),
          };
        })();
  return {
    complaint: state.complaint ?? "",
    cause,
    correction,
    steps_performed: parts.stepsOf(system, false),
    evidence: parts.evidence,
    labor: {
      draft_minutes: state.labor.draft_minutes,
      lines: state.labor.lines.map((line) => ({ ...line })),
    },
    authorized: outcome.authorized,
    escalation: outcome.escalation,
    resolution: outcome.resolution,
    repair: outcome.repair,
    not_checked: parts.notChecked(system),
    observations: parts.observations(system),
    doctrine: parts.doctrine(system),
    notes: [...(previous?.notes ?? []), ...(note === undefined ? [] : [note])],
    revision: state.report_history.length + 1,
    revised_because: state.report_history.length === 0 ? null : (state.reopened_because ?? "revised"),
    translation,
  };
}

/** The outcome fields of an existing report (for a revision that changes labor or notes only). */
export function outcomeOf(report: TReport): TOutcomeFields {
  return {
    authorized: report.authorized,
    escalation: report.escalation,
    resolution: report.resolution,
    repair: report.repair,
  };
}
