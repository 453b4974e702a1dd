// The context engine: the SINGLE FLOW AUTHORITY of a guided diagnosis (ADR 004). Given the
// catalog, the state and the technician's message, contextTurn decides the next step, the mode,
// the sub-topic, replans, the loop guard and the report, and returns the directive for the model.
// The registry and the catalog only supply data. Pure: no I/O, no clock, no randomness; the input
// state is never mutated and the same inputs always give the same outputs.
//
// One turn (intent.ts reads the message; this file decides what it means in the current mode):
//   • the language is detected; replies and the report's copy follow it
//   • a sub-topic opened last turn (locate / explain / howto) is popped: back to the main line
//   • safety first, in every mode: a safety rule ("I smell propane") stops the case in
//     `safety_stop` with the catalog's instruction until the technician says it is cleared
//   • the first message is the complaint: the specific findings it states are recorded
//   • then, in diagnostic / authorization / final_report mode, in this order:
//       a retraction ("I never checked the fuse") reopens that step
//       a contradiction of a completed step (with "actually"/"wait", or when the message does not
//          answer the active step) → replan: roll back to that step, record, follow its branch
//       free-form evidence a rule knows ("refrigerant leak on the coil") → escalation with it
//       "fixed it" / "replaced the switch, works now" → report, repaired by the technician
//   • diagnostic: an answer (and every other finding stated with it) is recorded at once; a
//     labor statement edits the labor; "already told you" points back to the record; a non-answer
//     ("no idea", "no multimeter") records nothing: how to check it, then passed as NOT CHECKED;
//     a question is answered for the part it names; anything else → the loop guard
//   • authorization: only a plain yes authorizes, a plain no declines; a condition, a deferral or a
//     question is answered and the case waits
//   • final_report: a correction reopens the case (the next report is a new revision), a labor
//     change or a note makes a new revision, an acknowledgement changes nothing
//
// Evidence: `evidence` holds the findings of completed steps only (what the flow and the report
// rely on); `evidence_log` holds everything stated. A step passed as not checked is completed
// with no finding. A report is never edited in place: a revision is a new report, the old one
// goes to `report_history`.

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
  answerFromReport,
  askMoreInfo,
  askStep,
  authorizationPending,
  escalateEvidence,
  escalateLoop,
  escalateWarranty,
  finalReport,
  labelOf,
  localLabel,
  nonAnswer,
  rephraseAuthorization,
  rephraseStep,
  reportUpdate,
  requestAuthorization,
  safetyStop,
  type TDirectiveContext,
} from "./directive";
import {
  answerInComplaint,
  classifyMessage,
  notedFinding,
  type TClassification,
  type TClassifyOptions,
  type TMention,
} from "./intent";
import { catalogDetectWords, catalogLanguages, localSystem, matchingSystem } from "./localize";
import { getSystem } from "./registry";
import {
  buildReport,
  causeOf,
  correctionOf,
  outcomeOf,
  recordedAnswer,
  type TDecisive,
  TECHNICIAN_LINE,
  type TOutcomeFields,
} from "./report";
import {
  AUTHORIZATION_KEY,
  CONTEXT_STATE_VERSION,
  ContextEngineError,
  MAX_NON_ANSWERS,
  MAX_REASKS,
  recordsFinding,
  type TContextEvent,
  type TContextMode,
  type TContextState,
  type TContextTurn,
  type TDirective,
  type TIntent,
  type TNotCheckedReason,
} from "./state";
import { DEFAULT_LANGUAGE, detectLanguage } from "./vocabulary";

/** One turn's working context: the catalog data, the matching view of the system, the events so far. */
type TCtx = TDirectiveContext & { matching: TSystem; events: TContextEvent[]; message: string };

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

/** The catalog's own step and answer for a step and answer of the matching view (same ids). */
function own(ctx: TCtx, step: TStep, answer: TAnswer): { step: TStep; answer: TAnswer } {
  const s = stepOf(ctx.system, step.id);
  return { step: s, answer: s.answers.find((a) => a.id === answer.id) ?? answer };
}

const withoutKey = <V>(record: Record<string, V>, key: string) =>
  Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));

// ── Where the procedure goes ──────────────────────────────────────────────────────────────────
// After an answer: answer.next, else the step's default_next, else the next step in catalog order.
// A step that is completed (answered, or passed as not checked) is passed over along the answer
// recorded for it; a step whose `requires` does not hold is passed over. Targets only point
// forward (the catalog schema enforces it), so a walk always ends.

type TOutcome = { kind: "step"; step: TStep } | { kind: "report" } | { kind: "escalate"; step: TStep; answer: TAnswer };

const nextOf = (step: TStep, answer: TAnswer) => answer.next ?? step.default_next;

type TWalk = { outcome: TOutcome; last: { step: TStep; answer: TAnswer } | null };

function walk(
  system: TSystem,
  s: Pick<TContextState, "completed" | "evidence">,
  from: number,
  target: string | undefined,
): TWalk {
  const steps = system.procedure.steps;
  let index = from;
  let next = target;
  let last: TWalk["last"] = null;
  for (;;) {
    if (next === REPORT) return { outcome: { kind: "report" }, last };
    let at = next === undefined ? -1 : steps.findIndex((step) => step.id === next);
    if (at <= index) at = index + 1; // only forward: guarantees the loop ends
    const step = steps[at];
    if (step === undefined) return { outcome: { kind: "report" }, last };
    index = at;
    const branch = step.requires?.finding;
    const applies = branch === undefined || recordsFinding(s.evidence, branch);
    if (s.completed.includes(step.id)) {
      const earlier = recordedAnswer(step, s.evidence);
      if (earlier !== null && applies) last = { step, answer: earlier };
      next = earlier === null || !applies ? undefined : nextOf(step, earlier);
      continue;
    }
    if (applies) return { outcome: { kind: "step", step }, last };
    next = undefined;
  }
}

