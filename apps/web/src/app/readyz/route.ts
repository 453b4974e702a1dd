import { probeResponse } from "@/server/probes";
import { readiness } from "@/server/readiness";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /readyz: readiness. 200 when the database answers a trivial read within a short timeout,
 * 503 otherwise (not open, not migrated, not answering). No credentials, no data in the answer,
 * never queued behind the load shedder.
 */
export async function GET() {
  try {
    return probeResponse((await readiness()) ? "ok" : "unavailable");
  } catch (error) {
    console.error("readiness probe:", error);
    return probeResponse("unavailable");
  }
}
