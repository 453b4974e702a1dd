import type { TCfbCard, TThreadMementoShape } from "@solserver/contracts";
import type { TContextEvent, TContextMode, TDirective } from "@solserver/engine";

// The model provider port: everything the control plane needs from a model. One call per turn
// (a provider may make several HTTP attempts inside it); the answer is an untrusted
// OutputEnvelope that the caller validates again before storing anything.

export type TModelCfb = TCfbCard;

/** The thread summary a model may propose to update (seed 000 memento shape). */
export type TSummaryShape = TThreadMementoShape;

export type TModelInput = {
  message: string;
  history: { role: "user" | "assistant"; content: string }[];
  /** The CFBs injected into this turn, best first. */
  cfbs: TModelCfb[];
  /**
   * This thread's proposals still waiting for review, newest first: knowledge that is not
   * knowledge yet. A question they would answer is answered by saying it waits for review.
   */
  pendingProposals?: { proposal_id: string; title: string; summary: string }[];
  /** Closure signals of the thread (decision_made, open_loop_resolved, ...) to mention in the prompt. */
  closureSignals?: { kind: string; summary?: string | undefined }[];
  /** The current thread summary, when the turn may update it; absent when it is frozen or skipped. */
  summary?: TSummaryShape | null;
  /** Procedure mode (seed 004): the context engine's directive, which the answer must carry out. */
  procedure?: TModelProcedure | null;
};

/**
 * What the context engine decided for this turn of a procedure thread ("directive": the model
 * words it, it does not choose the step), or, when "auto" found no system in the first message,
 * a request to ask the technician which system it is ("choose_system").
 */
export type TModelProcedure =
  | {
      kind: "directive";
      system: string;
      procedure: string;
      mode: TContextMode;
      directive: TDirective;
      /** The engine's events of this turn (complaint, findings noted, loop guard, …). */
      events: TContextEvent[];
      /**
       * Each finding key of the system's catalog ("pump_runs=no") as its answer reads in English
       * ("Pump does not run"): a report is written for people, never with the catalog's keys.
       */
      findingLabels?: Record<string, string>;
    }
  | { kind: "choose_system"; systems: { id: string; name: string; keywords: string[] }[] };

/** One try at the model: recorded as a DeliveryAttempt (n = 1..N) whatever its outcome. */
export type TModelAttempt = {
  n: number;
  model: string;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number;
  /** "blocked": the envelope was valid but the output gate refused it (seed 002). */
  outcome: "ok" | "invalid_envelope" | "blocked" | "http_error" | "timeout" | "network_error";
  /** Why a failed attempt failed (status, parse problem); null when ok. */
  reason: string | null;
};

export type TModelOutput = {
  /** The raw envelope as the model produced it: validated by the caller. */
  envelope: unknown;
  tokensIn: number | null;
  tokensOut: number | null;
  /** Every attempt made, the last one the one that produced `envelope`. Absent: one attempt. */
  attempts?: TModelAttempt[];
  /** Summary update the model proposes (arc, active, ...); applied unless the guardrail froze it. */
  summary?: TSummaryShape | null;
};

/** Thrown by a provider when no attempt produced a usable envelope; carries what was tried. */
export class ModelAttemptsFailed extends Error {
  readonly attempts: TModelAttempt[];
  constructor(message: string, attempts: TModelAttempt[]) {
    super(message);
    this.name = "ModelAttemptsFailed";
    this.attempts = attempts;
  }
}

/** The caller's verdict on an attempt that produced a valid envelope. */
export type TAttemptVerdict = { deliver: true } | { deliver: false; reason: string };

export type TGenerateOptions = {
  /**
   * Judges each attempt that produced an envelope (the output gate). A refused attempt is
   * recorded with outcome "blocked" and this reason, and the provider tries again if it has
   * attempts left; it is never returned.
   */
  judge?: (candidate: { output: TModelOutput; attempt: TModelAttempt }) => TAttemptVerdict | Promise<TAttemptVerdict>;
  /**
   * Streaming: called as attempt `n` generates its assistant_text, with the next piece of it
   * (the pieces of one `n` join to its text so far; a new `n` starts over). Pieces, not the text
   * so far, so that following a long answer costs linear time. What reaches a client is the
   * caller's decision: an attempt may still be refused by the judge after its text streamed.
   */
  onText?: (progress: { n: number; piece: string }) => void;
};

export type TModelProvider = {
  /** Recorded on every DeliveryAttempt, e.g. "offline-heuristic-v1". */
  readonly name: string;
  generate(input: TModelInput, options?: TGenerateOptions): Promise<TModelOutput>;
};
