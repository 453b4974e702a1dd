// The context engine's contracts: the conversation state (plain JSON, versioned, persisted by the
// caller between turns), the directive the model is given each turn, and the trace events.

import { z } from "zod";
import { findingKey, findingValue } from "./catalog-schema";

// 2: language, not-checked steps, safety stop, observations, report revisions (issue 22). A
// stored state of version 1 no longer parses, so the control plane rebuilds it from the messages.
export const CONTEXT_STATE_VERSION = 2;
/** Non-answers at one step before it is passed as not checked ("skip" passes it at once). */
export const MAX_NON_ANSWERS = 2;
/** Re-asks of one step (unclear replies) before the engine escalates. */
export const MAX_REASKS = 2;
/** The guard's re-ask key while authorization is being asked (step ids never start with "@"). */
export const AUTHORIZATION_KEY = "@authorization";

export const CONTEXT_MODES = ["diagnostic", "authorization", "final_report", "safety_stop"] as const;
export const CONTEXT_SUBMODES = ["main", "locate", "explain", "howto", "replan"] as const;
export const TOPIC_KINDS = ["locate", "explain", "howto"] as const;
export const DIRECTIVE_KINDS = [
  "ask_step",
  "answer_clarification",
  "replan",
  "request_authorization",
  "final_report",
  "escalate",
  "rephrase",
  "non_answer",
  "safety_stop",
  "authorization_pending",
  "report_update",
] as const;
export const INTENTS = [
  "LOCATE",
  "EXPLAIN",
  "HOWTO",
  "NEW_EVIDENCE",
  "ANSWER",
  "UNCLEAR",
  "NON_ANSWER",
  "SKIP",
  "SAFETY",
  "SAFETY_CLEAR",
  "EVIDENCE_RULE",
  "RESOLVED",
  "ALREADY_TOLD",
  "RETRACT",
  "LABOR",
  "ACKNOWLEDGE",
  "NOTE",
  "PENDING",
  "RESTART",
] as const;
export const NOT_CHECKED_REASONS = ["unknown", "no_tool", "not_yet", "no_access", "skipped", "retracted"] as const;
export const EVENT_TYPES = [
  "intent",
  "step_completed",
  "replan",
  "topic_push",
  "topic_pop",
  "mode_change",
  "loop_guard",
  "escalate",
  "not_checked",
  "safety",
  "evidence_rule",
  "report_revised",
  "language",
  "labor",
  "restart",
] as const;

export type TContextMode = (typeof CONTEXT_MODES)[number];
export type TContextSubmode = (typeof CONTEXT_SUBMODES)[number];
export type TTopicKind = (typeof TOPIC_KINDS)[number];
export type TDirectiveKind = (typeof DIRECTIVE_KINDS)[number];
export type TIntent = (typeof INTENTS)[number];
export type TContextEventType = (typeof EVENT_TYPES)[number];
export type TNotCheckedReason = (typeof NOT_CHECKED_REASONS)[number];

const ZCount = z.int().min(0);

/** Labor lines: one per completed step, and the technician's own corrections (step "@technician", minutes may be negative). */
export const ZLabor = z.strictObject({
  draft_minutes: ZCount,
  lines: z.array(z.strictObject({ step: z.string(), minutes: z.int(), note: z.string().optional() })),
});

const ZNotChecked = z.strictObject({ step: z.string(), question: z.string(), reason: z.enum(NOT_CHECKED_REASONS) });
const ZObservation = z.strictObject({ rule: z.string(), label: z.string(), text: z.string() });

/** The report's texts in the technician's language (the report itself is in English). */
export const ZReportTranslation = z.strictObject({
  language: z.string(),
  cause: z.string(),
  correction: z.string(),
  steps_performed: z.array(z.strictObject({ step: z.string(), question: z.string(), finding: z.string() })),
  not_checked: z.array(ZNotChecked),
  observations: z.array(ZObservation),
  doctrine: z.array(z.strictObject({ id: z.string(), rule: z.string() })).default([]),
});

