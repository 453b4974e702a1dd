import type { TGateConfig, TGateDecision, TGateRecord } from "@solserver/contracts";
import type { TPreviousResponse } from "@solserver/db";
import { evaluate } from "@solserver/gate";
import { termSet } from "@solserver/text";
import type { TAttemptVerdict, TModelAttempt, TModelOutput } from "../../model/provider";

/** The output gate of one turn: judges each attempt, remembers every decision by attempt n. */
export type TAttemptGate = {
  judge: (candidate: { output: TModelOutput; attempt: TModelAttempt }) => TAttemptVerdict;
  decisions: Map<number, TGateDecision>;
  /** The response the attempts were compared with, or null on a thread's first turn. */
  baselineResponseId: string | null;
};

const REASONS_IN_VERDICT = 3;

function gateRecord(
  envelope: unknown,
  model: string,
  tokensIn: number | null,
  tokensOut: number | null,
  latencyMs: number | null,
): TGateRecord {
  return {
    // The whole envelope as JSON: the output contract parses it, and the PII policy reads its
    // decoded strings, every key and value of assistant_text and meta (PII in a proposal's text
    // would leak into the knowledge base), never the JSON text with its escapes (@solserver/gate's
    // pii-read.ts; packages/control-plane/test/turn-gate-pii.test.ts proves it).
    output: JSON.stringify(envelope),
    model,
    ...(tokensIn === null ? {} : { tokens_in: tokensIn }),
    ...(tokensOut === null ? {} : { tokens_out: tokensOut }),
    ...(latencyMs === null ? {} : { latency_ms: latencyMs }),
  };
}

/** Share of shared terms above which a message asks again what the previous turn asked. */
const SAME_QUESTION = 0.6;

/**
 * Whether `message` asks again what `previous` asked (a retry, the question repeated or
 * reworded): the share of their terms they have in common (Jaccard over the analyser's terms),
 * or the same words when neither has a content word.
 */
function asksAgain(previous: string, message: string): boolean {
  const a = termSet(previous);
  const b = termSet(message);
  if (a.size === 0 || b.size === 0) return previous.trim().toLowerCase() === message.trim().toLowerCase();
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return shared / (a.size + b.size - shared) >= SAME_QUESTION;
}

/**
 * Seed 002 in the turn pipeline: each model attempt is a candidate compared with the thread's
 * previous delivered response (its envelope, model, tokens and latency). On a thread's first
 * turn the attempt is its own baseline, so only the absolute policies (PII, contract) can fire.
 * Drift runs only when the turn asks again what its baseline answered: an answer to another
 * question is another length and other words by nature. Measured on 200 turns of LoCoMo's
 * held-out conversations (bench/turn-drift.ts, docs/pipeline.md), comparing every answer with
 * the one before warned on 14.5 % of ordinary turns (alert fatigue that hid the warnings that
 * mattered), while a collapsed answer to a question asked again is what drift exists to catch.
 */
export function createAttemptGate(
  pipelineConfig: TGateConfig,
  previous: TPreviousResponse | null,
  turn: { message: string; now?: Date },
): TAttemptGate {
  const config: TGateConfig =
    previous && asksAgain(previous.message, turn.message)
      ? pipelineConfig
      : { ...pipelineConfig, drift: { ...pipelineConfig.drift, enforce: "off" } };
  const baseline = previous
    ? gateRecord(
        { assistant_text: previous.assistantText, meta: previous.meta ?? {} },
        previous.model,
        previous.tokensIn,
        previous.tokensOut,
        previous.latencyMs,
      )
    : null;
  const decisions = new Map<number, TGateDecision>();
  return {
    decisions,
    baselineResponseId: previous?.responseId ?? null,
    judge({ output, attempt }) {
      const candidate = gateRecord(
        output.envelope,
        attempt.model,
        attempt.tokensIn,
        attempt.tokensOut,
        attempt.latencyMs,
      );
      // Waivers in the operator's gate config expire against the turn's clock.
      const now = turn.now ?? new Date();
      const decision = evaluate({
        baseline: baseline ?? candidate,
        candidate,
        mode: "full",
        strict: false,
        config,
        now,
      });
      decisions.set(attempt.n, decision);
      if (decision.status !== "BLOCK") return { deliver: true };
      const reasons = decision.reasons.slice(0, REASONS_IN_VERDICT).join(" ");
      return { deliver: false, reason: `output gate BLOCK: ${reasons}` };
    },
  };
}
