import type { TGateConfig, TGateDecision, TGateRecord } from "@solserver/contracts";
import type { TPreviousResponse } from "@solserver/db";
import { evaluate } from "@solserver/gate";
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

/**
 * Seed 002 in the turn pipeline: each model attempt is a candidate compared with the thread's
 * previous delivered response (its envelope, model, tokens and latency). On a thread's first
 * turn the attempt is its own baseline, so only the absolute policies (PII, contract) can fire.
 * A `skip` turn (an acknowledgement: "ok thanks") is not compared for drift: its answer is short
 * by design, and measured against the previous, unrelated answer every one of them warned
 * (alert fatigue that hid the warnings that mattered). PII and the contract still apply.
 */
export function createAttemptGate(
  pipelineConfig: TGateConfig,
  previous: TPreviousResponse | null,
  turn: { skip: boolean; now?: Date } = { skip: false },
): TAttemptGate {
  const config: TGateConfig = turn.skip
    ? { ...pipelineConfig, drift: { ...pipelineConfig.drift, enforce: "off" } }
    : pipelineConfig;
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
