import { DomainError, type TProcedureChoice, type TProcedureView } from "@solserver/contracts";
import type { TContextWrite, TStoredContext } from "@solserver/db";
import {
  ContextEngineError,
  contextTurn,
  detectSystem,
  getSystem,
  parseContextState,
  startContext,
  type TCatalog,
  type TContextState,
  type TContextTurn,
} from "@solserver/engine";
import type { TModelProcedure } from "../model/provider";
import type { TServiceDeps } from "../services/deps";
import type { createTraceLog } from "../services/trace-log";
import { directiveSummary, eventSummary } from "./trace";
import { procedureView } from "./view";

// Procedure mode in the turn pipeline (seed 004). The context engine is the single flow
// authority: this module only binds a thread to a catalog system (the caller's choice, or the
// registry's detectSystem on the first message), loads or rebuilds the engine's state, hands the
// message to contextTurn, and carries its decision to the model, the trace and the database.
// It never picks a step, a mode or a branch itself (test/procedure-authority.test.ts).

type TTrace = ReturnType<typeof createTraceLog>;

/** The engine's state of a bound thread, as the database has it or rebuilt from the messages. */
export type TLoadedState = {
  context: TStoredContext;
  state: TContextState;
  /** The version a write must be conditional on; null when no state row exists. */
  expectedVersion: number | null;
  source: TProcedureView["state_source"];
  /** Messages replayed to rebuild the state (0 when it was read as stored). */
  replayed: number;
  /** Why the state was rebuilt, when it was. */
  reason: string | null;
};

/** What a turn does in procedure mode. */
export type TProcedurePlan =
  | { kind: "none" }
  | { kind: "choose_system"; model: TModelProcedure }
  | { kind: "engine"; turn: TContextTurn; write: TContextWrite; model: TModelProcedure };

/** A system id the caller chose must be in the catalog: BAD_INPUT naming the field otherwise. */
export function checkProcedureChoice(catalog: TCatalog, choice: TProcedureChoice | undefined): void {
  if (choice === undefined || choice === "auto" || choice === "none" || getSystem(catalog, choice) !== null) return;
  const known = catalog.systems.map((s) => s.id).join(", ");
  throw new DomainError(
    "BAD_INPUT",
    `procedure: "${choice}" is not a system of the procedure catalog; use "auto", "none" or one of: ${known}`,
    { field: "procedure" },
  );
}

/** Replays the thread's messages since its binding through the engine, from a fresh case. */
async function rebuild(
  deps: TServiceDeps,
  context: TStoredContext,
): Promise<{ state: TContextState; replayed: number }> {
  const messages = await deps.repos.contexts.messages(context.threadId, context.boundAt);
  let state = startContext(deps.catalog, context.systemId);
  for (const message of messages) state = contextTurn(deps.catalog, state, message).state;
  return { state, replayed: messages.length };
}

/**
 * The engine state of a bound thread: the stored one when it parses and belongs to the thread's
 * system, else rebuilt from the messages (a lost row, or a state from another catalog version).
 * Null when the thread is not bound; CONFLICT when its system has left the catalog (the operator
 * changed SOLSERVER_PROCEDURE_CATALOG under it).
 */
export async function loadState(deps: TServiceDeps, threadId: string): Promise<TLoadedState | null> {
  const context = await deps.repos.contexts.get(threadId);
  if (context === null) return null;
  if (getSystem(deps.catalog, context.systemId) === null) {
    throw new DomainError(
      "CONFLICT",
      `thread ${threadId} is bound to the procedure system "${context.systemId}", which the procedure catalog no longer has`,
      { field: "procedure" },
    );
  }
  const stored = context.stored;
  const expectedVersion = stored?.version ?? null;
  if (stored !== null && stored.systemId === context.systemId) {
    const parsed = safeParseState(stored.state);
    if (parsed !== null)
      return { context, state: parsed, expectedVersion, source: "stored", replayed: 0, reason: null };
  }
  const reason = stored === null ? "no stored state" : "the stored state does not fit the catalog";
  const rebuilt = await rebuild(deps, context);
  return { context, ...rebuilt, expectedVersion, source: "rebuilt", reason };
}

function safeParseState(input: unknown): TContextState | null {
  try {
    return parseContextState(input);
  } catch {
    return null;
  }
}

