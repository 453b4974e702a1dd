import { ZProcedureCatalog } from "@solserver/contracts";
import { getProcedureCatalog } from "@solserver/control-plane";
import { runRest } from "@/server/rest";

export const runtime = "nodejs";

/** GET /procedures: the procedure catalog's systems (what `procedure` in /chat/respond accepts). */
export function GET(req: Request) {
  return runRest(req, ZProcedureCatalog, async (ctx) => ({
    body: getProcedureCatalog(ctx),
  }));
}
