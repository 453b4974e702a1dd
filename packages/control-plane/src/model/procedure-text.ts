import type { TContextEvent, TDirective, TReport } from "@solserver/engine";
import type { TProcedureWording } from "../services/claim-statements";
import type { TModelProcedure } from "./provider";

// The offline model's wording of a context-engine directive (procedure mode, seed 004). The
// engine has decided what happens; this only puts it in sentences for the technician, from the
// directive's structured fields and the registry text it carries. Deterministic.

type TDirectiveInput = Extract<TModelProcedure, { kind: "directive" }>;

const AUTHORIZATION_QUESTION = "Do you authorize the repair? Answer yes or no.";

function eventsOf(events: readonly TContextEvent[], type: TContextEvent["type"]) {
  return events.filter((e) => e.type === type);
}

/** The options as an answer line, or nothing when there are none. */
function optionsLine(options: readonly string[] | undefined): string[] {
  return options && options.length > 0 ? [`Answer with one of: ${options.join(" / ")}.`] : [];
}

function constraintLines(directive: TDirective): string[] {
  return directive.constraints.map((c) => `⚠ ${c}`);
}

function diagnosisLines(directive: TDirective): string[] {
  const d = directive.diagnosis;
  return d ? [`Cause: ${d.cause}`, `Proposed correction: ${d.correction}`] : [];
}

/** The final report as plain text (complaint, cause, correction, steps, labor, authorization). */
export function reportText(report: TReport): string[] {
  const status =
    report.escalation === "warranty"
      ? "Escalated to the dealer under warranty: no repair was done."
      : report.authorized
        ? "Repair authorized."
        : "Repair not authorized: the correction is a recommendation.";
  return [
    "Final report",
    `Complaint: ${report.complaint}`,
    `Cause: ${report.cause}`,
    `Correction: ${report.correction}`,
    "Steps performed:",
    ...report.steps_performed.map((s, i) => `${i + 1}. ${s.question} → ${s.finding}`),
    `Labor (draft): ${report.labor.draft_minutes} min`,
    status,
  ];
}

/** What opened the turn: the complaint, a recorded answer, a noted finding or an unclear reply. */
function leadLines(input: TDirectiveInput): string[] {
  const { directive, events } = input;
  const lines: string[] = [];
  const intent = eventsOf(events, "intent")[0]?.detail;
  if (intent?.intent === "COMPLAINT") {
    lines.push(`Let's diagnose the ${input.system} step by step (${input.procedure}).`);
    const noted = intent.noted;
    if (Array.isArray(noted) && noted.length > 0)
      lines.push(
        `I noted what you described (${noted.join(", ")}); we will confirm it with a check when we get there.`,
      );
  }
  if (directive.recorded) lines.push(`Recorded: ${directive.recorded}.`);
  else if (intent?.intent === "UNCLEAR" && directive.kind === "ask_step")
    lines.push("I could not match that to an answer for this step.");
  else if (intent?.intent === "NEW_EVIDENCE" && Array.isArray(intent.noted) && intent.noted.length > 0)
    lines.push(`Noted: ${intent.noted.join(", ")}. I will use it when we reach that step.`);
  if (directive.earlier) lines.push(`You said earlier: "${directive.earlier}". Please confirm it with this check.`);
  return lines;
}

function askLines(directive: TDirective): string[] {
  return [directive.registry.question, ...optionsLine(directive.options), ...constraintLines(directive)];
}

function authorizationLines(directive: TDirective): string[] {
  return ["The diagnosis is complete.", ...diagnosisLines(directive), AUTHORIZATION_QUESTION];
}

function clarificationLines(directive: TDirective, authorization: boolean): string[] {
  const topic = directive.topic ?? "howto";
  const text = directive.registry[topic];
  const answer =
    text !== undefined && text !== ""
      ? text
      : `The procedure has no ${topic === "locate" ? "location" : topic === "explain" ? "explanation" : "how-to"} for this step: check the unit's service manual.`;
  return [
    answer,
    authorization
      ? `Back to the repair: ${AUTHORIZATION_QUESTION}`
      : `Back to the step: ${directive.registry.question}`,
    ...(authorization ? [] : optionsLine(directive.options)),
  ];
}

function escalateLines(input: TDirectiveInput): string[] {
  const { directive, events } = input;
  const report = directive.report;
  if (report?.escalation === "warranty") {
    return [
      "Stop here: continuing is not allowed under warranty.",
      `Cause: ${report.cause}`,
      `Escalate to the dealer: ${report.correction}`,
      "Do not open, adjust or repair the component.",
      ...constraintLines(directive),
    ];
  }
  const reasks = eventsOf(events, "loop_guard")[0]?.detail.reasks;
  const what = directive.step_id ? `"${directive.registry.question}"` : "the authorization request";
  return [
    `We have had ${String(reasks ?? "several")} replies without a usable answer to ${what}.`,
    "Please involve a senior technician or the dealer: the case stays open and continues as soon as they answer.",
  ];
}