/** Where the procedure goes after the step at `from` (-1: from the start) toward `target`. */
function advance(
  system: TSystem,
  s: Pick<TContextState, "completed" | "evidence">,
  from: number,
  target: string | undefined,
): TOutcome {
  return walk(system, s, from, target).outcome;
}

/**
 * After a step's answer: an escalation when the answer forbids continuing, else the first open
 * step on the path from the start (a correction of a finding stated early never passes over the
 * steps still to be asked before it).
 */
function after(
  system: TSystem,
  s: Pick<TContextState, "completed" | "evidence">,
  step: TStep,
  answer: TAnswer,
): TOutcome {
  if (answer.escalate === "warranty") return { kind: "escalate", step, answer };
  return advance(system, s, -1, system.procedure.steps[0]?.id);
}

/**
 * The answer the diagnosis concludes from: the last recorded answer on the path from the first
 * step, unless the catalog's doctrine rules it out given what else was stated (then the
 * doctrine's `instead`, citing it).
 */
function decisiveFinding(
  system: TSystem,
  s: Pick<TContextState, "completed" | "evidence" | "pending_findings">,
): TDecisive {
  const last = walk(system, s, -1, system.procedure.steps[0]?.id).last;
  if (last === null) return null;
  // Stated counts, even for a step whose branch never came up ("runs on direct 12 V" at another step).
  const recorded = (finding: string) =>
    recordsFinding(s.evidence, finding) || Object.values(s.pending_findings).includes(finding);
  const doctrine = (system.doctrine ?? []).find((d) => d.rules_out.includes(last.answer.finding) && recorded(d.when));
  if (doctrine === undefined) return last;
  for (const step of system.procedure.steps) {
    const answer = step.answers.find((a) => a.finding === doctrine.instead);
    if (answer !== undefined) return { step, answer, doctrine: { id: doctrine.id, rule: doctrine.rule } };
  }
  return last;
}

// ── State updates ─────────────────────────────────────────────────────────────────────────────

function note(s: TContextState, step: TStep, answer: TAnswer): void {
  s.evidence_log.push({ step: step.id, finding: answer.finding, turn: s.turn });
}

/** Records a finding and completes its step; labor grows by the step's minutes, never gates. */
function complete(
  ctx: TCtx,
  s: TContextState,
  step: TStep,
  answer: TAnswer,
  via: "answer" | "replan" | "stated",
): void {
  s.evidence[findingKey(answer.finding)] = findingValue(answer.finding);
  note(s, step, answer);
  if (!s.completed.includes(step.id)) s.completed.push(step.id);
  s.not_checked = withoutKey(s.not_checked, step.id);
  s.pending_findings = withoutKey(s.pending_findings, step.id);
  const minutes = step.minutes ?? DEFAULT_STEP_MINUTES;
  s.labor.lines.push({ step: step.id, minutes });
  s.labor.draft_minutes = laborTotal(s);
  s.guard.reasks = withoutKey(s.guard.reasks, step.id);
  ctx.events.push({ type: "step_completed", detail: { step: step.id, finding: answer.finding, via, minutes } });
}

function laborTotal(s: TContextState): number {
  return Math.max(
    0,
    s.labor.lines.reduce((sum, line) => sum + line.minutes, 0),
  );
}

/** Un-completes `stepId` and every step completed after it; their evidence, labor and not-checked marks go too. */
function rollback(ctx: TCtx, s: TContextState, stepId: string): string[] {
  // The step and those done after it that come later in the procedure: a step before it in the
  // procedure was asked whatever it said (the fuse, after a pump finding from the complaint).
  const at = s.completed.indexOf(stepId);
  const order = (id: string) => ctx.system.procedure.steps.findIndex((step) => step.id === id);
  const rolled = at < 0 ? [] : s.completed.slice(at).filter((id) => id === stepId || order(id) > order(stepId));
  s.completed = s.completed.filter((id) => !rolled.includes(id));
  for (const id of rolled) {
    const step = stepOf(ctx.system, id);
    s.evidence = withoutKey(s.evidence, findingKey(step.answers[0]?.finding ?? ""));
    s.not_checked = withoutKey(s.not_checked, id);
  }
  s.labor.lines = s.labor.lines.filter((line) => !rolled.includes(line.step));
  s.labor.draft_minutes = laborTotal(s);
  return rolled;
}

function setMode(ctx: TCtx, s: TContextState, mode: TContextMode): void {
  if (s.mode === mode) return;
  ctx.events.push({ type: "mode_change", detail: { from: s.mode, to: mode } });
  if (s.mode === "authorization") s.guard.reasks = withoutKey(s.guard.reasks, AUTHORIZATION_KEY);
  s.mode = mode;
}

/** A finished case is reopened: its report goes to the history, the next one is a revision. */
function reopen(ctx: TCtx, s: TContextState, because: string): void {
  if (s.report === null) return;
  s.report_history.push(s.report);
  s.report = null;
  s.reopened_because = because;
  ctx.events.push({ type: "report_revised", detail: { revision: s.report_history.length, because, reopened: true } });
}

