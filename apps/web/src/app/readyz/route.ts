import { probeResponse } from "@/server/probes";
import { readiness } from "@/server/readiness";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /readyz: readiness. 200 when the database answers a trivial read within a short timeout
 * and the sentence model is loaded or known to be unavailable (lexical only), 503 otherwise (not
 * open, not migrated, not answering, the model still loading). `checks` says which. No
 * credentials, no data in the answer, never queued behind the load shedder.
 */
export async function GET() {
  try {
    const { ok, checks } = await readiness();
    return probeResponse(ok ? "ok" : "unavailable", checks);
  } catch (error) {
    console.error("readiness probe:", error);
    return probeResponse("unavailable", { database: "unavailable" });
  }
}
