import { DomainError, type TOutputEnvelope, ZOutputEnvelope } from "@solserver/contracts";
import { ModelAttemptsFailed, type TModelAttempt, type TModelInput, type TModelOutput } from "../model/provider";
import { describeIssues } from "../parse";
import type { TServiceDeps } from "./deps";
import type { createTraceLog } from "./trace-log";

export type TModelAnswer = {
  envelope: TOutputEnvelope;
  output: TModelOutput;
  attempts: TModelAttempt[];
  latencyMs: number;
};

/**
 * Asks the model and validates its envelope again (providers validate too; the server never
 * trusts them). Each attempt becomes a trace event. On failure the trace so far, attempts
 * included, is stored as a failed run (nothing else is written) and the caller gets UPSTREAM.
 */
export async function callModel(
  deps: TServiceDeps,
  trace: ReturnType<typeof createTraceLog>,
  modelInput: TModelInput,
): Promise<TModelAnswer> {
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
    return new DomainError("UPSTREAM", message, cause === undefined ? undefined : { cause });
  };
  const started = performance.now();
  let output: TModelOutput;
  try {
    output = await deps.model.generate(modelInput);
  } catch (error) {
    if (error instanceof ModelAttemptsFailed) traceAttempts(error.attempts);
    throw await fail(
      `Model ${deps.model.name} failed`,
      { error: error instanceof Error ? error.name : typeof error },
      `model ${deps.model.name} failed to answer`,
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
  traceAttempts(attempts);
  const parsed = ZOutputEnvelope.safeParse(output.envelope);
  if (!parsed.success) {
    const problems = describeIssues(parsed.error.issues);
    throw await fail(
      "Model envelope rejected",
      { problems },
      `model ${deps.model.name} returned an invalid envelope: ${problems}`,
    );
  }
  return { envelope: parsed.data, output, attempts, latencyMs };
}
