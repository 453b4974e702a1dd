// The context engine: the SINGLE FLOW AUTHORITY of a guided diagnosis (ADR 004). Given the
// catalog, the state and the technician's message, contextTurn decides the next step, the mode,
// the sub-topic, replans and the loop guard, and returns the directive for the model. The
// registry (registry.ts) only supplies data. Pure: no I/O, no clock, no randomness; the input
// state is never mutated and the same inputs always give the same outputs.
//
// One turn:
//   • a sub-topic opened last turn (locate / explain / howto) is popped: back to the main line
//   • the first message is the complaint: findings it states are noted, step 1 is asked
//   • diagnostic mode, by intent (intent.ts):
//       NEW_EVIDENCE contradicting a completed step → replan: roll back to that step (it and every
//                      step completed after it), record the new finding, follow its branch
//       ANSWER       → record the finding, complete the step, advance (below)
//       LOCATE / EXPLAIN / HOWTO → push a sub-topic; answer briefly, then re-ask the active step
//       NEW_EVIDENCE for a step not asked yet → noted; applied when that step comes up
//       UNCLEAR      → loop guard: more information once, then rephrase, then escalate
//   • authorization mode: yes / no → final_report; contradictions replan; unclear → loop guard
//   • final_report mode: the report is repeated
//
// Advancing from an answer: answer.next, else the step's default_next, else the next step in
// catalog order. A target that is completed, or whose `requires` does not hold, is passed over.
// Targets only point forward (the catalog schema enforces it), so advancing always ends, and a
// completed step is never asked again. "report" → authorization mode. An answer marked
// `escalate: "warranty"` stops the diagnosis with an escalation instead of continuing.
//
// Evidence: `evidence` holds the findings of completed steps only (what the flow and the report
// rely on); `evidence_log` holds everything stated, including findings noted for steps not asked
// yet. A noted finding never completes a step by itself (a complaint like "slide won't move" is
// a symptom, not the manual-override test): when its step comes up, the model is told what the
// technician said and asks them to confirm it with the check.

import {
  DEFAULT_STEP_MINUTES,
  findingKey,
  findingValue,
  REPORT,
  type TAnswer,
  type TCatalog,
  type TStep,
  type TSystem,
} from "./catalog-schema";
import {
  answerClarification,
  askMoreInfo,
  askStep,
  escalateLoop,
  escalateWarranty,
  finalReport,
  labelOf,
  rephraseAuthorization,
  rephraseStep,
  requestAuthorization,
  type TDirectiveContext,
} from "./directive";
import { classifyMessage, notedFinding, type TClassification, type TMention } from "./intent";
import { getSystem } from "./registry";
import { buildReport, causeOf, correctionOf, decisiveFinding, recordedAnswer } from "./report";
import {
  AUTHORIZATION_KEY,
  CONTEXT_STATE_VERSION,
  ContextEngineError,
  evidenceValue,
  MAX_REASKS,
  type TContextEvent,
  type TContextMode,
  type TContextState,
  type TContextTurn,
  type TDirective,
} from "./state";

/** One turn's working context: the catalog data and the events so far. */
type TCtx = TDirectiveContext & { events: TContextEvent[] };
type TOutcome = { kind: "step"; step: TStep } | { kind: "report" } | { kind: "escalate"; step: TStep; answer: TAnswer };

function systemOf(catalog: TCatalog, systemId: string): TSystem {
  const system = getSystem(catalog, systemId);
  if (system === null)
    throw new ContextEngineError("unknown_system", `no system ${JSON.stringify(systemId)} in the catalog`);
  return system;
}

function stepOf(system: TSystem, stepId: string): TStep {
  const step = system.procedure.steps.find((s) => s.id === stepId);
  if (step === undefined)
    throw new ContextEngineError("unknown_step", `no step ${JSON.stringify(stepId)} in ${system.id}`);
  return step;
}