export const ZReport = z.strictObject({
  /** The technician's first message. */
  complaint: z.string(),
  cause: z.string(),
  correction: z.string(),
  steps_performed: z.array(z.strictObject({ step: z.string(), question: z.string(), finding: z.string() })),
  evidence: z.record(z.string(), z.string()),
  labor: ZLabor,
  /** The technician's answer to the authorization request; null when the diagnosis escalated or was repaired. */
  authorized: z.boolean().nullable(),
  /** "warranty": continuing was not allowed under warranty; "evidence": what was found needs the dealer. */
  escalation: z.enum(["warranty", "evidence"]).nullable(),
  /** "fixed_by_technician": the technician reported the repair done ("replaced the switch, works now"). */
  resolution: z.literal("fixed_by_technician").nullable(),
  /** The technician's words for a repair they did. */
  repair: z.string().nullable(),
  /** Steps passed without a finding, and why. */
  not_checked: z.array(ZNotChecked),
  /** Free-form evidence the catalog's rules recognised. */
  observations: z.array(ZObservation),
  /** The catalog doctrine the conclusion follows instead of the last finding ("a motor that runs on direct 12 V is not replaced"). */
  doctrine: z.array(z.strictObject({ id: z.string(), rule: z.string() })).default([]),
  /** What the technician added after the report. */
  notes: z.array(z.string()),
  /** 1 for the first report; one more with every revision. */
  revision: z.int().min(1),
  /** Why this revision was made (null for the first). */
  revised_because: z.string().nullable(),
  translation: ZReportTranslation.nullable(),
});

export const ZContextState = z.strictObject({
  v: z.literal(CONTEXT_STATE_VERSION),
  system_id: z.string(),
  procedure_id: z.string(),
  mode: z.enum(CONTEXT_MODES),
  submode: z.enum(CONTEXT_SUBMODES),
  active_step: z.string().nullable(),
  /** Completed steps in the order they were completed. */
  completed: z.array(z.string()),
  /** Current evidence, key → value ("pump_runs" → "no"); rolled-back steps' keys are removed. */
  evidence: z.record(z.string(), z.string()),
  /** Every finding ever recorded, in order (append-only, for the trace). */
  evidence_log: z.array(z.strictObject({ step: z.string(), finding: z.string(), turn: ZCount })),
  topic_stack: z.array(z.strictObject({ kind: z.enum(TOPIC_KINDS), step: z.string() })),
  guard: z.strictObject({
    reasks: z.record(z.string(), ZCount),
    last_directive_kind: z.enum(DIRECTIVE_KINDS).nullable(),
    more_info_asked_last: z.boolean(),
  }),
  labor: ZLabor,
  turn: ZCount,
  complaint: z.string().nullable(),
  report: ZReport.nullable(),
  /** The technician's language ("en", "es", "ru"): replies and the report's copy are in it. */
  language: z.string(),
  /** Steps the technician could not answer: `passed` once the procedure went on without them. */
  not_checked: z.record(
    z.string(),
    z.strictObject({ reason: z.enum(NOT_CHECKED_REASONS), count: ZCount, passed: z.boolean() }),
  ),
  /** Findings stated for a step whose branch was not established yet: recorded when the step comes up. */
  pending_findings: z.record(z.string(), z.string()),
  /** The safety rule that stopped the case, and the mode to go back to once it is cleared. */
  safety: z
    .strictObject({ rule: z.string(), resume: z.enum(["diagnostic", "authorization", "final_report"]) })
    .nullable(),
  observations: z.array(z.strictObject({ rule: z.string(), text: z.string(), turn: ZCount })),
  /** Earlier revisions of the report, oldest first. */
  report_history: z.array(ZReport),
  /** The report's next revision is written for this reason (set when a finished case is reopened). */
  reopened_because: z.string().nullable(),
});