/** Ends the case with a report (a new revision when the case had one before). */
function conclude(ctx: TCtx, s: TContextState, outcome: TOutcomeFields, note?: string) {
  if (s.report !== null) {
    s.report_history.push(s.report);
    s.report = null;
  }
  s.report = buildReport(ctx.system, ctx.local, s, decisiveFinding(ctx.system, s), outcome, note);
  s.reopened_because = null;
  s.active_step = null;
  setMode(ctx, s, "final_report");
  if (s.report.revision > 1)
    ctx.events.push({
      type: "report_revised",
      detail: { revision: s.report.revision, because: s.report.revised_because },
    });
  return s.report;
}

function applyLabor(ctx: TCtx, s: TContextState, labor: NonNullable<TClassification["labor"]>): void {
  const before = s.labor.draft_minutes;
  const delta = labor.mode === "add" ? labor.minutes : labor.minutes - before;
  s.labor.lines.push({
    step: TECHNICIAN_LINE,
    minutes: delta,
    note: labor.mode === "add" ? `+${labor.minutes} min` : `set to ${labor.minutes} min`,
  });
  s.labor.draft_minutes = laborTotal(s);
  ctx.events.push({
    type: "labor",
    detail: { mode: labor.mode, minutes: labor.minutes, from: before, to: s.labor.draft_minutes },
  });
}

// ── Flow ──────────────────────────────────────────────────────────────────────────────────────

/** The authorization request for the diagnosis as it stands, after `lead`. */
function askAuthorization(ctx: TCtx, s: TContextState, lead: string): TDirective {
  const decisive = decisiveFinding(ctx.system, s);
  return requestAuthorization(ctx, decisive?.step ?? null, causeOf(decisive), correctionOf(decisive), lead);
}

/** Findings the technician stated for a step before it came up complete it when it does. */
function settleNoted(ctx: TCtx, s: TContextState, outcome: TOutcome, recorded: string[]): TOutcome {
  let current = outcome;
  while (current.kind === "step") {
    const noted = notedFinding(s, current.step.id);
    const said = current.step.answers.find((a) => a.finding === noted);
    if (said === undefined) return current;
    complete(ctx, s, current.step, said, "stated");
    recorded.push(localLabel(ctx, current.step, said.id));
    current = after(ctx.system, s, current.step, said);
  }
  return current;
}

/** Applies an outcome to the state and returns the directive that carries it out. */
function settle(ctx: TCtx, s: TContextState, outcome: TOutcome, lead: string, recorded: string[] = []): TDirective {
  const final = settleNoted(ctx, s, outcome, recorded);
  const withRecorded = (d: TDirective): TDirective =>
    recorded.length === 0 ? d : { ...d, recorded: recorded.join("; "), recorded_all: [...recorded] };
  s.active_step = final.kind === "step" ? final.step.id : null;
  if (final.kind === "step") {
    setMode(ctx, s, "diagnostic");
    return withRecorded(askStep(ctx, final.step, lead));
  }
  if (final.kind === "report") {
    setMode(ctx, s, "authorization");
    return withRecorded(askAuthorization(ctx, s, lead));
  }
  const report = conclude(ctx, s, { authorized: null, escalation: "warranty", resolution: null, repair: null });
  ctx.events.push({
    type: "escalate",
    detail: { reason: "warranty", step: final.step.id, finding: final.answer.finding },
  });
  return withRecorded(escalateWarranty(ctx, final.step, report, lead));
}

/**
 * This turn recorded another value for the finding's key ("motor hums and runs but the room
 * sits": the direct-power test, for a motor that does not run, is ruled out, not noted).
 */
function ruledOutThisTurn(s: TContextState, finding: string): boolean {
  return s.evidence_log.some(
    (e) => e.turn === s.turn && findingKey(e.finding) === findingKey(finding) && e.finding !== finding,
  );
}

/** Records stated findings of steps not completed yet, in catalog order; returns their labels. */
function recordMentions(ctx: TCtx, s: TContextState, mentions: readonly TMention[]): string[] {
  const labels: string[] = [];
  for (const m of [...mentions].sort((a, b) => a.index - b.index)) {
    if (s.completed.includes(m.step.id)) continue;
    const { step, answer } = own(ctx, m.step, m.answer);
    const branch = step.requires?.finding;
    if (branch !== undefined && !recordsFinding(s.evidence, branch)) {
      if (ruledOutThisTurn(s, branch)) continue;
      note(s, step, answer); // its branch is not established yet: applied when the step comes up
      s.pending_findings = { ...s.pending_findings, [step.id]: answer.finding };
      continue;
    }
    complete(ctx, s, step, answer, "stated");
    labels.push(localLabel(ctx, step, answer.id));
  }
  return labels;
}

function activeOutcome(ctx: TCtx, s: TContextState): TOutcome {
  if (s.active_step !== null && !s.completed.includes(s.active_step))
    return { kind: "step", step: stepOf(ctx.system, s.active_step) };
  return advance(ctx.system, s, -1, ctx.system.procedure.steps[0]?.id);
}

/** Where the case is, as a directive: the active step, the authorization request, or the report. */
function resume(ctx: TCtx, s: TContextState, lead: string): TDirective {
  if (s.mode === "final_report" && s.report !== null)
    return finalReport(ctx, decisiveFinding(ctx.system, s)?.step ?? null, s.report);
  return settle(ctx, s, activeOutcome(ctx, s), lead);
}

function intentEvent(ctx: TCtx, s: TContextState, intent: TIntent | "COMPLAINT", c: TClassification): void {
  ctx.events.push({
    type: "intent",
    detail: {
      intent,
      step: s.active_step,
      answer:
        c.answer?.id ?? (s.mode === "authorization" && (c.consent === "yes" || c.consent === "no") ? c.consent : null),
      topic: c.topic,
      ambiguous: c.ambiguous,
      contradicts: c.contradictions.map((m) => m.step.id),
      correction: c.correction,
      noted: c.fresh.map((m) => m.answer.finding),
      non_answer: c.nonAnswer,
      consent: c.consent,
      language: s.language,
    },
  });
}

