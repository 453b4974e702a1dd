import {
  fillTemplate,
  LANGUAGE_PACKS,
  type TContextEvent,
  type TDirective,
  type TLanguagePack,
  type TReport,
} from "@solserver/engine";
import type { TModelProcedure } from "./provider";

// The offline model's wording of a context-engine directive (procedure mode, seed 004). The
// engine has decided what happens; this only puts it in sentences for the technician, from the
// directive's structured fields and the registry text it carries, in the technician's language
// (the language packs' `replies`). Deterministic.

type TDirectiveInput = Extract<TModelProcedure, { kind: "directive" }>;
type TValues = Readonly<Record<string, string | number>>;

export const ENGLISH = "en";

export function packOf(language: string | undefined): TLanguagePack {
  const pack = LANGUAGE_PACKS.get(language ?? ENGLISH) ?? LANGUAGE_PACKS.get(ENGLISH);
  if (pack === undefined) throw new Error("the English language pack is missing");
  return pack;
}

/** One reply of a language pack, filled in (English when the pack lacks it). */
export function say(language: string | undefined, key: string, values: TValues = {}): string {
  const own = packOf(language).replies[key];
  return fillTemplate(own ?? packOf(ENGLISH).replies[key] ?? key, values);
}

function eventsOf(events: readonly TContextEvent[], type: TContextEvent["type"]) {
  return events.filter((e) => e.type === type);
}

/** The options as an answer line, or nothing when there are none. */
function optionsLine(language: string | undefined, options: readonly string[] | undefined): string[] {
  return options && options.length > 0 ? [say(language, "answer_with", { options: options.join(" / ") })] : [];
}

function constraintLines(directive: TDirective): string[] {
  return directive.constraints.map((c) => `⚠ ${c}`);
}

function diagnosisLines(directive: TDirective): string[] {
  const d = directive.diagnosis;
  const l = directive.language;
  return d ? [say(l, "cause", { text: d.cause }), say(l, "proposed_correction", { text: d.correction })] : [];
}

/** The pack reply that names each reason a step was not checked. */
export const REASON_KEYS: Readonly<Record<string, string>> = {
  unknown: "reason_unknown",
  no_tool: "reason_no_tool",
  not_yet: "reason_not_yet",
  no_access: "reason_no_access",
  skipped: "reason_skipped",
  retracted: "reason_not_yet",
};

function reasonText(language: string | undefined, reason: string): string {
  return say(language, REASON_KEYS[reason] ?? "reason_unknown");
}

type TReportBody = {
  cause: string;
  correction: string;
  steps: readonly { question: string; finding: string }[];
  notChecked: readonly { question: string; reason: string }[];
  observations: readonly { label: string; text: string }[];
};

function reportBody(language: string | undefined, report: TReport, body: TReportBody): string[] {
  const title =
    report.revision > 1
      ? say(language, "report_revision", { revision: report.revision, reason: report.revised_because ?? "" })
      : say(language, "report_title");
  const status =
    report.resolution === "fixed_by_technician"
      ? say(language, "status_fixed")
      : report.escalation === "warranty"
        ? say(language, "status_warranty")
        : report.escalation === "evidence"
          ? say(language, "status_evidence")
          : report.authorized
            ? say(language, "status_authorized")
            : say(language, "status_not_authorized");
  return [
    title,
    say(language, "complaint", { text: report.complaint }),
    say(language, "cause", { text: body.cause }),
    say(language, "correction", { text: body.correction }),
    say(language, "steps_performed"),
    ...body.steps.map((s, i) => `${i + 1}. ${s.question} → ${s.finding}`),
    ...(body.notChecked.length > 0
      ? [
          say(language, "not_checked"),
          ...body.notChecked.map((s) => `- ${s.question} (${reasonText(language, s.reason)})`),
        ]
      : []),
    ...(body.observations.length > 0
      ? [say(language, "observations"), ...body.observations.map((o) => `- ${o.label}: ${o.text}`)]
      : []),
    ...(report.notes.length > 0 ? [say(language, "notes"), ...report.notes.map((n) => `- ${n}`)] : []),
    say(language, "labor", { minutes: report.labor.draft_minutes }),
    status,
  ];
}

/**
 * The final report as plain text: in English (the shop's record), then, when the technician
 * writes another language, its copy in that language.
 */