const indexOf = (system: TSystem, stepId: string) => system.procedure.steps.findIndex((s) => s.id === stepId);
const nextOf = (step: TStep, answer: TAnswer) => answer.next ?? step.default_next;
const withoutKey = <V>(record: Record<string, V>, key: string) =>
  Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));

// ── State updates ─────────────────────────────────────────────────────────────────────────────

/** Logs a finding stated for a step that is not being completed now. */
function note(s: TContextState, step: TStep, answer: TAnswer): void {
  s.evidence_log.push({ step: step.id, finding: answer.finding, turn: s.turn });
}

/** Records a finding and completes its step; labor grows by the step's minutes, never gates. */
function complete(ctx: TCtx, s: TContextState, step: TStep, answer: TAnswer, via: "answer" | "replan"): void {
  s.evidence[findingKey(answer.finding)] = findingValue(answer.finding);
  note(s, step, answer);
  if (!s.completed.includes(step.id)) s.completed.push(step.id);
  const minutes = step.minutes ?? DEFAULT_STEP_MINUTES;
  s.labor.lines.push({ step: step.id, minutes });
  s.labor.draft_minutes += minutes;
  s.guard.reasks = withoutKey(s.guard.reasks, step.id);
  ctx.events.push({ type: "step_completed", detail: { step: step.id, finding: answer.finding, via, minutes } });
}

/** Un-completes `stepId` and every step completed after it; their evidence and labor go too. */
function rollback(ctx: TCtx, s: TContextState, stepId: string): string[] {
  const at = s.completed.indexOf(stepId);
  const rolled = s.completed.slice(at);
  s.completed = s.completed.slice(0, at);
  for (const id of rolled) {
    const step = stepOf(ctx.system, id);
    s.evidence = withoutKey(s.evidence, findingKey(step.answers[0]?.finding ?? ""));
  }
  s.labor.lines = s.labor.lines.filter((line) => !rolled.includes(line.step));
  s.labor.draft_minutes = s.labor.lines.reduce((sum, line) => sum + line.minutes, 0);
  return rolled;
}

function setMode(ctx: TCtx, s: TContextState, mode: TContextMode): void {
  if (s.mode === mode) return;
  ctx.events.push({ type: "mode_change", detail: { from: s.mode, to: mode } });
  if (s.mode === "authorization") s.guard.reasks = withoutKey(s.guard.reasks, AUTHORIZATION_KEY);
  s.mode = mode;
}

// ── Flow ──────────────────────────────────────────────────────────────────────────────────────

/** Where the procedure goes after `from` (see the header): the next step to ask, or the report. */
function advance(ctx: TCtx, s: TContextState, from: number, target: string | undefined): TOutcome {
  const steps = ctx.system.procedure.steps;
  let index = from;
  let next = target;
  for (;;) {
    if (next === REPORT) return { kind: "report" };
    let at = next === undefined ? -1 : steps.findIndex((step) => step.id === next);
    if (at <= index) at = index + 1; // only forward: guarantees the loop ends
    const step = steps[at];
    if (step === undefined) return { kind: "report" };
    index = at;
    if (s.completed.includes(step.id)) {
      const earlier = recordedAnswer(step, s.evidence);
      next = earlier === null ? undefined : nextOf(step, earlier);
      continue;
    }
    const branch = step.requires?.finding;
    if (branch === undefined || evidenceValue(s.evidence, findingKey(branch)) === findingValue(branch))
      return { kind: "step", step };
    next = undefined;
  }
}

/** After a step's answer: an escalation when the answer forbids continuing, else advance. */
function after(ctx: TCtx, s: TContextState, step: TStep, answer: TAnswer): TOutcome {
  if (answer.escalate === "warranty") return { kind: "escalate", step, answer };
  return advance(ctx, s, indexOf(ctx.system, step.id), nextOf(step, answer));
}