function enterSafety(ctx: TCtx, s: TContextState, rule: NonNullable<TClassification["safety"]>): TDirective {
  const resumeMode = s.mode === "safety_stop" ? (s.safety?.resume ?? "diagnostic") : s.mode;
  s.safety = { rule: rule.id, resume: resumeMode };
  setMode(ctx, s, "safety_stop");
  ctx.events.push({ type: "safety", detail: { rule: rule.id, action: "stop" } });
  return safetyStop(ctx, localRule(ctx, rule.id) ?? rule, false);
}

function localRule(ctx: TCtx, id: string) {
  return (ctx.local.safety_rules ?? []).find((r) => r.id === id);
}

function replanTurn(ctx: TCtx, s: TContextState, c: TClassification): TDirective {
  const [firstMention, ...others] = c.contradictions;
  if (firstMention === undefined) throw new ContextEngineError("invalid_state", "replan without a contradiction");
  const first = own(ctx, firstMention.step, firstMention.answer);
  const before = recordedAnswer(first.step, s.evidence);
  const beforeLabel = before === null ? null : localLabel(ctx, first.step, before.id);
  if (s.mode === "final_report") reopen(ctx, s, "a finding was corrected");
  const rolled = rollback(ctx, s, first.step.id);
  s.report = null;
  s.topic_stack = [];
  ctx.events.push({
    type: "replan",
    detail: { step: first.step.id, from: before?.finding ?? null, to: first.answer.finding, rolled_back: rolled },
  });
  complete(ctx, s, first.step, first.answer, "replan");
  recordMentions(ctx, s, [...others, ...c.fresh]);
  const setAside = rolled.filter((id) => id !== first.step.id);
  const lead = [
    `The technician corrected an earlier answer. Tell them briefly: you said earlier "${before ? labelOf(before) : "something else"}";`,
    `now "${labelOf(first.answer)}", so we go back to step ${first.step.id} ("${first.step.question}").`,
    setAside.length > 0 ? `Steps set aside and asked again if still needed: ${setAside.join(", ")}.` : "",
    "Then:",
  ]
    .filter((part) => part !== "")
    .join(" ");
  const directive = settle(ctx, s, after(ctx.system, s, first.step, first.answer), lead);
  if (s.mode === "diagnostic") s.submode = "replan";
  const local = ctx.local.procedure.steps.find((x) => x.id === first.step.id) ?? first.step;
  const replan = {
    step_id: first.step.id,
    question: local.question,
    from: beforeLabel,
    to: localLabel(ctx, first.step, first.answer.id),
    set_aside: setAside,
  };
  return directive.kind === "escalate" ? { ...directive, replan } : { ...directive, kind: "replan", replan };
}

/** "I never checked the fuse": the step goes back to being asked; the rest of the message is read again. */
function retractTurn(ctx: TCtx, s: TContextState, steps: readonly TStep[], moreInfoBefore: boolean): TDirective {
  const order = (step: TStep) => s.completed.indexOf(step.id);
  const [first] = [...steps].sort((a, b) => order(a) - order(b));
  if (first === undefined) throw new ContextEngineError("invalid_state", "retraction without a step");
  if (s.mode === "final_report") reopen(ctx, s, "a finding was retracted");
  const rolled = rollback(ctx, s, first.id);
  ctx.events.push({
    type: "replan",
    detail: { step: first.id, from: null, to: null, rolled_back: rolled, retracted: true },
  });
  s.active_step = first.id;
  s.report = null;
  setMode(ctx, s, "diagnostic");
  const directive = diagnosticTurn(ctx, s, moreInfoBefore, true);
  const local = ctx.local.procedure.steps.find((x) => x.id === first.id) ?? first;
  return directive.kind === "ask_step" || directive.kind === "non_answer" || directive.kind === "answer_clarification"
    ? {
        ...directive,
        kind: directive.kind === "ask_step" ? "replan" : directive.kind,
        replan: {
          step_id: first.id,
          question: local.question,
          from: null,
          to: "",
          set_aside: rolled.filter((id) => id !== first.id),
        },
      }
    : directive;
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
  return askAuthorization(ctx, s, "The reply did not answer the authorization request.");
}

/**
 * Talk about something else ("what's the weather tomorrow?"): said to be outside the case, never
 * answered; it counts toward the loop guard like any reply that answers nothing.
 */
function offTopicTurn(ctx: TCtx, s: TContextState, step: TStep | null, moreInfoBefore: boolean): TDirective {
  const directive = unclearTurn(ctx, s, step, moreInfoBefore);
  if (directive.kind === "escalate") return directive;
  const lead =
    "The technician wrote about something outside this diagnosis: say in one sentence that this desk covers the diagnosis only, without answering it.";
  return { ...directive, text: `${lead} ${directive.text}` };
}

/** The labels of what is on record, in the technician's language. */
function onRecord(ctx: TCtx, s: TContextState): string[] {
  return s.completed.flatMap((id) => {
    const step = stepOf(ctx.system, id);
    const a = recordedAnswer(step, s.evidence);
    return a === null ? [] : [localLabel(ctx, step, a.id)];
  });
}

function pushTopic(ctx: TCtx, s: TContextState, kind: NonNullable<TClassification["topic"]>, step: TStep): void {
  s.topic_stack.push({ kind, step: step.id });
  s.submode = kind;
  ctx.events.push({ type: "topic_push", detail: { kind, step: step.id } });
}

