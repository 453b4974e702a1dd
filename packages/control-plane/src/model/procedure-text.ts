import type { TContextEvent, TDirective, TReport } from "@solserver/engine";
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
