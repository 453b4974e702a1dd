// Directive builders: the instruction text the model receives, with the step's registry text (in
// the technician's language) and the constraints that apply. They format; the engine (engine.ts)
// has already decided the flow. Instruction texts are written to the model ("Ask …", "Tell them
// …"), never to the technician; the structured fields carry the facts for renderers.

import { constraintLinesOf, type TCatalog, type TStep, type TSystem } from "./catalog-schema";
import type { TDirective, TDirectiveRegistry, TNotCheckedReason, TReport, TTopicKind } from "./state";
import { DEFAULT_LANGUAGE, LANGUAGE_PACKS } from "./vocabulary";

/** `system` decides the flow; `local` is the same system with its texts in `language`. */
export type TDirectiveContext = { catalog: TCatalog; system: TSystem; local: TSystem; language: string };

const AUTHORIZATION_OPTIONS = ["yes", "no"];

function localStep(ctx: TDirectiveContext, step: TStep): TStep {
  return ctx.local.procedure.steps.find((s) => s.id === step.id) ?? step;
}

export function optionsOf(step: TStep): string[] {
  return step.answers.map((answer) => answer.label ?? answer.id);
}

export function labelOf(answer: { label?: string; id: string }): string {
  return answer.label ?? answer.id;
}

/** An answer's label as the technician reads it. */
export function localLabel(ctx: TDirectiveContext, step: TStep, answerId: string): string {
  const answer = localStep(ctx, step).answers.find((a) => a.id === answerId);
  return answer === undefined ? answerId : labelOf(answer);
}

function registryOf(ctx: TDirectiveContext, step: TStep | null): TDirectiveRegistry {
  if (step === null) return { question: ctx.local.procedure.title, howto: "" };
  const text = localStep(ctx, step);
  return {
    question: text.question,
    howto: text.howto,
    ...(text.locate === undefined ? {} : { locate: text.locate }),
    ...(text.explain === undefined ? {} : { explain: text.explain }),
  };
}

/** The constraint lines that apply, in the technician's language. */
export function constraintLines(ctx: TDirectiveContext, step: TStep | null): string[] {
  return constraintLinesOf(ctx.local, step);
}

/** The language instruction appended to every directive in another language than English. */
function inLanguage(ctx: TDirectiveContext, text: string): string {
  if (ctx.language === DEFAULT_LANGUAGE) return text;
  const name = LANGUAGE_PACKS.get(ctx.language)?.name ?? ctx.language;
  return `${text} Reply in ${name} (${ctx.language}); the registry texts are already in it.`;
}

function base(ctx: TDirectiveContext): Pick<TDirective, "language"> {
  return { language: ctx.language };
}

/** A directive about one step: its registry text and the constraints that apply to it. */
function stepDirective(
  ctx: TDirectiveContext,
  kind: TDirective["kind"],
  step: TStep,
  text: string,
  withOptions: boolean,
): TDirective {
  return {
    ...base(ctx),
    kind,
    step_id: step.id,
    text: inLanguage(ctx, text),
    registry: registryOf(ctx, step),
    constraints: constraintLines(ctx, step),
    ...(withOptions ? { options: optionsOf(localStep(ctx, step)) } : {}),
  };
}

/** A directive about the whole case (authorization, report, escalation): every constraint applies. */
function caseDirective(
  ctx: TDirectiveContext,
  kind: TDirective["kind"],
  step: TStep | null,
  text: string,
  extra: Partial<TDirective> = {},
): TDirective {
  return {
    ...base(ctx),
    kind,
    ...(step === null ? {} : { step_id: step.id }),
    text: inLanguage(ctx, text),
    registry: registryOf(ctx, step),
    constraints: constraintLines(ctx, null),
    ...extra,
  };
}

const join = (...parts: string[]) => parts.filter((p) => p !== "").join(" ");

export function askStep(ctx: TDirectiveContext, step: TStep, lead: string): TDirective {
  const text = join(
    lead,
    `Ask the technician step "${step.id}": "${step.question}"`,
    "Keep it short; give the how-to only if they ask. Never re-ask a completed step.",
  );
  return stepDirective(ctx, "ask_step", step, text, true);
}

/** The first (and only consecutive) "need more information" directive for a step. */
export function askMoreInfo(ctx: TDirectiveContext, step: TStep): TDirective {
  const text = `The reply did not answer step "${step.id}". Ask once, briefly, for the missing information: "${step.question}"`;
  return stepDirective(ctx, "ask_step", step, text, true);
}

export function rephraseStep(ctx: TDirectiveContext, step: TStep): TDirective {
  const text = join(
    `The reply still did not answer step "${step.id}". Do not ask for more information again:`,
    `rephrase the question using the how-to ("${step.howto}") and offer the answers explicitly: ${optionsOf(step).join(" / ")}.`,
  );
  return stepDirective(ctx, "rephrase", step, text, true);
}