/**
 * The step is passed as NOT CHECKED (`reason` kept on it; `said` is what this message said, for the
 * event) and the procedure goes on without it.
 */
function passNotChecked(
  ctx: TCtx,
  s: TContextState,
  step: TStep,
  { reason, count }: { reason: TNotCheckedReason; count: number },
  said: TNotCheckedReason = reason,
): void {
  s.not_checked = { ...s.not_checked, [step.id]: { reason, count, passed: true } };
  ctx.events.push({ type: "not_checked", detail: { step: step.id, reason: said, count, passed: true } });
  if (!s.completed.includes(step.id)) s.completed.push(step.id);
  s.guard.reasks = withoutKey(s.guard.reasks, step.id);
}

/** Nothing recorded: how to check it the first time, passed as NOT CHECKED the second time or on "skip". */
function nonAnswerTurn(ctx: TCtx, s: TContextState, step: TStep, reason: TNotCheckedReason): TDirective {
  const earlier = Object.hasOwn(s.not_checked, step.id) ? s.not_checked[step.id] : undefined;
  const count = (earlier?.count ?? 0) + 1;
  const passed = reason === "skipped" || count >= MAX_NON_ANSWERS;
  const kept = reason === "skipped" && earlier ? earlier.reason : reason;
  if (!passed) {
    s.not_checked = { ...s.not_checked, [step.id]: { reason: kept, count, passed } };
    ctx.events.push({ type: "not_checked", detail: { step: step.id, reason, count, passed } });
    return nonAnswer(ctx, step, reason, false, null);
  }
  passNotChecked(ctx, s, step, { reason: kept, count }, reason);
  const next = settle(
    ctx,
    s,
    advance(ctx.system, s, ctx.system.procedure.steps.indexOf(step), undefined),
    `Step ${step.id} is recorded as not checked.`,
  );
  return nonAnswer(ctx, step, s.not_checked[step.id]?.reason ?? reason, true, next);
}

/** Evidence a catalog rule knows: the case stops with the rule's cause and correction. */
function evidenceTurn(ctx: TCtx, s: TContextState, hit: NonNullable<TClassification["evidence"]>): TDirective {
  s.observations.push({ rule: hit.rule.id, text: hit.text, turn: s.turn });
  const warranty = hit.rule.constraint !== undefined;
  ctx.events.push({ type: "evidence_rule", detail: { rule: hit.rule.id, text: hit.text } });
  ctx.events.push({ type: "escalate", detail: { reason: warranty ? "warranty" : "evidence", rule: hit.rule.id } });
  if (s.report !== null) s.reopened_because = "new evidence";
  const report = conclude(ctx, s, {
    authorized: null,
    escalation: warranty ? "warranty" : "evidence",
    resolution: null,
    repair: null,
    rule: hit.rule.id,
  });
  const local = (ctx.local.evidence_rules ?? []).find((r) => r.id === hit.rule.id) ?? hit.rule;
  return escalateEvidence(ctx, { id: hit.rule.id, label: local.label }, report);
}

function resolvedTurn(ctx: TCtx, s: TContextState, c: TClassification): TDirective {
  // "tstat calls for cool now" after the breaker reset: what it states is recorded with the repair
  if (s.mode === "diagnostic" && s.active_step !== null && c.answer !== null) {
    const active = stepOf(ctx.system, s.active_step);
    complete(ctx, s, active, own(ctx, { ...active }, c.answer).answer, "answer");
  }
  if (s.mode === "diagnostic") recordMentions(ctx, s, c.fresh);
  ctx.events.push({ type: "escalate", detail: { reason: "resolved", text: c.evidenceText } });
  if (s.report !== null) s.reopened_because = "repaired by the technician";
  const report = conclude(ctx, s, {
    authorized: null,
    escalation: null,
    resolution: "fixed_by_technician",
    repair: ctx.message.trim().slice(0, 500),
  });
  return { ...finalReport(ctx, decisiveFinding(ctx.system, s)?.step ?? null, report), repair: report.repair ?? "" };
}

/** What every mode checks first: retractions, corrections, evidence rules, a repair done. */
function commonTurn(ctx: TCtx, s: TContextState, c: TClassification, moreInfoBefore: boolean): TDirective | null {
  if (c.retracted.length > 0) return retractTurn(ctx, s, c.retracted, moreInfoBefore);
  // "swapped the cap, blowing cold now" reports a repair; its words are not corrections of steps.
  if (c.resolved && !c.correction && c.evidence === null) return resolvedTurn(ctx, s, c);
  // A contradiction replans when it says it corrects ("actually"), or, while a step is asked, when
  // the message does not answer it; during authorization or after the report it needs the marker
  // or a plain statement (not a question, a cost or a condition: "how much will a new pump run?").
  const answersActive = s.mode === "diagnostic" && c.answer !== null;
  const plainStatement = s.mode === "diagnostic" ? !answersActive : c.consent === null && !c.question;
  if (c.contradictions.length > 0 && (c.correction || plainStatement)) return replanTurn(ctx, s, c);
  if (c.evidence !== null) return evidenceTurn(ctx, s, c.evidence);
  if (c.resolved) return resolvedTurn(ctx, s, c);
  return null;
}

/** How a message is read in the state's mode: the asked step's labels, or the step authorization is about. */
function classifyOptions(ctx: TCtx, s: TContextState): TClassifyOptions {
  if (s.mode === "diagnostic" && s.active_step !== null) {
    const local = ctx.local.procedure.steps.find((x) => x.id === s.active_step);
    return { labels: (local?.answers ?? []).map(labelOf) };
  }
  const about = s.mode === "authorization" ? decisiveFinding(ctx.system, s)?.step.id : undefined;
  return about === undefined ? {} : { about };
}

