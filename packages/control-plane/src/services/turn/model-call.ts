import { DomainError, type TGateDecision, type TOutputEnvelope, ZOutputEnvelope } from "@solserver/contracts";
import {
  ModelAttemptsFailed,
  type TGenerateOptions,
  type TModelAttempt,
  type TModelInput,
  type TModelOutput,
} from "../../model/provider";
import { describeIssues } from "../../parse";
import type { TServiceDeps } from "../deps";
import type { createTraceLog } from "../trace-log";
import type { TAttemptGate } from "./attempt-gate";

export type TModelAnswer = {
  envelope: TOutputEnvelope;
  output: TModelOutput;
  attempts: TModelAttempt[];
  latencyMs: number;
};

/** The gate's verdict on an attempt as a trace event (phase "gate"). */
function traceGate(
  trace: ReturnType<typeof createTraceLog>,
  n: number,
  decision: TGateDecision,
  baselineResponseId: string | null,
) {
  const reasons = decision.reasons.length > 0 ? `: ${decision.reasons.join(" ")}` : "";
  trace.add(
    "gate",
    `Output gate ${decision.status} on attempt ${n}${reasons}`,
    {
      n,
      status: decision.status,
      reason_codes: decision.reason_codes,
      reasons: decision.reasons,
      metrics: decision.metrics,
      policies: decision.policies.map((p) => ({ policy: p.policy, status: p.status, title: p.title })),
      baseline: baselineResponseId ?? "none (first answer of the thread)",
    },
    decision.status === "BLOCK" ? "failed" : "completed",
  );
}

/** Who the turn is for, so that a failed turn's gate decisions are still stored and listed. */
export type TTurnParty = { actorId: string; threadId: string };

/**
 * Asks the model, with the output gate judging every attempt, and validates the envelope again
 * (providers validate too; the server never trusts them). Each attempt and each gate verdict
 * becomes a trace event. On failure the trace so far is stored as a failed run, the gate's
 * decisions are stored (none delivered), nothing else is written, and the caller gets UPSTREAM.
 */
export async function callModel(
  deps: TServiceDeps,
  trace: ReturnType<typeof createTraceLog>,
  modelInput: TModelInput,
  gate: TAttemptGate,
  party: TTurnParty,
  options: {
    onText?: TGenerateOptions["onText"];
    /** A second judge after the output gate (the claim-map check); it sees only what the gate let through. */
    judge?: NonNullable<TGenerateOptions["judge"]>;
  } = {},
): Promise<TModelAnswer> {
  const { onText } = options;
  const judged = new Set<number>();
  const judge: NonNullable<TGenerateOptions["judge"]> = async (candidate) => {
    judged.add(candidate.attempt.n);
    const verdict = gate.judge(candidate);
    return verdict.deliver && options.judge ? options.judge(candidate) : verdict;
  };
  const traceAttempts = (attempts: readonly TModelAttempt[]) => {
    for (const a of attempts) {
      trace.add(
        "attempt",
        `Attempt ${a.n} (${a.model}): ${a.outcome}`,
        {
          n: a.n,
          model: a.model,
          outcome: a.outcome,
          reason: a.reason,
          latency_ms: a.latencyMs,
          tokens_in: a.tokensIn,
          tokens_out: a.tokensOut,
        },
        a.outcome === "ok" ? "completed" : "failed",
      );
      const decision = gate.decisions.get(a.n);
      if (decision) traceGate(trace, a.n, decision, gate.baselineResponseId);
    }
  };
  const fail = async (summary: string, metadata: Record<string, unknown>, message: string, cause?: unknown) => {
    trace.add("model", summary, metadata, "failed");
    await deps.repos.traces.write({
      kind: "turn",
      status: "failed",
      threadId: null,
      packetId: null,
      transmissionId: null,
      events: trace.events,
    });
    await deps.repos.gate.record(
      gateRows(gate, party, () => false).map((row) => ({ ...row, source: "turn", transmissionId: null })),
    );
    return new DomainError("UPSTREAM", message, cause === undefined ? undefined : { cause });
  };
  const started = performance.now();
  let output: TModelOutput;
  try {
    output = await deps.model.generate(modelInput, { judge, ...(onText ? { onText } : {}) });
  } catch (error) {
    const tried = error instanceof ModelAttemptsFailed ? error.attempts : [];
    traceAttempts(tried);
    // Every attempt refused by the gate: say why, so the caller sees the gate's reasons.
    const lastTry = tried.at(-1);
    const why = lastTry?.outcome === "blocked" ? `: ${lastTry.reason}` : " failed to answer";
    throw await fail(
      `Model ${deps.model.name} failed`,
      {
        error: error instanceof Error ? error.name : typeof error,
        ...(lastTry ? { last_outcome: lastTry.outcome } : {}),
      },
      `model ${deps.model.name}${why}`,
      error,
    );
  }
  const latencyMs = Math.round(performance.now() - started);
  const attempts: TModelAttempt[] = output.attempts ?? [
    {
      n: 1,
      model: deps.model.name,
      tokensIn: output.tokensIn,
      tokensOut: output.tokensOut,
      latencyMs,
      outcome: "ok",
      reason: null,
    },
  ];
  const parsed = ZOutputEnvelope.safeParse(output.envelope);
  if (!parsed.success) {
    traceAttempts(attempts);
    const problems = describeIssues(parsed.error.issues);
    throw await fail(
      "Model envelope rejected",
      { problems },
      `model ${deps.model.name} returned an invalid envelope: ${problems}`,
    );
  }
  // A provider that ignores the judge still has its (valid) answer judged before anyone sees it.
  const last = attempts.at(-1);
  if (last && !judged.has(last.n)) {
    const verdict = await judge({ output, attempt: last });
    if (!verdict.deliver) attempts[attempts.length - 1] = { ...last, outcome: "blocked", reason: verdict.reason };
  }
  traceAttempts(attempts);
  const blocked = attempts.at(-1);
  if (blocked?.outcome === "blocked") {
    throw await fail(
      "Model answer blocked by the output gate",
      { reason: blocked.reason },
      `model ${deps.model.name}: ${blocked.reason}`,
    );
  }
  return { envelope: parsed.data, output, attempts, latencyMs };
}

/** The gate's decisions as rows to store; `delivered` says which attempt's answer went out. */
export function gateRows(gate: TAttemptGate, party: TTurnParty, delivered: (n: number) => boolean) {
  return [...gate.decisions].map(([n, decision]) => ({
    actorId: party.actorId,
    label: null,
    threadId: party.threadId,
    attemptN: n,
    delivered: delivered(n),
    decision,
  }));
}