export function reportText(report: TReport, findingLabels: Readonly<Record<string, string>> = {}): string[] {
  const english = reportBody(ENGLISH, report, {
    cause: report.cause,
    correction: report.correction,
    // The record keeps the catalog's finding keys; the text reads as the technician answered.
    steps: report.steps_performed.map((s) => ({ ...s, finding: findingLabels[s.finding] ?? s.finding })),
    notChecked: report.not_checked,
    observations: report.observations,
  });
  const t = report.translation;
  if (t === null) return english;
  const name = packOf(t.language).name;
  return [
    ...english,
    "",
    say(t.language, "copy_in_language", { language: name }),
    ...reportBody(t.language, report, {
      cause: t.cause,
      correction: t.correction,
      steps: t.steps_performed,
      notChecked: t.not_checked,
      observations: t.observations,
    }),
  ];
}

/** What opened the turn: the complaint, what was recorded, an unclear reply. */
function leadLines(input: TDirectiveInput): string[] {
  const { directive, events } = input;
  const l = directive.language;
  const lines: string[] = [];
  const intent = eventsOf(events, "intent")[0]?.detail;
  if (intent?.intent === "COMPLAINT") {
    lines.push(say(l, "start", { system: input.system, procedure: input.procedure }));
    if (directive.recorded) lines.push(say(l, "from_description", { findings: directive.recorded }));
    return lines;
  }
  if (directive.safety?.cleared) lines.push(say(l, "safety_cleared"));
  if (directive.on_record) {
    const findings = directive.on_record.findings.join("; ") || say(l, "nothing_yet");
    lines.push(
      directive.on_record.answer === null
        ? say(l, "already_told_none", { findings })
        : say(l, "already_told_found", { answer: directive.on_record.answer }),
    );
  } else if (directive.recorded) lines.push(say(l, "recorded", { answers: directive.recorded }));
  else if (intent?.intent === "UNCLEAR" && directive.kind === "ask_step") lines.push(say(l, "unclear"));
  if (directive.labor_minutes !== undefined) lines.push(say(l, "labor_updated", { minutes: directive.labor_minutes }));
  return lines;
}

function askLines(directive: TDirective): string[] {
  return [
    directive.registry.question,
    ...optionsLine(directive.language, directive.options),
    ...constraintLines(directive),
  ];
}

function authorizationLines(directive: TDirective): string[] {
  const l = directive.language;
  return [say(l, "diagnosis_complete"), ...diagnosisLines(directive), say(l, "authorize_question")];
}

function clarificationLines(directive: TDirective, mode: TDirectiveInput["mode"]): string[] {
  const l = directive.language;
  const topic = directive.topic ?? "howto";
  const text = directive.registry[topic];
  const answer = text !== undefined && text !== "" ? text : say(l, `no_text_${topic}`);
  if (mode === "final_report") return [answer];
  return [
    answer,
    mode === "authorization"
      ? say(l, "back_to_repair", { question: say(l, "authorize_question") })
      : say(l, "back_to_step", { question: directive.registry.question }),
    ...(mode === "authorization" ? [] : optionsLine(l, directive.options)),
  ];
}

function escalateLines(input: TDirectiveInput): string[] {
  const { directive, events } = input;
  const l = directive.language;
  const report = directive.report;
  if (directive.observation && report) {
    return [
      say(l, "evidence_stop", { label: directive.observation.label }),
      say(l, "cause", { text: report.translation?.cause ?? report.cause }),
      say(l, "escalate_dealer", { text: report.translation?.correction ?? report.correction }),
      ...constraintLines(directive),
    ];
  }
  if (report?.escalation === "warranty") {
    return [
      say(l, "warranty_stop"),
      say(l, "cause", { text: report.translation?.cause ?? report.cause }),
      say(l, "escalate_dealer", { text: report.translation?.correction ?? report.correction }),
      say(l, "do_not_open"),
      ...constraintLines(directive),
    ];
  }
  const reasks = eventsOf(events, "loop_guard")[0]?.detail.reasks;
  const what = directive.step_id ? `"${directive.registry.question}"` : say(l, "the_authorization_request");
  return [say(l, "loop_escalate", { count: String(reasks ?? "?"), what }), say(l, "involve_senior")];
}

