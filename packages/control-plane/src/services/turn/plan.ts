import { decideBreakpointAction, shouldFreezeSummaryAtPeak } from "@solserver/engine";
import { planProcedure, type TProcedurePlan } from "../../procedures/procedure-turn";
import type { TServiceContext } from "../context";
import type { TAdmitted } from "./admit";
import { resolveBaseline, type TBaseline } from "./memento";
import type { TBreakpointView } from "./response";
import { selectRoute, type TSelection } from "./route";
import { since } from "./timing";

// Step 2, plan: how much work the turn deserves and under which rules. The baseline memento, the
// breakpoint decision and the peak guardrail (seed 000 steps 1-5), the context engine for a
// procedure thread (seed 004: it decides the flow before the model answers), and the selector's
// route (seed 001 §7.1: router_domain, modeLabel, strictness, retrieval scope).

export type TPlan = {
  readonly baseline: TBaseline;
  /** Signal kinds of the memento the client sent with this turn (seed 000 reads them there only). */
  readonly signalKinds: TBreakpointView["signal_kinds"];
  readonly decision: TBreakpointView["decision"];
  readonly peakGuardrailActive: boolean;
  /** An acknowledgement turn: no retrieval, no proposals, no repetitions. */
  readonly skip: boolean;
  readonly mayUpdateSummary: boolean;
  readonly procedure: TProcedurePlan;
  readonly selection: TSelection;
};

export async function plan({ deps }: TServiceContext, turn: TAdmitted): Promise<TPlan> {
  const { input, trace } = turn;
  const started = performance.now();
  const baseline = await resolveBaseline(deps, input.thread_id, input.context?.thread_memento);
  // Signals describe the turn the client is sending: a stored memento's old signals must not
  // decide every later turn.
  const signalKinds = (input.context?.thread_memento?.signals.items ?? []).map((i) => i.kind);
  const decision = decideBreakpointAction({ message: input.message, signalKinds });
  const peakGuardrailActive = shouldFreezeSummaryAtPeak({
    phase: baseline.memento.affect.rollup.phase,
    intensityBucket: baseline.memento.affect.rollup.intensityBucket,
    decision,
  });
  trace.add("breakpoint", `Breakpoint decision: ${decision.toUpperCase()}`, {
    kind: "breakpoint_engine",
    decision,
    peakGuardrailActive,
    source: baseline.source,
    duration_ms: since(started),
  });
  const skip = decision === "skip";

  // A bound thread runs the engine on every turn, acknowledgements included ("yes" answers a step).
  const procedure = await planProcedure(deps, trace, {
    threadId: turn.threadId,
    existing: turn.existing,
    choice: input.procedure,
    message: input.message,
  });
  const selection = await selectRoute(deps, trace, {
    threadId: turn.threadId,
    existing: turn.existing,
    message: input.message,
    procedureSystem: procedure.kind === "engine" ? procedure.turn.state.system_id : null,
  });
  return {
    baseline,
    signalKinds,
    decision,
    peakGuardrailActive,
    skip,
    mayUpdateSummary: !skip && !peakGuardrailActive,
    procedure,
    selection,
  };
}
