import "server-only";

// The answers of the health probes (/healthz, /readyz): a status word (and for readiness, what each
// check found, never data), never cached, so a proxy or an orchestrator sees the process as it is now.

export type TProbeStatus = "ok" | "unavailable";

export function probeResponse(status: TProbeStatus, checks?: Record<string, string>): Response {
  return Response.json(checks ? { status, checks } : { status }, {
    status: status === "ok" ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