/** The technician could not answer the step: nothing is recorded; how to check it, or it was passed. */
export function nonAnswer(
  ctx: TDirectiveContext,
  step: TStep,
  reason: TNotCheckedReason,
  passed: boolean,
  next: TDirective | null,
): TDirective {
  if (passed && next !== null) {
    const text = join(
      `The technician could not check step "${step.id}" (${reason}). It is recorded as NOT CHECKED, with no finding, and listed in the report.`,
      next.text,
    );
    return { ...next, text, not_checked: { reason, passed: true, question: localStep(ctx, step).question } };
  }
  const text = join(
    `The technician could not answer step "${step.id}" (${reason}). Record nothing: do not treat it as a yes or a no.`,
    `Explain briefly how to check it ("${step.howto}") and say that if they cannot check it now they can say "skip" and it will be reported as not checked.`,
  );
  return {
    ...stepDirective(ctx, "non_answer", step, text, true),
    not_checked: { reason, passed: false, question: localStep(ctx, step).question },
  };
}

export function rephraseAuthorization(
  ctx: TDirectiveContext,
  decisive: TStep | null,
  cause: string,
  correction: string,
): TDirective {
  const text = `The reply did not say whether the repair is authorized. Rephrase: proposed correction "${correction}". Ask for a plain yes or no.`;
  return caseDirective(ctx, "rephrase", decisive, text, {
    options: AUTHORIZATION_OPTIONS,
    diagnosis: { cause, correction },
  });
}

const TOPIC_FIELD = { locate: "locate", explain: "explain", howto: "howto" } as const;

export function answerClarification(
  ctx: TDirectiveContext,
  kind: TTopicKind,
  about: TStep,
  returnTo: { kind: "step"; step: TStep } | { kind: "authorization" } | { kind: "report" },
): TDirective {
  const available = about[TOPIC_FIELD[kind]] !== undefined;
  const answer = available
    ? `Answer the technician's ${kind} question briefly, from the registry "${kind}" text only${returnTo.kind === "step" && returnTo.step !== about ? ` (it is about step "${about.id}", not the active step)` : ""}.`
    : `The catalog has no "${kind}" text for this: say so in one sentence and point to the unit's service manual.`;
  const back =
    returnTo.kind === "step"
      ? `Then return to the active step and re-ask it: "${returnTo.step.question}"`
      : returnTo.kind === "authorization"
        ? "Then ask again for authorization to proceed with the repair (yes or no)."
        : "The report stands; do not restart the diagnosis.";
  const directive: TDirective = {
    ...stepDirective(ctx, "answer_clarification", about, join(answer, back), false),
    topic: kind,
    ...(returnTo.kind === "step" && returnTo.step !== about ? { part_step: about.id } : {}),
  };
  if (returnTo.kind === "step") {
    return {
      ...directive,
      step_id: returnTo.step.id,
      registry: withTopic(registryOf(ctx, returnTo.step), registryOf(ctx, about), kind),
      options: optionsOf(localStep(ctx, returnTo.step)),
      constraints: constraintLines(ctx, returnTo.step),
    };
  }
  return {
    ...directive,
    constraints: constraintLines(ctx, null),
    ...(returnTo.kind === "authorization" ? { options: AUTHORIZATION_OPTIONS } : {}),
  };
}

/** The active step's registry, with the clarified field taken from the step the question is about. */
function withTopic(active: TDirectiveRegistry, about: TDirectiveRegistry, kind: TTopicKind): TDirectiveRegistry {
  const { locate: _l, explain: _e, ...rest } = active;
  const out: TDirectiveRegistry = { ...rest, howto: kind === "howto" ? about.howto : active.howto };
  const locate = kind === "locate" ? about.locate : active.locate;
  const explain = kind === "explain" ? about.explain : active.explain;
  return { ...out, ...(locate === undefined ? {} : { locate }), ...(explain === undefined ? {} : { explain }) };
}

export function requestAuthorization(
  ctx: TDirectiveContext,
  decisive: TStep | null,
  cause: string,
  correction: string,
  lead: string,
): TDirective {
  const text = join(
    lead,
    `The diagnosis is complete. Cause: ${cause} Proposed correction: ${correction}`,
    "Ask the technician for authorization to proceed with the repair (yes or no). Do not start new diagnostic steps.",
  );
  return caseDirective(ctx, "request_authorization", decisive, text, {
    options: AUTHORIZATION_OPTIONS,
    diagnosis: { cause, correction },
  });
}

/** A reply to the authorization request that is not a plain yes or no: answered, authorization still open. */
export function authorizationPending(
  ctx: TDirectiveContext,
  decisive: TStep | null,
  cause: string,
  correction: string,
  pending: NonNullable<TDirective["pending"]>,
  laborMinutes: number,
): TDirective {
  const what = {
    deferral: "The technician defers the decision (the customer or owner has to approve first).",
    conditional: "The technician set a condition: that is not an authorization.",
    cost: `The technician asks about cost. The catalog has no prices; the labor estimate so far is ${laborMinutes} min.`,
    question: "The technician asked a question before deciding: answer it from the diagnosis.",
    non_answer: "The technician does not know yet.",
  }[pending];
  const text = join(
    what,
    "The repair is NOT authorized: record nothing. Say the case waits in authorization and ask for a plain yes or no when they can give it.",
  );
  return caseDirective(ctx, "authorization_pending", decisive, text, {
    options: AUTHORIZATION_OPTIONS,
    diagnosis: { cause, correction },
    pending,
    labor_minutes: laborMinutes,
  });
}

