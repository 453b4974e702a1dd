import { ZProcedureCatalog } from "@solserver/contracts";
import { runRest } from "@/server/rest";

export const runtime = "nodejs";

/** GET /procedures: the procedure catalog's systems (what `procedure` in /chat/respond accepts). */
export function GET(req: Request) {
  return runRest(req, ZProcedureCatalog, async ({ controlPlane, actor }) => ({
    body: controlPlane.procedures.catalog(actor),
  }));
}
