// Test helper: drives a run to its end with scripted decisions and per-phase host data.

import {
  decide,
  phaseCompleted,
  phaseFailed,
  startRun,
  type TNextStep,
  type TRunState,
  type TStartOptions,
  type TWorkflow,
  ZRunState,
} from "../src";

/** A fixed clock: second `i` of 2025-10-31T14:00:00Z. */
export function at(i: number): string {
  return new Date(Date.UTC(2025, 9, 31, 14, 0, i)).toISOString();
}

type TDecision = string | { label: string; feedback?: string };
/** What the host's step did: its data and variables, or `error` (then phaseFailed is called). */
type THostResult = { data?: Record<string, unknown>; variables?: Record<string, unknown>; error?: string };
export type TScript = {
  decisions?: TDecision[];
  /** Host output for the phase that just ran (its id, and how many times it has run so far). */
  host?: (phaseId: string, run: number) => THostResult | undefined;
  start?: Omit<TStartOptions, "now">;
};

export function drive(
  workflow: TWorkflow,
  script: TScript = {},
): { state: TRunState; states: TRunState[]; ran: string[]; steps: Extract<TNextStep, { kind: "run_phase" }>[] } {
  const decisions = [...(script.decisions ?? [])];
  const runs = new Map<string, number>();
  const ran: string[] = [];
  const steps: Extract<TNextStep, { kind: "run_phase" }>[] = [];
  let clock = 0;
  let state = startRun(workflow, { ...script.start, now: at(clock) });
  const states = [state];
  for (let step = 0; step < 500; step++) {
    clock += 1;
    const next = state.next;
    if (next.kind === "finished") break;
    if (next.kind === "run_phase") {
      const count = (runs.get(next.phase_id) ?? 0) + 1;
      runs.set(next.phase_id, count);
      ran.push(next.phase_id);
      steps.push(next);
      const { error, ...result } = script.host?.(next.phase_id, count) ?? {};
      state =
        error === undefined
          ? phaseCompleted(workflow, state, { now: at(clock), ...result })
          : phaseFailed(workflow, state, { now: at(clock), phase_id: next.phase_id, error });
    } else {
      const decision = decisions.shift();
      if (decision === undefined) throw new Error(`no scripted decision left for ${next.phase_id}`);
      state = decide(workflow, state, {
        ...(typeof decision === "string" ? { label: decision } : decision),
        now: at(clock),
      });
    }
    ZRunState.parse(state);
    states.push(state);
  }
  if (decisions.length > 0) throw new Error(`unused decisions: ${decisions.join(", ")}`);
  return { state, states, ran, steps };
}