function replanLines(directive: TDirective): string[] {
  const l = directive.language;
  const r = directive.replan;
  if (!r) return [];
  const head =
    r.from === null && r.to === ""
      ? say(l, "reopened", { question: r.question })
      : say(l, "replan", { from: r.from ?? say(l, "something_else"), to: r.to, question: r.question });
  return [head, ...(r.set_aside.length > 0 ? [say(l, "set_aside", { steps: r.set_aside.join(", ") })] : [])];
}

function nonAnswerLines(directive: TDirective): string[] {
  const l = directive.language;
  const n = directive.not_checked;
  if (n === undefined) return askLines(directive);
  return [
    say(l, "non_answer", { reason: reasonText(l, n.reason) }),
    say(l, "how_to_check", { howto: directive.registry.howto }),
    say(l, "offer_skip"),
    directive.registry.question,
    ...optionsLine(l, directive.options),
  ];
}

function pendingLines(directive: TDirective): string[] {
  const l = directive.language;
  const reason =
    directive.pending === "cost"
      ? say(l, "cost", { minutes: directive.labor_minutes ?? 0 })
      : directive.pending === "conditional"
        ? say(l, "conditional")
        : say(l, "deferral");
  return [say(l, "not_authorized_yet"), reason, ...diagnosisLines(directive), say(l, "authorize_question")];
}

function directiveLines(input: TDirectiveInput): string[] {
  const { directive } = input;
  const l = directive.language;
  // A step passed as not checked says so before whatever comes next.
  const passed =
    directive.not_checked?.passed === true
      ? [
          say(l, "passed_unchecked", {
            reason: reasonText(l, directive.not_checked.reason),
            question: directive.not_checked.question,
          }),
        ]
      : [];
  switch (directive.kind) {
    case "ask_step":
      return [...passed, ...leadLines(input), ...askLines(directive)];
    case "non_answer":
      return nonAnswerLines(directive);
    case "answer_clarification":
      return clarificationLines(directive, input.mode);
    case "replan":
      return [
        ...replanLines(directive),
        ...(directive.recorded ? [say(l, "recorded", { answers: directive.recorded })] : []),
        ...(directive.diagnosis ? authorizationLines(directive) : askLines(directive)),
      ];
    case "request_authorization":
      return [...passed, ...leadLines(input), ...authorizationLines(directive)];
    case "authorization_pending":
      return pendingLines(directive);
    case "rephrase":
      return input.mode === "diagnostic"
        ? [
            say(l, "rephrase"),
            directive.registry.howto,
            directive.registry.question,
            ...optionsLine(l, directive.options),
          ]
        : [
            say(l, "plain_yes_no"),
            ...(directive.diagnosis ? [say(l, "proposed_correction", { text: directive.diagnosis.correction })] : []),
            say(l, "authorize_question"),
          ];
    case "final_report":
      return [
        ...passed,
        ...(directive.repair ? [say(l, "resolved", { text: directive.repair })] : []),
        ...(directive.report ? reportText(directive.report, input.findingLabels) : [say(l, "diagnosis_complete")]),
      ];
    case "report_update":
      return directive.update === "none" || !directive.report
        ? [say(l, "acknowledged")]
        : [
            directive.update === "labor"
              ? say(l, "labor_updated", { minutes: directive.report.labor.draft_minutes })
              : say(l, "note_added"),
            ...reportText(directive.report, input.findingLabels),
          ];
    case "safety_stop": {
      const s = directive.safety;
      return s
        ? [
            say(l, "safety_stop", { instruction: s.instruction }),
            say(l, "safety_wait", { clear: s.clear_example }),
            ...constraintLines(directive),
          ]
        : [];
    }
    case "escalate":
      return [...passed, ...escalateLines(input)];
  }
}

/** The technician-facing reply that carries out this turn's procedure directive. */
export function procedureReply(procedure: TModelProcedure): string {
  if (procedure.kind === "choose_system") {
    const names = procedure.systems.map((s) => `${s.name} (e.g. "${s.keywords[0] ?? s.id}")`).join(", ");
    return say(ENGLISH, "which_system", { systems: names });
  }
  return directiveLines(procedure)
    .filter((line) => line !== "")
    .join("\n");
}