function diagnosticTurn(
  ctx: TCtx,
  s: TContextState,
  moreInfoBefore: boolean,
  afterRetraction = false,
  read: TClassification = classifyMessage(ctx.matching, s, ctx.message, classifyOptions(ctx, s)),
): TDirective {
  const active = stepOf(ctx.system, s.active_step ?? "");
  const c = read;
  if (!afterRetraction) {
    const common = commonTurn(ctx, s, { ...c }, moreInfoBefore);
    if (common !== null) return common;
  }
  const intent: TIntent =
    c.answer !== null
      ? "ANSWER"
      : c.fresh.length > 0
        ? "NEW_EVIDENCE"
        : c.labor
          ? "LABOR"
          : c.alreadyTold
            ? "ALREADY_TOLD"
            : c.skip
              ? "SKIP"
              : c.nonAnswer
                ? "NON_ANSWER"
                : c.topic
                  ? c.topic === "locate"
                    ? "LOCATE"
                    : c.topic === "howto"
                      ? "HOWTO"
                      : "EXPLAIN"
                  : "UNCLEAR";
  intentEvent(ctx, s, intent, c);
  if (c.labor !== null) applyLabor(ctx, s, c.labor);
  if (c.answer !== null) {
    const answer = own(ctx, { ...active }, c.answer).answer;
    complete(ctx, s, active, answer, "answer");
    const recorded = [localLabel(ctx, active, answer.id), ...recordMentions(ctx, s, c.fresh)];
    const directive = settle(ctx, s, after(ctx.system, s, active, answer), `Recorded ${answer.finding}.`, recorded);
    return { ...directive, recorded: recorded.join("; "), recorded_all: recorded };
  }
  if (c.fresh.length > 0) {
    const recorded = recordMentions(ctx, s, c.fresh);
    // "no voltmeter" at the battery, then "the switch clicks": the technician went on without it
    const unchecked = Object.hasOwn(s.not_checked, active.id) ? s.not_checked[active.id] : undefined;
    if (recorded.length > 0 && unchecked !== undefined && !unchecked.passed && !s.completed.includes(active.id))
      passNotChecked(ctx, s, active, unchecked);
    if (recorded.length > 0)
      return settle(
        ctx,
        s,
        activeOutcome(ctx, s),
        `Recorded what the technician stated (${recorded.join(", ")}).`,
        recorded,
      );
  }
  if (c.labor !== null)
    return {
      ...askStep(ctx, active, `Labor is now ${s.labor.draft_minutes} min.`),
      labor_minutes: s.labor.draft_minutes,
    };
  if (c.alreadyTold) {
    const noted = notedFinding(s, active.id);
    // "I already told you": what they stated for this step, else (when the message restates no
    // other step: "i already told you the fuse is good" is about the fuse) the complaint read as
    // an answer to it ("the pump won't run at all" answers "does the pump run?").
    const fromComplaint =
      noted === null && c.restated.length === 0 && s.complaint ? answerInComplaint(ctx.matching, s, s.complaint) : null;
    const said =
      active.answers.find((a) => a.finding === noted) ??
      (fromComplaint === null ? undefined : own(ctx, { ...active }, fromComplaint).answer);
    const findings = onRecord(ctx, s);
    if (said !== undefined) {
      complete(ctx, s, active, said, "stated");
      const label = localLabel(ctx, active, said.id);
      const directive = settle(
        ctx,
        s,
        after(ctx.system, s, active, said),
        `The technician had said it: recorded ${said.finding}.`,
        [label],
      );
      return { ...directive, on_record: { answer: label, findings } };
    }
    return {
      ...askStep(
        ctx,
        active,
        "The technician says they answered already, but nothing is on record for this step: say so, list what is recorded, and ask it once more.",
      ),
      on_record: { answer: null, findings },
    };
  }
  if (c.restated.length > 0 && c.nonAnswer === null && !c.skip && c.topic === null) {
    // "the fuse is fine" again: already on record; the active step is asked again, nothing counted
    const [again] = c.restated;
    const label = again === undefined ? "" : localLabel(ctx, stepOf(ctx.system, again.step.id), again.answer.id);
    return {
      ...askStep(ctx, active, `Already recorded: ${label}. Ask the active step again.`),
      on_record: { answer: label, findings: onRecord(ctx, s) },
    };
  }
  if (c.skip) return nonAnswerTurn(ctx, s, active, "skipped");
  if (c.nonAnswer !== null) return nonAnswerTurn(ctx, s, active, c.nonAnswer);
  if (c.reportRequest) {
    // Mid-diagnosis: what is known so far, marked incomplete; the case stays where it is and
    // nothing is counted toward escalation.
    const partial = buildReport(ctx.system, ctx.local, s, decisiveFinding(ctx.system, s), {
      authorized: null,
      escalation: null,
      resolution: null,
      repair: null,
    });
    return {
      ...askStep(
        ctx,
        active,
        "The technician asked for the report before the diagnosis is done: show the partial report below, say plainly that it is INCOMPLETE (the diagnosis is not finished), then",
      ),
      report: partial,
    };
  }
  if (c.announcement)
    return askStep(
      ctx,
      active,
      "The technician is about to check, or only acknowledged: nothing is recorded. Say in a few words that you wait for what they find, and keep the step open.",
    );
  if (c.offTopic) return offTopicTurn(ctx, s, active, moreInfoBefore);
  if (c.topic !== null) {
    const about = c.topicStep === null ? active : stepOf(ctx.system, c.topicStep.id);
    pushTopic(ctx, s, c.topic, about);
    return answerClarification(ctx, c.topic, about, { kind: "step", step: active });
  }
  return unclearTurn(ctx, s, active, moreInfoBefore);
}

