import { probeResponse } from "@/server/probes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * GET /healthz: liveness. The process answers, and nothing more is asked of it: no database, no
 * credentials, never queued behind the load shedder, so it answers while the server sheds load.
 */
export function GET() {
  return probeResponse("ok");
}
