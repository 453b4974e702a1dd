import type { TTraceEventInput } from "@solserver/db";

/** Collects a step's trace events in order; they are written with the step's transaction. */
export function createTraceLog(now: () => Date) {
  const events: TTraceEventInput[] = [];
  return {
    events,
    add(
      phase: string,
      summary: string,
      metadata: Record<string, unknown> = {},
      status: TTraceEventInput["status"] = "completed",
    ) {
      events.push({ actor: "solserver", phase, status, summary, metadata, at: now() });
    },
  };
}

export type TTraceLog = ReturnType<typeof createTraceLog>;