function authorizationTurn(ctx: TCtx, s: TContextState, moreInfoBefore: boolean, c: TClassification): TDirective {
  const common = commonTurn(ctx, s, c, moreInfoBefore);
  if (common !== null) return common;
  const decisive = decisiveFinding(ctx.system, s);
  const intent: TIntent =
    c.consent === "yes" || c.consent === "no"
      ? "ANSWER"
      : c.labor
        ? "LABOR"
        : c.consent !== null || c.nonAnswer !== null
          ? "PENDING"
          : c.topic
            ? "EXPLAIN"
            : c.fresh.length > 0
              ? "NEW_EVIDENCE"
              : "UNCLEAR";
  intentEvent(ctx, s, intent, c);
  if (c.labor !== null) applyLabor(ctx, s, c.labor);
  // "no, it does not run" restates a finding: it declines nothing
  if (c.consent === "no" && (c.restated.length > 0 || c.fresh.length > 0)) {
    const [again] = c.restated;
    const label = again === undefined ? "" : localLabel(ctx, stepOf(ctx.system, again.step.id), again.answer.id);
    if (c.fresh.length > 0) recordMentions(ctx, s, c.fresh);
    return {
      ...askAuthorization(ctx, s, "That is on record already."),
      ...(label === "" ? {} : { on_record: { answer: label, findings: onRecord(ctx, s) } }),
    };
  }
  if (c.consent === "yes" || c.consent === "no") {
    recordMentions(ctx, s, c.fresh);
    const report = conclude(ctx, s, {
      authorized: c.consent === "yes",
      escalation: null,
      resolution: null,
      repair: null,
    });
    return { ...finalReport(ctx, decisive?.step ?? null, report), recorded: c.consent };
  }
  // A question the catalog answers ("why?", "where is it?") is answered from the decisive step's text.
  const answerable = c.topic !== null && decisive !== null && (c.consent === "question" || c.consent === null);
  if (!answerable && (c.consent !== null || c.nonAnswer !== null)) {
    const pending = c.consent ?? "non_answer";
    return authorizationPending(
      ctx,
      decisive?.step ?? null,
      causeOf(decisive),
      correctionOf(decisive),
      pending,
      s.labor.draft_minutes,
    );
  }
  if (c.labor !== null)
    return {
      ...askAuthorization(ctx, s, `Labor is now ${s.labor.draft_minutes} min.`),
      labor_minutes: s.labor.draft_minutes,
    };
  if (c.offTopic) return offTopicTurn(ctx, s, null, moreInfoBefore);
  if (c.topic !== null && decisive !== null) {
    const about = c.topicStep === null ? decisive.step : stepOf(ctx.system, c.topicStep.id);
    pushTopic(ctx, s, c.topic, about);
    return answerClarification(ctx, c.topic, about, { kind: "authorization" });
  }
  if (c.fresh.length > 0) {
    const noted = recordMentions(ctx, s, c.fresh);
    return askAuthorization(ctx, s, `Recorded: ${noted.join(", ")}.`);
  }
  return unclearTurn(ctx, s, null, moreInfoBefore);
}

function finalReportTurn(ctx: TCtx, s: TContextState, moreInfoBefore: boolean, c: TClassification): TDirective {
  const report =
    s.report ??
    buildReport(ctx.system, ctx.local, s, decisiveFinding(ctx.system, s), {
      authorized: null,
      escalation: null,
      resolution: null,
      repair: null,
    });
  s.report = report;
  const common = commonTurn(ctx, s, c, moreInfoBefore);
  if (common !== null) return common;
  const decisive = decisiveFinding(ctx.system, s)?.step ?? null;
  const intent: TIntent = c.labor ? "LABOR" : c.acknowledgement ? "ACKNOWLEDGE" : c.topic ? "EXPLAIN" : "NOTE";
  intentEvent(ctx, s, intent, c);
  if (c.labor !== null) {
    applyLabor(ctx, s, c.labor);
    s.reopened_because = "labor changed";
    return reportUpdate(ctx, decisive, conclude(ctx, s, outcomeOf(report)), "labor");
  }
  // "START FINAL REPORT" again: the report as it stands, never a note on a new revision (nor
  // "start over": a finished report is revised by corrections, not thrown away)
  if (c.acknowledgement || c.reportRequest || c.restart || ctx.message.trim() === "")
    return reportUpdate(ctx, decisive, report, "none");
  if (c.topic !== null && !c.fresh.length && c.topicStep !== null)
    return answerClarification(ctx, c.topic, c.topicStep, { kind: "report" });
  // "what was the cause?" names no part: the report answers it (issue 36), not a step's registry
  // text; a question that is not about the case is said to be outside this desk.
  if ((c.topic !== null || c.question) && !c.fresh.length) return answerFromReport(ctx, decisive, report);
  // Nothing a technician says after the report is dropped: it becomes a note on a new revision.
  s.reopened_because = "note added";
  return reportUpdate(ctx, decisive, conclude(ctx, s, outcomeOf(report), ctx.message.trim().slice(0, 2000)), "note");
}