export function finalReport(ctx: TDirectiveContext, decisive: TStep | null, report: TReport): TDirective {
  const status =
    report.resolution === "fixed_by_technician"
      ? "The technician repaired it: record the repair as theirs."
      : report.escalation === "warranty"
        ? "The case was escalated under warranty: record the diagnosis and the escalation; do not describe a repair as done."
        : report.escalation === "evidence"
          ? "The case was escalated on the evidence found: record it; no repair is authorized."
          : report.authorized
            ? "The repair is authorized."
            : "The repair was NOT authorized: record the diagnosis and the recommended correction only.";
  const text = join(
    "Write the final report from the report field: complaint, cause, correction, the steps performed with their findings,",
    `the steps not checked, observations, notes, and the draft labor (${report.labor.draft_minutes} min).`,
    status,
    report.translation === null
      ? ""
      : "Write it in English, then the copy in the technician's language from report.translation.",
  );
  return caseDirective(ctx, "final_report", decisive, text, { report });
}

/** After the report: a labor change or a note made a new revision, or nothing changed. */
/**
 * A question after the report that names no part ("what was the cause?"): answered from the
 * report itself, not from a step's registry text; a question about something else is said to be
 * outside the desk.
 */
export function answerFromReport(ctx: TDirectiveContext, decisive: TStep | null, report: TReport): TDirective {
  const text = join(
    `Answer from the report only: the cause is "${report.cause}", the correction "${report.correction}".`,
    "If the question is not about this case, say in one sentence that this desk covers the case only.",
    "The report stands; do not restart the diagnosis.",
  );
  return caseDirective(ctx, "answer_clarification", decisive, text, { report });
}

export function reportUpdate(
  ctx: TDirectiveContext,
  decisive: TStep | null,
  report: TReport,
  update: "labor" | "note" | "none",
): TDirective {
  const text =
    update === "none"
      ? "The technician acknowledged the report. Answer in one sentence; the report stands as written."
      : `The report was revised (revision ${report.revision}: ${update === "labor" ? "labor changed" : "a technician note was added"}). Confirm it in one sentence and show the revised report.`;
  return caseDirective(ctx, "report_update", decisive, text, {
    report,
    update,
    labor_minutes: report.labor.draft_minutes,
  });
}

export function escalateLoop(ctx: TDirectiveContext, step: TStep | null, reasks: number): TDirective {
  const where = step === null ? "the authorization request" : `step "${step.id}" ("${step.question}")`;
  const text = join(
    `${where} has had ${reasks} replies without a usable answer.`,
    "Suggest involving a senior technician or the dealer. The case stays open there and continues as soon as they answer.",
  );
  return caseDirective(ctx, "escalate", step, text);
}

export function escalateWarranty(ctx: TDirectiveContext, step: TStep, report: TReport, lead: string): TDirective {
  const text = join(
    lead,
    `Stop the diagnosis: continuing is not allowed under warranty. Cause: ${report.cause}`,
    `Tell the technician to escalate to the dealer: ${report.correction}`,
    "Do not suggest opening, adjusting or repairing the component.",
  );
  return caseDirective(ctx, "escalate", step, text, { report });
}

/** Free-form evidence a rule recognised: the case stops with the rule's cause and correction. */
export function escalateEvidence(
  ctx: TDirectiveContext,
  rule: { id: string; label: string },
  report: TReport,
): TDirective {
  const text = join(
    `Stop the diagnosis: the technician reported ${rule.label.toLowerCase()}, which changes the conclusion. Cause: ${report.cause}`,
    `Tell them: ${report.correction}`,
    "Do not authorize or describe the earlier repair.",
  );
  return caseDirective(ctx, "escalate", null, text, { report, observation: { rule: rule.id, label: rule.label } });
}

/** A safety rule stopped the case: its instruction, never a next step. */
export function safetyStop(
  ctx: TDirectiveContext,
  rule: { id: string; instruction: string; clear_patterns: readonly string[] },
  cleared: boolean,
): TDirective {
  const text = join(
    `SAFETY STOP (${rule.id}). Give the technician this instruction first and nothing else to do: "${rule.instruction}"`,
    "Do not ask a diagnostic step. Say the diagnosis continues when they confirm it is safe.",
  );
  return caseDirective(ctx, "safety_stop", null, text, {
    safety: { rule: rule.id, instruction: rule.instruction, clear_example: rule.clear_patterns[0] ?? "", cleared },
  });
}
