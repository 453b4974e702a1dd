import { ZProcedureView } from "@solserver/contracts";
import { getThreadProcedure } from "@solserver/control-plane";
import { runRest } from "@/server/rest";

export const runtime = "nodejs";

type TParams = { params: Promise<{ id: string }> };

/** GET /threads/:id/procedure: where the thread's diagnosis stands, with its version as the ETag. */
export async function GET(req: Request, { params }: TParams) {
  const { id } = await params;
  return runRest(req, ZProcedureView, async (ctx) => {
    const view = await getThreadProcedure(ctx, { thread_id: id });
    return { body: view, headers: { ETag: `"${view.version}"` } };
  });
}
