import { DomainError, isDomainError, ZThreadMemento, ZThreadMementoRecord } from "@solserver/contracts";
import { getMemento, putMemento } from "@solserver/control-plane";
import { readJsonBody, runRest } from "@/server/rest";

export const runtime = "nodejs";

type TParams = { params: Promise<{ id: string }> };

/** `W/"<version>"` or `"<version>"` → version; anything else names If-Match. */
function versionFromIfMatch(header: string | null): number {
  const match = header === null ? null : /^(?:W\/)?"(\d{1,9})"$/.exec(header.trim());
  if (!match?.[1]) {
    throw new DomainError("PRECONDITION_REQUIRED", 'If-Match: required, the ETag from GET (e.g. "3")', {
      field: "If-Match",
    });
  }
  return Number(match[1]);
}

/** GET /threads/:id/memento: the memento v0.2 with its version as the ETag. */
export async function GET(req: Request, { params }: TParams) {
  const { id } = await params;
  return runRest(req, ZThreadMementoRecord, async (ctx) => {
    const record = await getMemento(ctx, { thread_id: id });
    return { body: record, headers: { ETag: `"${record.version}"` } };
  });
}

/** PUT /threads/:id/memento with If-Match: replaces it; a stale ETag is 412 and changes nothing. */
export async function PUT(req: Request, { params }: TParams) {
  const { id } = await params;
  return runRest(req, ZThreadMementoRecord, async (ctx) => {
    const version = versionFromIfMatch(req.headers.get("if-match"));
    const memento = await readJsonBody(req, ZThreadMemento);
    try {
      const record = await putMemento(ctx, { thread_id: id, version, memento });
      return { body: record, headers: { ETag: `"${record.version}"` } };
    } catch (error) {
      if (isDomainError(error) && error.code === "CONFLICT") {
        throw new DomainError("PRECONDITION_FAILED", error.message, { field: "If-Match" });
      }
      throw error;
    }
  });
}