/** Applies an outcome to the state and returns the directive that carries it out. */
function settle(ctx: TCtx, s: TContextState, outcome: TOutcome, lead: string): TDirective {
  s.active_step = outcome.kind === "step" ? outcome.step.id : null;
  if (outcome.kind === "step") {
    setMode(ctx, s, "diagnostic");
    const noted = notedFinding(s, outcome.step.id);
    const said = outcome.step.answers.find((a) => a.finding === noted);
    const hint =
      said === undefined
        ? ""
        : ` The technician said earlier: "${labelOf(said)}" (${said.finding}); ask them to confirm it with this check.`;
    const directive = askStep(ctx, outcome.step, `${lead}${hint}`);
    return said === undefined ? directive : { ...directive, earlier: labelOf(said) };
  }
  if (outcome.kind === "report") {
    setMode(ctx, s, "authorization");
    const decisive = decisiveFinding(ctx.system, s);
    return requestAuthorization(ctx, decisive?.step ?? null, causeOf(decisive), correctionOf(decisive), lead);
  }
  s.report = buildReport(ctx.system, s, null, "warranty");
  setMode(ctx, s, "final_report");
  ctx.events.push({
    type: "escalate",
    detail: { reason: "warranty", step: outcome.step.id, finding: outcome.answer.finding },
  });
  return escalateWarranty(ctx, outcome.step, s.report, lead);
}

function noteAll(s: TContextState, mentions: readonly TMention[]): string[] {
  for (const m of mentions) note(s, m.step, m.answer);
  return mentions.map((m) => m.answer.finding);
}

function complaintTurn(ctx: TCtx, s: TContextState, active: TStep, message: string): TDirective {
  s.complaint = message;
  // The complaint describes the problem; it answers no step. Specific findings in it are noted.
  const c = classifyMessage(ctx.system, { ...s, active_step: null }, message);
  const noted = noteAll(s, c.fresh);
  ctx.events.push({ type: "intent", detail: { intent: "COMPLAINT", noted } });
  return settle(ctx, s, { kind: "step", step: active }, "Acknowledge the complaint in one sentence.");
}

function replanTurn(ctx: TCtx, s: TContextState, c: TClassification): TDirective {
  const [first, ...others] = c.contradictions;
  if (first === undefined) throw new ContextEngineError("invalid_state", "replan without a contradiction");
  const before = recordedAnswer(first.step, s.evidence);
  const rolled = rollback(ctx, s, first.step.id);
  s.report = null;
  s.topic_stack = [];
  ctx.events.push({
    type: "replan",
    detail: { step: first.step.id, from: before?.finding ?? null, to: first.answer.finding, rolled_back: rolled },
  });
  complete(ctx, s, first.step, first.answer, "replan");
  noteAll(s, [...others, ...c.fresh]);
  const setAside = rolled.filter((id) => id !== first.step.id);
  const lead = [
    `The technician corrected an earlier answer. Tell them briefly: you said earlier "${before ? labelOf(before) : "something else"}";`,
    `now "${labelOf(first.answer)}", so we go back to step ${first.step.id} ("${first.step.question}").`,
    setAside.length > 0 ? `Steps set aside and asked again if still needed: ${setAside.join(", ")}.` : "",
    "Then:",
  ]
    .filter((part) => part !== "")
    .join(" ");
  const directive = settle(ctx, s, after(ctx, s, first.step, first.answer), lead);
  if (s.mode === "diagnostic") s.submode = "replan";
  const replan = {
    step_id: first.step.id,
    question: first.step.question,
    from: before ? labelOf(before) : null,
    to: labelOf(first.answer),
    set_aside: setAside,
  };
  return directive.kind === "escalate" ? { ...directive, replan } : { ...directive, kind: "replan", replan };
}

