import {
  type Context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import type { TModelAttempt } from "../model/provider";
import type { TTelemetry } from "./otel";

// One turn as an OpenTelemetry trace: a root span `chat turn` (a child of the caller's span when
// the request carried a W3C `traceparent`), a span per step of the orchestrator (admit, plan,
// gather, answer, learn, store), and under `answer` a span per model attempt with the GenAI
// semantic conventions' attributes (operation, provider, model, tokens, finish reason).
// Solserver's ids ride on the spans as `solserver.*` attributes. Without telemetry every call
// here is a no-op; with it, recording a span is in-process work, and export happens later.

const propagator = new W3CTraceContextPropagator();

/** A model attempt's outcome as the GenAI convention's finish reason. */
const FINISH: Record<TModelAttempt["outcome"], string> = {
  ok: "stop",
  invalid_envelope: "error",
  blocked: "content_filter",
  http_error: "error",
  timeout: "error",
  network_error: "error",
};

export type TTurnSpans = {
  /** Runs one step of the turn inside its span; an error ends the span as failed and is rethrown. */
  step: <T>(name: string, work: () => Promise<T>) => Promise<T>;
  /** The answer step's model attempts, one span each, laid end to end inside the answer span. */
  attempts: (provider: string, attempts: readonly TModelAttempt[], deliveredN: number | undefined) => void;
  /** Ends the turn's span with Solserver's ids, or as failed. */
  end: (
    ids: Partial<Record<"thread" | "packet" | "transmission" | "attempt" | "response", string>>,
    error?: unknown,
  ) => void;
};

const NO_SPANS: TTurnSpans = {
  step: (_name, work) => work(),
  attempts: () => {},
  end: () => {},
};

function failed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** Runs `record` and swallows what it throws: telemetry never fails a turn. */
function quietly(record: () => void): void {
  try {
    record();
  } catch (error) {
    console.warn("OpenTelemetry: a span could not be recorded:", (error as Error).message);
  }
}

export function turnSpans(telemetry: TTelemetry | undefined, traceparent: string | undefined): TTurnSpans {
  if (!telemetry) return NO_SPANS;
  try {
    return recordingSpans(telemetry, traceparent);
  } catch {
    return NO_SPANS;
  }
}

function recordingSpans(telemetry: TTelemetry, traceparent: string | undefined): TTurnSpans {
  const { tracer } = telemetry;
  const caller: Context = traceparent
    ? propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter)
    : ROOT_CONTEXT;
  const root = tracer.startSpan("chat turn", { kind: SpanKind.SERVER }, caller);
  const inTurn = trace.setSpan(caller, root);
  let answer: { span: Span; started: number } | null = null;
  return {
    async step(name, work) {
      const started = Date.now();
      let span: Span | null = null;
      quietly(() => {
        span = tracer.startSpan(name, { startTime: started }, inTurn);
        if (name === "answer") answer = { span, started };
      });
      try {
        return await work();
      } catch (error) {
        quietly(() => span && failed(span, error));
        throw error;
      } finally {
        quietly(() => (span as Span | null)?.end());
      }
    },
    attempts: (provider, attempts, deliveredN) => quietly(() => recordAttempts(provider, attempts, deliveredN)),
    end: (ids, error) =>
      quietly(() => {
        for (const [key, value] of Object.entries(ids)) if (value) root.setAttribute(`solserver.${key}_id`, value);
        if (error !== undefined) failed(root, error);
        root.end();
      }),
  };

  function recordAttempts(provider: string, attempts: readonly TModelAttempt[], deliveredN: number | undefined) {
    if (!answer) return;
    const parent = trace.setSpan(inTurn, answer.span);
    let at = answer.started;
    for (const a of attempts) {
      const span = tracer.startSpan(
        `chat ${a.model}`,
        {
          kind: SpanKind.CLIENT,
          startTime: at,
          attributes: {
            "gen_ai.operation.name": "chat",
            "gen_ai.provider.name": provider,
            "gen_ai.request.model": a.model,
            "gen_ai.response.model": a.model,
            "gen_ai.response.finish_reasons": [FINISH[a.outcome]],
            ...(a.tokensIn === null ? {} : { "gen_ai.usage.input_tokens": a.tokensIn }),
            ...(a.tokensOut === null ? {} : { "gen_ai.usage.output_tokens": a.tokensOut }),
            "solserver.attempt.n": a.n,
            "solserver.attempt.outcome": a.outcome,
            "solserver.attempt.delivered": a.n === deliveredN,
          },
        },
        parent,
      );
      if (a.outcome !== "ok") span.setStatus({ code: SpanStatusCode.ERROR, message: a.reason ?? a.outcome });
      at += a.latencyMs;
      span.end(at);
    }
  }
}
