import type { TProcedureCatalog, TProcedureView } from "@solserver/contracts";
import {
  getStep,
  getSystem,
  localSystem,
  optionsOf,
  recordedAnswer,
  type TCatalog,
  type TContextState,
  type TStep,
} from "@solserver/engine";

// What the API and the dashboard show of a procedure thread: read off the engine's state and the
// catalog's text. Nothing here decides flow; it only describes what the engine decided.

/** The finding a completed step recorded, or null (a step passed as not checked has none). */
/** A completed step's recorded answer: the catalog's finding key, and its label in `system`'s language. */
function answerOf(
  catalog: TCatalog,
  state: TContextState,
  stepId: string,
  local: TStep | null,
): { finding: string | null; label: string | null } {
  const step = getStep(catalog, state.system_id, stepId);
  const answer = step === null ? null : recordedAnswer(step, state.evidence);
  if (answer === null) return { finding: null, label: null };
  return {
    finding: answer.finding,
    label: local?.answers.find((a) => a.id === answer.id)?.label ?? answer.label ?? null,
  };
}

export type TStateSource = { version: number; updatedAt: Date; source: TProcedureView["state_source"] };

/** The view in the technician's language: step texts and options as the technician is offered them. */
export function procedureView(catalog: TCatalog, state: TContextState, at: TStateSource): TProcedureView {
  const own = getSystem(catalog, state.system_id);
  const system = own === null ? null : localSystem(catalog, own, state.language);
  const stepOf = (id: string): TStep | null => system?.procedure.steps.find((s) => s.id === id) ?? null;
  const activeStep = state.active_step === null ? null : stepOf(state.active_step);
  const rule = (system?.safety_rules ?? []).find((r) => r.id === state.safety?.rule);
  return {
    system_id: state.system_id,
    system_title: system?.name ?? state.system_id,
    procedure_id: state.procedure_id,
    procedure_title: system?.procedure.title ?? state.procedure_id,
    mode: state.mode,
    language: state.language,
    submode: state.submode,
    active_step:
      activeStep === null || state.mode !== "diagnostic"
        ? null
        : { id: activeStep.id, question: activeStep.question, options: optionsOf(activeStep) },
    directive_kind: state.guard.last_directive_kind,
    completed_steps: state.completed.map((id) => ({
      id,
      question: stepOf(id)?.question ?? id,
      ...answerOf(catalog, state, id, stepOf(id)),
    })),
    total_steps: system?.procedure.steps.length ?? 0,
    evidence: { ...state.evidence },
    labor: { draft_minutes: state.labor.draft_minutes, lines: state.labor.lines.map((l) => ({ ...l })) },
    unchecked_steps: Object.entries(state.not_checked).map(([id, entry]) => ({
      id,
      question: stepOf(id)?.question ?? id,
      reason: entry.reason,
      passed: entry.passed,
    })),
    safety:
      state.safety === null ? null : { rule: state.safety.rule, instruction: rule?.instruction ?? state.safety.rule },
    observations: state.observations.map((o) => ({
      rule: o.rule,
      label: (system?.evidence_rules ?? []).find((r) => r.id === o.rule)?.label ?? o.rule,
      text: o.text,
    })),
    report: state.report,
    report_history: state.report_history,
    version: at.version,
    state_source: at.source,
    updated_ts: at.updatedAt.toISOString(),
  };
}

/** The catalog's systems for pickers. */
export function catalogView(catalog: TCatalog): TProcedureCatalog {
  return {
    catalog_id: catalog.id,
    title: catalog.title ?? catalog.id,
    systems: catalog.systems.map((s) => ({
      system_id: s.id,
      title: s.name,
      procedure_id: s.procedure.id,
      procedure_title: s.procedure.title,
      steps: s.procedure.steps.length,
      keywords: [...s.detect.keywords],
    })),
  };
}