/** An unclear reply: more information once, never twice in a row; then rephrase; then escalate. */
function unclearTurn(ctx: TCtx, s: TContextState, step: TStep | null, moreInfoBefore: boolean): TDirective {
  const key = step === null ? AUTHORIZATION_KEY : step.id;
  const reasks = (Object.hasOwn(s.guard.reasks, key) ? (s.guard.reasks[key] ?? 0) : 0) + 1;
  s.guard.reasks = { ...s.guard.reasks, [key]: reasks };
  if (reasks > MAX_REASKS) {
    ctx.events.push({ type: "loop_guard", detail: { rule: "max_reasks", step: key, reasks } });
    ctx.events.push({ type: "escalate", detail: { reason: "loop_guard", step: key } });
    return escalateLoop(ctx, step, reasks);
  }
  if (reasks >= 2 || moreInfoBefore) {
    ctx.events.push({ type: "loop_guard", detail: { rule: "no_more_info_twice", step: key, reasks } });
    if (step !== null) return rephraseStep(ctx, step);
    const decisive = decisiveFinding(ctx.system, s);
    return rephraseAuthorization(ctx, decisive?.step ?? null, causeOf(decisive), correctionOf(decisive));
  }
  s.guard.more_info_asked_last = true;
  if (step !== null) return askMoreInfo(ctx, step);
  const decisive = decisiveFinding(ctx.system, s);
  return requestAuthorization(
    ctx,
    decisive?.step ?? null,
    causeOf(decisive),
    correctionOf(decisive),
    "The reply did not answer the authorization request.",
  );
}

function intentEvent(ctx: TCtx, s: TContextState, c: TClassification): void {
  ctx.events.push({
    type: "intent",
    detail: {
      intent: c.intent,
      step: s.active_step,
      answer: c.answer?.id ?? null,
      topic: c.topic,
      ambiguous: c.ambiguous,
      contradicts: c.contradictions.map((m) => m.step.id),
      correction: c.correction,
      noted: c.fresh.map((m) => m.answer.finding),
    },
  });
}

function pushTopic(ctx: TCtx, s: TContextState, kind: NonNullable<TClassification["topic"]>, step: TStep): void {
  s.topic_stack.push({ kind, step: step.id });
  s.submode = kind;
  ctx.events.push({ type: "topic_push", detail: { kind, step: step.id } });
}

function diagnosticTurn(ctx: TCtx, s: TContextState, message: string, moreInfoBefore: boolean): TDirective {
  const active = stepOf(ctx.system, s.active_step ?? "");
  const c = classifyMessage(ctx.system, s, message);
  intentEvent(ctx, s, c);
  if (c.intent === "NEW_EVIDENCE" && c.contradictions.length > 0) return replanTurn(ctx, s, c);
  if (c.intent === "ANSWER" && c.answer !== null) {
    noteAll(s, c.fresh);
    complete(ctx, s, active, c.answer, "answer");
    const directive = settle(ctx, s, after(ctx, s, active, c.answer), `Recorded ${c.answer.finding}.`);
    return { ...directive, recorded: labelOf(c.answer) };
  }
  if (c.topic !== null) {
    noteAll(s, c.fresh);
    pushTopic(ctx, s, c.topic, active);
    return answerClarification(ctx, c.topic, active, "step");
  }
  if (c.fresh.length > 0) {
    const noted = noteAll(s, c.fresh);
    return askStep(ctx, active, `Note the new evidence (${noted.join(", ")}); it is used when its step comes up.`);
  }
  return unclearTurn(ctx, s, active, moreInfoBefore);
}

