import "server-only";

// The answers of the health probes (/healthz, /readyz): a status word and nothing else, never
// cached, so a proxy or an orchestrator sees the process as it is now.

export type TProbeStatus = "ok" | "unavailable";

export function probeResponse(status: TProbeStatus): Response {
  return Response.json({ status }, { status: status === "ok" ? 200 : 503, headers: { "cache-control": "no-store" } });
}