function safetyTurn(ctx: TCtx, s: TContextState, c: TClassification): TDirective {
  const rule = (ctx.matching.safety_rules ?? []).find((r) => r.id === s.safety?.rule);
  intentEvent(ctx, s, c.safetyClear ? "SAFETY_CLEAR" : "SAFETY", c);
  if (rule === undefined || c.safetyClear) {
    const back = s.safety?.resume ?? "diagnostic";
    ctx.events.push({ type: "safety", detail: { rule: s.safety?.rule ?? null, action: "cleared" } });
    s.safety = null;
    setMode(ctx, s, back);
    const directive = resume(ctx, s, "Safety is cleared: continue where the case stood.");
    const local = rule === undefined ? undefined : localRule(ctx, rule.id);
    return local === undefined
      ? directive
      : {
          ...directive,
          safety: {
            rule: local.id,
            instruction: local.instruction,
            clear_example: local.clear_patterns[0] ?? "",
            cleared: true,
          },
        };
  }
  return safetyStop(ctx, localRule(ctx, rule.id) ?? rule, false);
}

function complaintTurn(ctx: TCtx, s: TContextState): TDirective {
  s.complaint = ctx.message;
  const c = readComplaint(ctx, s, ctx.message);
  intentEvent(ctx, s, "COMPLAINT", c);
  // a hazard first: nothing beside it is recorded (docs/procedure-mode.md, "Free-form evidence and safety")
  if (c.safety !== null) return enterSafety(ctx, s, c.safety);
  const recorded = recordMentions(ctx, s, c.fresh);
  if (c.evidence !== null) return evidenceTurn(ctx, s, c.evidence);
  const lead = `Acknowledge the complaint in one sentence.${recorded.length > 0 ? ` From it, recorded: ${recorded.join(", ")}.` : ""}`;
  return settle(ctx, s, advance(ctx.system, s, -1, ctx.system.procedure.steps[0]?.id), lead, recorded);
}

/**
 * The complaint describes the problem; the system's symptom phrases ("pump won't run") are not
 * findings. Specific findings in it ("fuse is fine, 12.6 V at the pump") are recorded.
 */
function readComplaint(ctx: TCtx, s: TContextState, complaint: string): TClassification {
  return classifyMessage(ctx.matching, { ...s, mode: "final_report", active_step: null }, complaint, {
    complaint: true,
  });
}

/**
 * "start over, wrong coach": the same complaint diagnosed afresh. What was recorded is dropped,
 * the complaint's own findings are read again (its hazards were dealt with the first time).
 */
function restartTurn(ctx: TCtx, s: TContextState, c: TClassification): TDirective {
  intentEvent(ctx, s, "RESTART", c);
  const fresh = startContext(ctx.catalog, s.system_id);
  const dropped = s.completed.length;
  Object.assign(s, { ...fresh, turn: s.turn, complaint: s.complaint, language: s.language });
  ctx.events.push({ type: "restart", detail: { dropped, step: fresh.active_step } });
  const recorded = s.complaint === null ? [] : recordMentions(ctx, s, readComplaint(ctx, s, s.complaint).fresh);
  return settle(
    ctx,
    s,
    activeOutcome(ctx, s),
    `The technician starts over: nothing recorded since the complaint stands. Say so and ask the next step.${recorded.length > 0 ? ` From the complaint, recorded: ${recorded.join(", ")}.` : ""}`,
    recorded,
  );
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
    language: DEFAULT_LANGUAGE,
    not_checked: {},
    pending_findings: {},
    safety: null,
    observations: [],
    report_history: [],
    reopened_because: null,
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
  if (state.mode === "safety_stop" && state.safety === null)
    throw new ContextEngineError("invalid_state", "safety_stop mode needs a safety rule");

  const s = structuredClone(state);
  s.turn += 1;
  const events: TContextEvent[] = [];
  const detected = detectLanguage(message, catalogDetectWords(catalog));
  if (detected !== null && detected !== s.language && catalogLanguages(catalog).includes(detected)) {
    events.push({ type: "language", detail: { from: s.language, to: detected } });
    s.language = detected;
  }
  const ctx: TCtx = {
    catalog,
    system,
    local: localSystem(catalog, system, s.language),
    language: s.language,
    matching: matchingSystem(catalog, system),
    events,
    message,
  };
  const moreInfoBefore = s.guard.more_info_asked_last;
  s.guard.more_info_asked_last = false;
  // A sub-topic lasts one turn: this message is back on the main line.
  for (let topic = s.topic_stack.pop(); topic !== undefined; topic = s.topic_stack.pop())
    ctx.events.push({ type: "topic_pop", detail: { kind: topic.kind, step: topic.step } });
  s.submode = "main";

  let directive: TDirective;
  if (s.complaint === null) directive = complaintTurn(ctx, s);
  else {
    // read once: the mode's handler decides what it means (a retraction reads it again, reopened)
    const c = classifyMessage(ctx.matching, s, message, classifyOptions(ctx, s));
    if (c.safety !== null && !(s.mode === "safety_stop" && (c.safetyClear || c.safety.id === s.safety?.rule)))
      directive = enterSafety(ctx, s, c.safety);
    else if (s.mode === "safety_stop") directive = safetyTurn(ctx, s, c);
    else if (c.restart && s.mode !== "final_report") directive = restartTurn(ctx, s, c);
    else if (s.mode === "diagnostic") directive = diagnosticTurn(ctx, s, moreInfoBefore, false, c);
    else if (s.mode === "authorization") directive = authorizationTurn(ctx, s, moreInfoBefore, c);
    else directive = finalReportTurn(ctx, s, moreInfoBefore, c);
  }
  s.guard.last_directive_kind = directive.kind;
  return { state: s, directive, events: ctx.events };
}
