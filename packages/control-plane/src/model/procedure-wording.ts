import { LANGUAGE_PACKS, type TContextEvent, type TReport } from "@solserver/engine";
import type { TProcedureWording } from "../services/claim-statements";
import { ENGLISH, packOf, REASON_KEYS, say } from "./procedure-text";
import type { TModelProcedure } from "./provider";

// What an answer may repeat of a procedure turn without it being a claim (claim-statements.ts):
// the directive's own texts, and the fixed wording procedure-text.ts frames them with, read off
// the language packs' reply templates.

/** The fixed parts of a template: the text between its placeholders. */
function fixedParts(template: string): string[] {
  const out: string[] = [];
  let from = 0;
  let at = template.indexOf("{");
  while (at >= 0) {
    const end = template.indexOf("}", at);
    if (end < 0) break;
    out.push(template.slice(from, at));
    from = end + 1;
    at = template.indexOf("{", from);
  }
  out.push(template.slice(from));
  // A frame is matched inside one sentence: cut at sentence and quote marks too.
  return out
    .flatMap((part) => part.split(/[.?!:;()"«»“”¿¡]/u))
    .map((part) => part.trim())
    .filter((part) => /[\p{L}\p{N}]/u.test(part));
}

/**
 * The fixed wording the functions above frame a directive with, in every language pack ("#"
 * stands for a number). In a strict domain a sentence made only of these and of whole texts of
 * the turn's directive is the directive's own wording, not a claim (services/claim-statements.ts).
 * Derived from the packs' reply templates, so a new reply or language needs no list here:
 * claim-completeness.test.ts words every kind of directive in every language and fails on any
 * sentence that would need a claim.
 */
const PROCEDURE_FRAMES: readonly string[] = [
  "#",
  ...new Set(
    [...LANGUAGE_PACKS.values()].flatMap((pack) =>
      Object.entries(pack.replies)
        .filter(([key]) => key !== "which_system")
        .flatMap(([, template]) => fixedParts(template)),
    ),
  ),
];

/** The fixed wording of the choose-system question (procedureReply's first branch). */
const CHOOSE_SYSTEM_FRAMES: readonly string[] = ["e g", ...fixedParts(packOf(ENGLISH).replies.which_system ?? "")];

/** The text values of the engine's events (findings noted, steps, intents). */
function eventTexts(events: readonly TContextEvent[]): string[] {
  return events.flatMap((e) =>
    Object.values(e.detail).flatMap((v) => (typeof v === "string" ? [v] : Array.isArray(v) ? v : [])),
  );
}

function reportTexts(report: TReport | undefined): string[] {
  if (!report) return [];
  const t = report.translation;
  return [
    report.complaint,
    report.cause,
    report.correction,
    report.revised_because ?? "",
    report.repair ?? "",
    ...report.notes,
    ...report.steps_performed.flatMap((s) => [s.step, s.question, s.finding]),
    ...report.not_checked.flatMap((s) => [s.step, s.question]),
    ...report.observations.flatMap((o) => [o.label, o.text]),
    ...(t === null
      ? []
      : [
          t.cause,
          t.correction,
          ...t.steps_performed.flatMap((s) => [s.question, s.finding]),
          ...t.not_checked.map((s) => s.question),
          ...t.observations.flatMap((o) => [o.label, o.text]),
          packOf(t.language).name,
        ]),
  ];
}

/** Every reason label in the technician's language (they appear inside framed sentences). */
function reasonTexts(language: string | undefined): string[] {
  return [...new Set(Object.values(REASON_KEYS))].map((key) => say(language, key));
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
    ...(d.recorded_all ?? []),
    ...(d.earlier ? [d.earlier] : []),
    ...(d.repair ? [d.repair] : []),
    ...(d.not_checked ? [d.not_checked.question] : []),
    ...(d.safety ? [d.safety.instruction, d.safety.clear_example] : []),
    ...(d.observation ? [d.observation.label] : []),
    ...(d.on_record ? [d.on_record.answer ?? "", ...d.on_record.findings] : []),
    ...replan,
    ...reportTexts(d.report),
    // What the report text says for its findings (procedure-text.ts), directive wording too.
    ...(d.report ? d.report.steps_performed.map((s) => procedure.findingLabels?.[s.finding] ?? "") : []),
    ...reasonTexts(d.language),
    ...eventTexts(procedure.events),
  ].filter((t) => t.trim() !== "");
  return {
    texts,
    frames: PROCEDURE_FRAMES,
    askVocabulary: d.step_id ? [...registry, ...(d.options ?? []), procedure.system] : [],
  };
}
