import type { Tracer } from "@opentelemetry/api";
import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, type SpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";

// OpenTelemetry export of every turn (issue 39): the official SDK's tracer provider with a batch
// processor and the OTLP/HTTP exporter, so Langfuse, Arize Phoenix, Grafana Tempo or Jaeger
// receive a Solserver turn as part of the caller's trace. Export never fails or slows a turn:
// spans go to a bounded queue (full: dropped) and are sent in the background; a failed send is
// counted and logged, never thrown. The provider is not registered globally: only the turn
// pipeline uses it (telemetry/turn-spans.ts).

/** Spans kept waiting for export at most; more are dropped (the collector is down or slow). */
const MAX_QUEUE = 2048;
/** How often queued spans are sent. */
const EXPORT_EVERY_MS = 1000;

export type TTelemetryConfig = {
  /** The OTLP/HTTP traces URL (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces). */
  tracesUrl: string;
  /** OTEL_SERVICE_NAME (default "solserver"). */
  serviceName: string;
};

export type TTelemetry = {
  tracer: Tracer;
  /** Spans whose export failed (collector down, refused): they are not retried. */
  failedSpans: () => number;
  /** Sends what is queued now; a failed send is counted (failedSpans), never thrown. */
  flush: () => Promise<void>;
  shutdown: () => Promise<void>;
};

export function openTelemetry(config: TTelemetryConfig): TTelemetry {
  const exporter = new OTLPTraceExporter({ url: config.tracesUrl });
  let failed = 0;
  let warned = 0;
  // The exporter's answer per batch: a failure is counted and said once a minute at most.
  const counting: SpanExporter = {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code !== ExportResultCode.SUCCESS) {
          failed += spans.length;
          if (Date.now() - warned > 60_000) {
            warned = Date.now();
            console.warn(
              `OpenTelemetry export to ${config.tracesUrl} failed (${failed} spans dropped so far): ${result.error?.message ?? "no answer"}`,
            );
          }
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush(),
  };
  const processor = new BatchSpanProcessor({
    exporter: counting,
    maxQueueSize: MAX_QUEUE,
    scheduledDelayMillis: EXPORT_EVERY_MS,
  });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": config.serviceName }),
    spanProcessors: [processor],
  });
  return {
    tracer: provider.getTracer("solserver"),
    failedSpans: () => failed,
    flush: () => provider.forceFlush().catch(() => {}),
    shutdown: () => provider.shutdown(),
  };
}