/** What the model is given of an engine turn: the directive with the system and procedure names. */
export function modelDirective(catalog: TCatalog, turn: TContextTurn): TModelProcedure {
  const system = getSystem(catalog, turn.state.system_id);
  return {
    kind: "directive",
    system: system?.name ?? turn.state.system_id,
    procedure: system?.procedure.title ?? turn.state.procedure_id,
    mode: turn.state.mode,
    directive: turn.directive,
    events: turn.events,
    findingLabels: Object.fromEntries(
      (system?.procedure.steps ?? []).flatMap((step) =>
        step.answers.flatMap((a) => (a.label ? [[a.finding, a.label] as const] : [])),
      ),
    ),
  };
}

function traceRebuild(trace: TTrace, systemId: string, replayed: number, reason: string): void {
  trace.add("context", `State rebuilt from ${replayed} message(s): ${reason}`, {
    system_id: systemId,
    replayed,
    reason,
  });
}

function traceTurn(trace: TTrace, turn: TContextTurn, started: number): void {
  for (const event of turn.events) trace.add("context", eventSummary(event), { type: event.type, ...event.detail });
  trace.add("context", directiveSummary(turn.directive), {
    kind: turn.directive.kind,
    step_id: turn.directive.step_id ?? null,
    mode: turn.state.mode,
    submode: turn.state.submode,
    active_step: turn.state.active_step,
    completed: turn.state.completed.length,
    labor_draft_minutes: turn.state.labor.draft_minutes,
    duration_ms: Math.round((performance.now() - started) * 10) / 10,
  });
}

/**
 * Runs the context engine for a turn, or says why not. A bound thread always runs it (whatever
 * the turn asks for); an unbound one binds when the caller names a system, or asks for "auto"
 * and the registry detects one in the message.
 */
export async function planProcedure(
  deps: TServiceDeps,
  trace: TTrace,
  turn: { threadId: string; existing: boolean; choice: TProcedureChoice | undefined; message: string },
): Promise<TProcedurePlan> {
  const started = performance.now();
  const loaded = turn.existing ? await loadState(deps, turn.threadId) : null;
  if (loaded !== null) {
    if (loaded.source === "rebuilt") traceRebuild(trace, loaded.context.systemId, loaded.replayed, loaded.reason ?? "");
    let result: TContextTurn;
    let replayed = loaded.replayed;
    try {
      result = contextTurn(deps.catalog, loaded.state, turn.message);
    } catch (error) {
      if (!(error instanceof ContextEngineError)) throw error;
      // The stored state names steps the catalog no longer has: rebuild it and go again.
      const rebuilt = await rebuild(deps, loaded.context);
      traceRebuild(trace, loaded.context.systemId, rebuilt.replayed, error.message);
      replayed = rebuilt.replayed;
      result = contextTurn(deps.catalog, rebuilt.state, turn.message);
    }
    traceTurn(trace, result, started);
    const write: TContextWrite = {
      bind: null,
      systemId: loaded.context.systemId,
      expectedVersion: loaded.expectedVersion,
      // With the stored state lost, this turn is the diagnosis's (replayed + 1)th.
      insertVersion: replayed + 1,
      state: result.state,
    };
    return {
      kind: "engine",
      turn: result,
      write,
      model: modelDirective(deps.catalog, result),
    };
  }

  const choice = turn.choice ?? "none";
  if (choice === "none") return { kind: "none" };
  let systemId = choice;
  if (choice === "auto") {
    const match = detectSystem(deps.catalog, turn.message);
    if (match === null) {
      trace.add("context", "No catalog system recognised in the message: the model asks which one", {
        choice,
        systems: deps.catalog.systems.map((s) => s.id),
      });
      const systems = deps.catalog.systems.map((s) => ({ id: s.id, name: s.name, keywords: s.detect.keywords }));
      return { kind: "choose_system", model: { kind: "choose_system", systems } };
    }
    systemId = match.system_id;
    trace.add("context", `Procedure detected: ${systemId} (score ${match.score})`, { choice, ...match });
  } else {
    trace.add("context", `Procedure chosen: ${systemId}`, { choice, system_id: systemId });
  }
  const result = contextTurn(deps.catalog, startContext(deps.catalog, systemId), turn.message);
  traceTurn(trace, result, started);
  return {
    kind: "engine",
    turn: result,
    write: { bind: systemId, systemId, expectedVersion: null, insertVersion: 1, state: result.state },
    model: modelDirective(deps.catalog, result),
  };
}

/** The API's view of a plan after its turn was stored at `version`. */
export function plannedView(
  deps: TServiceDeps,
  plan: TProcedurePlan,
  stored: { version: number; updatedAt: Date } | null | undefined,
): TProcedureView | null {
  if (plan.kind !== "engine" || !stored) return null;
  return procedureView(deps.catalog, plan.turn.state, { ...stored, source: "stored" });
}