function authorizationTurn(ctx: TCtx, s: TContextState, message: string, moreInfoBefore: boolean): TDirective {
  const c = classifyMessage(ctx.system, s, message);
  intentEvent(ctx, s, c);
  if (c.intent === "NEW_EVIDENCE" && c.contradictions.length > 0) return replanTurn(ctx, s, c);
  const decisive = decisiveFinding(ctx.system, s);
  if (c.intent === "ANSWER" && c.answer !== null) {
    noteAll(s, c.fresh);
    s.report = buildReport(ctx.system, s, c.answer.id === "yes", null);
    setMode(ctx, s, "final_report");
    return { ...finalReport(ctx, decisive?.step ?? null, s.report), recorded: c.answer.id };
  }
  if (c.topic !== null && decisive !== null) {
    noteAll(s, c.fresh);
    pushTopic(ctx, s, c.topic, decisive.step);
    return answerClarification(ctx, c.topic, decisive.step, "authorization");
  }
  if (c.fresh.length > 0) {
    const noted = noteAll(s, c.fresh);
    return requestAuthorization(
      ctx,
      decisive?.step ?? null,
      causeOf(decisive),
      correctionOf(decisive),
      `Note the new evidence (${noted.join(", ")}).`,
    );
  }
  return unclearTurn(ctx, s, null, moreInfoBefore);
}

// ── Public API ────────────────────────────────────────────────────────────────────────────────

/** A fresh case for a system: diagnostic mode, the procedure's first step active, no complaint yet. */
export function startContext(catalog: TCatalog, systemId: string): TContextState {
  const system = systemOf(catalog, systemId);
  const first = system.procedure.steps[0];
  if (first === undefined) throw new ContextEngineError("unknown_step", `${system.id} has an empty procedure`);
  return {
    v: CONTEXT_STATE_VERSION,
    system_id: system.id,
    procedure_id: system.procedure.id,
    mode: "diagnostic",
    submode: "main",
    active_step: first.id,
    completed: [],
    evidence: {},
    evidence_log: [],
    topic_stack: [],
    guard: { reasks: {}, last_directive_kind: null, more_info_asked_last: false },
    labor: { draft_minutes: 0, lines: [] },
    turn: 0,
    complaint: null,
    report: null,
  };
}

/**
 * One technician message → the next state, the directive for the model, and trace events. The
 * first message of a case is its complaint. Throws ContextEngineError when the state does not
 * fit the catalog (validate persisted state with parseContextState first).
 */
export function contextTurn(catalog: TCatalog, state: TContextState, message: string): TContextTurn {
  if (state.v !== CONTEXT_STATE_VERSION)
    throw new ContextEngineError("invalid_state", `state version ${String(state.v)} is not ${CONTEXT_STATE_VERSION}`);
  const system = systemOf(catalog, state.system_id);
  if (state.procedure_id !== system.procedure.id)
    throw new ContextEngineError(
      "invalid_state",
      `state is for procedure ${state.procedure_id}, not ${system.procedure.id}`,
    );
  for (const id of [...state.completed, ...(state.active_step === null ? [] : [state.active_step])]) stepOf(system, id);
  if (state.mode === "diagnostic" && state.active_step === null)
    throw new ContextEngineError("invalid_state", "diagnostic mode needs an active step");
  if (state.mode === "final_report" && state.report === null)
    throw new ContextEngineError("invalid_state", "final_report mode needs a report");

  const ctx: TCtx = { catalog, system, events: [] };
  const s = structuredClone(state);
  s.turn += 1;
  const moreInfoBefore = s.guard.more_info_asked_last;
  s.guard.more_info_asked_last = false;
  // A sub-topic lasts one turn: this message is back on the main line.
  for (let topic = s.topic_stack.pop(); topic !== undefined; topic = s.topic_stack.pop())
    ctx.events.push({ type: "topic_pop", detail: { kind: topic.kind, step: topic.step } });
  s.submode = "main";

  let directive: TDirective;
  if (s.complaint === null) directive = complaintTurn(ctx, s, stepOf(system, s.active_step ?? ""), message);
  else if (s.mode === "diagnostic") directive = diagnosticTurn(ctx, s, message, moreInfoBefore);
  else if (s.mode === "authorization") directive = authorizationTurn(ctx, s, message, moreInfoBefore);
  else {
    const report = s.report ?? buildReport(system, s, null, null);
    directive = finalReport(ctx, decisiveFinding(system, s)?.step ?? null, report);
  }
  s.guard.last_directive_kind = directive.kind;
  return { state: s, directive, events: ctx.events };
}
