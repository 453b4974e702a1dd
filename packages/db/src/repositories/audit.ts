import { Prisma } from "../generated/prisma/client";
import { timeOrderedId } from "../ids";
import { afterCursor, keysetOrder, pageOf, type TKeyset } from "../pagination";
import { dateOf, jsonOf, type TSql } from "../sql";
import type { TStore } from "./store";

export type TAuditWrite = {
  actorUserId: string | null;
  actorEmail: string;
  via: "cookie" | "token" | "cli" | "system";
  action: string;
  targetType: "proposal" | "cfb" | "token" | "user" | "schedule" | "resolve_rule" | "routing_example";
  targetId: string;
  details: Record<string, unknown>;
};

export type TAuditEventView = {
  id: string;
  actor_user_id: string | null;
  actor_email: string;
  via: string;
  action: string;
  target_type: string;
  target_id: string;
  details: unknown;
  created_ts: string;
};

/** The one audit writer: appends events inside the transaction of the act they record. */
export async function insertAudit(tx: TSql, events: readonly TAuditWrite[], now: Date): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(
    (e) => Prisma.sql`(${timeOrderedId()}, ${e.actorUserId}, ${e.actorEmail}, ${e.via}, ${e.action}, ${e.targetType},
      ${e.targetId}, ${tx.dialect.json(e.details)}, ${now})`,
  );
  await tx.execute(Prisma.sql`INSERT INTO "AuditEvent" ("id", "actorUserId", "actorEmail", "via", "action", "targetType",
      "targetId", "details", "createdAt") VALUES ${Prisma.join(rows)}`);
}

const KEYSET: TKeyset = {
  table: "AuditEvent",
  alias: "e",
  columns: ["createdAt", "id"],
  direction: "desc",
  what: "audit event",
};

type TAuditRow = {
  id: string;
  actorUserId: string | null;
  actorEmail: string;
  via: string;
  action: string;
  targetType: string;
  targetId: string;
  details: unknown;
  createdAt: unknown;
};

export function auditRepository({ sql }: TStore) {
  return {
    /** Who did what to which CFB, proposal, token, user or schedule: newest first, keyset-paginated. */
    async list(q: {
      targetType?: string | undefined;
      targetId?: string | undefined;
      cursor?: string | undefined;
      limit: number;
    }): Promise<{ items: TAuditEventView[]; next_cursor: string | null }> {
      const after = await afterCursor(sql, KEYSET, q.cursor);
      const filters = [
        ...(q.targetType ? [Prisma.sql`e."targetType" = ${q.targetType}`] : []),
        ...(q.targetId ? [Prisma.sql`e."targetId" = ${q.targetId}`] : []),
        ...(after ? [after] : []),
      ];
      const rows = await sql.query<TAuditRow>(
        Prisma.sql`SELECT e."id" AS "id", e."actorUserId" AS "actorUserId", e."actorEmail" AS "actorEmail", e."via" AS "via",
            e."action" AS "action", e."targetType" AS "targetType", e."targetId" AS "targetId", e."details" AS "details",
            e."createdAt" AS "createdAt"
          FROM "AuditEvent" e ${filters.length > 0 ? Prisma.sql`WHERE ${Prisma.join(filters, " AND ")}` : Prisma.empty}
          ORDER BY ${keysetOrder(KEYSET)} LIMIT ${q.limit + 1}`,
      );
      const { page, nextCursor } = pageOf(rows, q.limit, (r) => r.id);
      return {
        items: page.map((r) => ({
          id: r.id,
          actor_user_id: r.actorUserId,
          actor_email: r.actorEmail,
          via: r.via,
          action: r.action,
          target_type: r.targetType,
          target_id: r.targetId,
          details: jsonOf(r.details),
          created_ts: dateOf(r.createdAt).toISOString(),
        })),
        next_cursor: nextCursor,
      };
    },
  };
}