function directiveLines(input: TDirectiveInput): string[] {
  const { directive } = input;
  switch (directive.kind) {
    case "ask_step":
      return [...leadLines(input), ...askLines(directive)];
    case "answer_clarification":
      return clarificationLines(directive, input.mode === "authorization");
    case "replan": {
      const r = directive.replan;
      const lines = r
        ? [
            `You corrected an earlier answer: "${r.from ?? "something else"}" is now "${r.to}". That changes the diagnosis, so we go back to: ${r.question}`,
            ...(r.set_aside.length > 0
              ? [`Steps set aside (asked again if still needed): ${r.set_aside.join(", ")}.`]
              : []),
          ]
        : [];
      return [...lines, ...(directive.diagnosis ? authorizationLines(directive) : askLines(directive))];
    }
    case "request_authorization":
      return [...leadLines(input), ...authorizationLines(directive)];
    case "rephrase":
      return input.mode === "diagnostic"
        ? [
            "Let me put it another way.",
            directive.registry.howto,
            directive.registry.question,
            ...optionsLine(directive.options),
          ]
        : [
            "I need a plain yes or no.",
            ...(directive.diagnosis ? [`Proposed correction: ${directive.diagnosis.correction}`] : []),
            AUTHORIZATION_QUESTION,
          ];
    case "final_report":
      return directive.report ? reportText(directive.report) : ["The diagnosis is complete."];
    case "escalate":
      return escalateLines(input);
  }
}

/** The technician-facing reply that carries out this turn's procedure directive. */
export function procedureReply(procedure: TModelProcedure): string {
  if (procedure.kind === "choose_system") {
    const names = procedure.systems.map((s) => `${s.name} (e.g. "${s.keywords[0] ?? s.id}")`).join(", ");
    return `Which system is this about? I can guide a diagnosis of: ${names}. Describe the problem and name the system.`;
  }
  return directiveLines(procedure).join("\n");
}

// ---- what an answer may repeat of a procedure turn without it being a claim --------------------

/**
 * The fixed wording the functions above frame a directive with, in words ("#" stands for a
 * number). In a strict domain a sentence made only of these and of whole texts of the turn's
 * directive is the directive's own wording, not a claim (services/claim-statements.ts). Change
 * the wording above and this list with it: claim-completeness.test.ts words every kind of
 * directive of the shipped catalog and fails on any sentence that would need a claim.
 */
export const PROCEDURE_FRAMES: readonly string[] = [
  "#",
  "answer with one of",
  "answer yes or no",
  "do you authorize the repair",
  "cause",
  "proposed correction",
  "correction",
  "complaint",
  "final report",
  "steps performed",
  "labor draft # min",
  "repair authorized",
  "repair not authorized the correction is a recommendation",
  "escalated to the dealer under warranty no repair was done",
  "let's diagnose the",
  "step by step",
  "i noted what you described",
  "we will confirm it with a check when we get there",
  "recorded",
  "i could not match that to an answer for this step",
  "noted",
  "i will use it when we reach that step",
  "you said earlier",
  "please confirm it with this check",
  "the diagnosis is complete",
  "the procedure has no location for this step check the unit's service manual",
  "the procedure has no explanation for this step check the unit's service manual",
  "the procedure has no how-to for this step check the unit's service manual",
  "back to the step",
  "back to the repair",
  "stop here continuing is not allowed under warranty",
  "escalate to the dealer",
  "do not open adjust or repair the component",
  "we have had # replies without a usable answer to",
  "we have had several replies without a usable answer to",
  "the authorization request",
  "please involve a senior technician or the dealer the case stays open and continues as soon as they answer",
  "you corrected an earlier answer",
  "is now",
  "something else",
  "that changes the diagnosis so we go back to",
  "steps set aside asked again if still needed",
  "let me put it another way",
  "i need a plain yes or no",
];

/** The fixed wording of the choose-system question (procedureReply's first branch). */
export const CHOOSE_SYSTEM_FRAMES: readonly string[] = [
  "which system is this about",
  "i can guide a diagnosis of",
  "e g",
  "describe the problem and name the system",
];

/** The text values of the engine's events (findings noted, steps, intents). */
function eventTexts(events: readonly TContextEvent[]): string[] {
  return events.flatMap((e) =>
    Object.values(e.detail).flatMap((v) => (typeof v === "string" ? [v] : Array.isArray(v) ? v : [])),
  );
}

function reportTexts(report: TReport | undefined): string[] {
  if (!report) return [];
  return [
    report.complaint,
    report.cause,
    report.correction,
    ...report.steps_performed.flatMap((s) => [s.step, s.question, s.finding]),
  ];
}

/**
 * What an answer may repeat of this turn's procedure without it being a claim: the directive's
 * texts for the technician (never its instruction to the model), the framing above, and the words
 * of the check being asked (so a model may ask it in its own words: "Please check the pump fuse
 * at the distribution panel.").
 */
export function procedureWording(procedure: TModelProcedure): TProcedureWording {
  if (procedure.kind === "choose_system") {
    return {
      texts: procedure.systems.flatMap((s) => [s.id, s.name, ...s.keywords]),
      frames: CHOOSE_SYSTEM_FRAMES,
      askVocabulary: [],
    };
  }
  const d = procedure.directive;
  const registry = [d.registry.question, d.registry.howto, d.registry.locate ?? "", d.registry.explain ?? ""];
  const replan = d.replan
    ? [d.replan.step_id, d.replan.question, d.replan.from ?? "", d.replan.to, ...d.replan.set_aside]
    : [];
  const texts = [
    procedure.system,
    procedure.procedure,
    ...(d.step_id ? [d.step_id] : []),
    ...registry,
    ...(d.options ?? []),
    ...d.constraints,
    ...(d.diagnosis ? [d.diagnosis.cause, d.diagnosis.correction] : []),
    ...(d.recorded ? [d.recorded] : []),
    ...(d.earlier ? [d.earlier] : []),
    ...replan,
    ...reportTexts(d.report),
    ...eventTexts(procedure.events),
  ].filter((t) => t.trim() !== "");
  return {
    texts,
    frames: PROCEDURE_FRAMES,
    askVocabulary: d.step_id ? [...registry, ...(d.options ?? []), procedure.system] : [],
  };
}
