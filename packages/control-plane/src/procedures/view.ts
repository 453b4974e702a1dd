import type { TProcedureCatalog, TProcedureView } from "@solserver/contracts";
import { getStep, getSystem, optionsOf, recordedAnswer, type TCatalog, type TContextState } from "@solserver/engine";

// What the API and the dashboard show of a procedure thread: read off the engine's state and the
// catalog's text. Nothing here decides flow; it only describes what the engine decided.

/** The answer labels of a step, as the technician is offered them. */
function optionsOfStep(catalog: TCatalog, systemId: string, stepId: string): string[] {
  const step = getStep(catalog, systemId, stepId);
  return step === null ? [] : optionsOf(step);
}

/** The finding a completed step recorded, or null. */
function findingOf(catalog: TCatalog, state: TContextState, stepId: string): string | null {
  const step = getStep(catalog, state.system_id, stepId);
  return step === null ? null : (recordedAnswer(step, state.evidence)?.finding ?? null);
}

export type TStateSource = { version: number; updatedAt: Date; source: TProcedureView["state_source"] };

export function procedureView(catalog: TCatalog, state: TContextState, at: TStateSource): TProcedureView {
  const system = getSystem(catalog, state.system_id);
  const activeStep = state.active_step === null ? null : getStep(catalog, state.system_id, state.active_step);
  return {
    system_id: state.system_id,
    system_title: system?.name ?? state.system_id,
    procedure_id: state.procedure_id,
    procedure_title: system?.procedure.title ?? state.procedure_id,
    mode: state.mode,
    submode: state.submode,
    active_step:
      activeStep === null || state.mode !== "diagnostic"
        ? null
        : {
            id: activeStep.id,
            question: activeStep.question,
            options: optionsOfStep(catalog, state.system_id, activeStep.id),
          },
    directive_kind: state.guard.last_directive_kind,
    completed_steps: state.completed.map((id) => ({
      id,
      question: getStep(catalog, state.system_id, id)?.question ?? id,
      finding: findingOf(catalog, state, id),
    })),
    total_steps: system?.procedure.steps.length ?? 0,
    evidence: { ...state.evidence },
    labor: { draft_minutes: state.labor.draft_minutes, lines: state.labor.lines.map((l) => ({ ...l })) },
    report: state.report,
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