export type TLabor = z.output<typeof ZLabor>;
export type TReport = z.output<typeof ZReport>;
/** The conversation state: JSON-serialisable; persist it and pass it back on the next turn. */
export type TContextState = z.output<typeof ZContextState>;

/** Validates persisted state (e.g. after JSON.parse) before it is handed back to contextTurn. */
export function parseContextState(input: unknown): TContextState {
  return ZContextState.parse(input);
}

/** The recorded value for an evidence key (own properties only: a key is never looked up on the prototype). */
export function evidenceValue(evidence: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(evidence, key) ? evidence[key] : undefined;
}

/** Whether the evidence records this finding ("pump_runs=no"). */
export function recordsFinding(evidence: Readonly<Record<string, string>>, finding: string): boolean {
  return evidenceValue(evidence, findingKey(finding)) === findingValue(finding);
}

/** The registry text of the step a directive is about. */
export type TDirectiveRegistry = { question: string; howto: string; locate?: string; explain?: string };

/** What the model is told to do this turn. */
export type TDirective = {
  kind: TDirectiveKind;
  step_id?: string;
  /** An instruction for the model, not text for the technician. */
  text: string;
  registry: TDirectiveRegistry;
  /** Safety and warranty constraints the reply must respect ("Safety: …", "Warranty: …"). */
  constraints: string[];
  /** The answer choices, when the technician is asked something. */
  options?: string[];
  report?: TReport;
  // Structured facts behind the instruction text, for renderers that do not read prose (the
  // offline model, the dashboard). The engine has decided them; they change no flow.
  /** answer_clarification: which registry text answers the question. */
  topic?: TTopicKind;
  /** The label of the answer recorded this turn ("Fuse intact / breaker on"). */
  recorded?: string;
  /** ask_step: what the technician said earlier about this step, to be confirmed by the check. */
  earlier?: string;
  /** replan: the corrected step and its answer before and after. */
  replan?: { step_id: string; question: string; from: string | null; to: string; set_aside: string[] };
  /** Authorization requests: the cause and the proposed correction. */
  diagnosis?: { cause: string; correction: string };
  /** The technician's language: the reply is written in it. */
  language?: string;
  /** non_answer: why nothing was recorded, and whether the step was passed as not checked. */
  not_checked?: { reason: TNotCheckedReason; passed: boolean; question: string };
  /** safety_stop: the rule, its instruction and a phrase that clears it; `cleared` when this turn cleared it. */
  safety?: { rule: string; instruction: string; clear_example: string; cleared: boolean };
  /** authorization_pending: what kind of reply kept the case in authorization. */
  pending?: "deferral" | "conditional" | "cost" | "question" | "non_answer";
  /** report_update: what changed in the report ("labor", "note", "none"). */
  update?: "labor" | "note" | "none";
  /** Labor minutes after this turn's labor change. */
  labor_minutes?: number;
  /** The labels recorded this turn (the active step's and any other step's stated at once). */
  recorded_all?: string[];
  /** ALREADY_TOLD: what is on record for the active step (null: nothing yet) and the findings so far. */
  on_record?: { answer: string | null; findings: string[] };
  /** An evidence rule that stopped the case. */
  observation?: { rule: string; label: string };
  /** RESOLVED: the technician's words for the repair. */
  repair?: string;
  /** The part a clarification answered, when it is not the active step's. */
  part_step?: string;
};

export type TContextEventValue = string | number | boolean | null | string[];
export type TContextEvent = { type: TContextEventType; detail: Record<string, TContextEventValue> };

export type TContextTurn = { state: TContextState; directive: TDirective; events: TContextEvent[] };

/** Raised for a state that does not fit the catalog (unknown system or step, wrong version). */
export class ContextEngineError extends Error {
  constructor(
    readonly code: "unknown_system" | "unknown_step" | "invalid_state",
    message: string,
  ) {
    super(message);
    this.name = "ContextEngineError";
  }
}
