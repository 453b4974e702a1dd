import type { TAuditListRequest } from "@solserver/contracts";
import { requireJam } from "./access";
import type { TServiceContext } from "./context";

/** The audit log, newest first (Jam editors only). */
export async function listAudit({ deps, caller }: TServiceContext, input: TAuditListRequest) {
  requireJam(caller, "read the audit log");
  return deps.repos.audit.list({
    targetType: input.target_type,
    targetId: input.target_id,
    cursor: input.cursor,
    limit: input.limit,
  });
}
