// Directive builders: the instruction text the model receives, with the step's registry text and
// the constraints that apply. They format; the engine (engine.ts) has already decided the flow.
// Texts are written to the model ("Ask …", "Tell them …"), never to the technician.

import type { TAnswer, TCatalog, TStep, TSystem } from "./catalog-schema";
import { buildStepContext, getConstraints } from "./registry";
import type { TDirective, TDirectiveRegistry, TReport, TTopicKind } from "./state";

export type TDirectiveContext = { catalog: TCatalog; system: TSystem };

const AUTHORIZATION_OPTIONS = ["yes", "no"];

export function optionsOf(step: TStep): string[] {
  return step.answers.map((answer) => answer.label ?? answer.id);
}

export function labelOf(answer: TAnswer): string {
  return answer.label ?? answer.id;
}

function registryOf(ctx: TDirectiveContext, step: TStep | null): TDirectiveRegistry {
  const text = step === null ? null : buildStepContext(ctx.catalog, ctx.system.id, step.id);
  if (text === null) return { question: ctx.system.procedure.title, howto: "" };
  return {
    question: text.question,
    howto: text.howto,
    ...(text.locate === null ? {} : { locate: text.locate }),
    ...(text.explain === null ? {} : { explain: text.explain }),
  };
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
    kind,
    step_id: step.id,
    text,
    registry: registryOf(ctx, step),
    constraints: getConstraints(ctx.catalog, ctx.system.id, step.id),
    ...(withOptions ? { options: optionsOf(step) } : {}),
  };
}

/** A directive about the whole case (authorization, report, escalation): every constraint applies. */
function caseDirective(
  ctx: TDirectiveContext,
  kind: TDirective["kind"],
  step: TStep | null,
  text: string,
  extra: { options?: string[]; report?: TReport } = {},
): TDirective {
  return {
    kind,
    ...(step === null ? {} : { step_id: step.id }),
    text,
    registry: registryOf(ctx, step),
    constraints: getConstraints(ctx.catalog, ctx.system.id),
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

export function rephraseAuthorization(
  ctx: TDirectiveContext,
  decisive: TStep | null,
  cause: string,
  correction: string,
): TDirective {
  const text = `The reply did not say whether the repair is authorized. Rephrase: proposed correction "${correction}". Ask for a plain yes or no.`;
  return {
    ...caseDirective(ctx, "rephrase", decisive, text, { options: AUTHORIZATION_OPTIONS }),
    diagnosis: { cause, correction },
  };
}

const TOPIC_FIELD = { locate: "locate", explain: "explain", howto: "howto" } as const;

export function answerClarification(
  ctx: TDirectiveContext,
  kind: TTopicKind,
  step: TStep,
  returnTo: "step" | "authorization",
): TDirective {
  const available = step[TOPIC_FIELD[kind]] !== undefined;
  const answer = available
    ? `Answer the technician's ${kind} question briefly, from the registry "${kind}" text only.`
    : `The catalog has no "${kind}" text for this step: say so in one sentence and point to the unit's service manual.`;
  const back =
    returnTo === "step"
      ? `Then return to the active step and re-ask it: "${step.question}"`
      : "Then ask again for authorization to proceed with the repair (yes or no).";
  const directive = {
    ...stepDirective(ctx, "answer_clarification", step, join(answer, back), returnTo === "step"),
    topic: kind,
  };
  return returnTo === "step"
    ? directive
    : { ...directive, constraints: getConstraints(ctx.catalog, ctx.system.id), options: AUTHORIZATION_OPTIONS };
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
  return {
    ...caseDirective(ctx, "request_authorization", decisive, text, { options: AUTHORIZATION_OPTIONS }),
    diagnosis: { cause, correction },
  };
}

export function finalReport(ctx: TDirectiveContext, decisive: TStep | null, report: TReport): TDirective {
  const status =
    report.escalation === "warranty"
      ? "The case was escalated under warranty: record the diagnosis and the escalation; do not describe a repair as done."
      : report.authorized
        ? "The repair is authorized."
        : "The repair was NOT authorized: record the diagnosis and the recommended correction only.";
  const text = join(
    "Write the final report from the report field: complaint, cause, correction, the steps performed with their findings,",
    `and the draft labor (${report.labor.draft_minutes} min).`,
    status,
  );
  return caseDirective(ctx, "final_report", decisive, text, { report });
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
