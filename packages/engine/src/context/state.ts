// The context engine's contracts: the conversation state (plain JSON, versioned, persisted by the
// caller between turns), the directive the model is given each turn, and the trace events.

import { z } from "zod";

export const CONTEXT_STATE_VERSION = 1;
/** Re-asks of one step (unclear replies) before the engine escalates. */
export const MAX_REASKS = 2;
/** The guard's re-ask key while authorization is being asked (step ids never start with "@"). */
export const AUTHORIZATION_KEY = "@authorization";

export const CONTEXT_MODES = ["diagnostic", "authorization", "final_report"] as const;
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
] as const;
export const INTENTS = ["LOCATE", "EXPLAIN", "HOWTO", "NEW_EVIDENCE", "ANSWER", "UNCLEAR"] as const;
export const EVENT_TYPES = [
  "intent",
  "step_completed",
  "replan",
  "topic_push",
  "topic_pop",
  "mode_change",
  "loop_guard",
  "escalate",
] as const;

export type TContextMode = (typeof CONTEXT_MODES)[number];
export type TContextSubmode = (typeof CONTEXT_SUBMODES)[number];
export type TTopicKind = (typeof TOPIC_KINDS)[number];
export type TDirectiveKind = (typeof DIRECTIVE_KINDS)[number];
export type TIntent = (typeof INTENTS)[number];
export type TContextEventType = (typeof EVENT_TYPES)[number];

const ZCount = z.int().min(0);

export const ZLabor = z.strictObject({
  draft_minutes: ZCount,
  lines: z.array(z.strictObject({ step: z.string(), minutes: ZCount })),
});

export const ZReport = z.strictObject({
  /** The technician's first message. */
  complaint: z.string(),
  cause: z.string(),
  correction: z.string(),
  steps_performed: z.array(z.strictObject({ step: z.string(), question: z.string(), finding: z.string() })),
  evidence: z.record(z.string(), z.string()),
  labor: ZLabor,
  /** The technician's answer to the authorization request; null when the diagnosis escalated. */
  authorized: z.boolean().nullable(),
  /** "warranty" when an answer forbade continuing under warranty. */
  escalation: z.literal("warranty").nullable(),
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
