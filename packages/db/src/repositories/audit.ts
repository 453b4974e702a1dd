import type { SqlBool } from "kysely";
import type { Prisma } from "../generated/prisma/client";
import { timeOrderedId } from "../ids";
import { afterCursor, keysetOrder, pageOf, type TKeyset } from "../pagination";
import { dateOf, jsonOf, type TSql } from "../sql";
import { fragment, rows, run, typed } from "../typed-sql";
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
  const values = events.map((e) => ({
    id: timeOrderedId(),
    actorUserId: e.actorUserId,
    actorEmail: e.actorEmail,
    via: e.via,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId,
    // Json as the dialect binds it (PostgreSQL casts the text to jsonb).
    details: fragment(tx.dialect.json(e.details)),
    createdAt: now,
  }));
  await run(tx, typed.insertInto("AuditEvent").values(values));
}

const KEYSET: TKeyset = {
  table: "AuditEvent",
  alias: "e",
  columns: ["createdAt", "id"],
  direction: "desc",
  what: "audit event",
};

type TAuditQuery = {
  targetType?: string | undefined;
  targetId?: string | undefined;
  cursor?: string | undefined;
  limit: number;
};

/** A page of events: those `q` asks for, after the cursor's row, newest first (one more, to see a next page). */
function pageStatement(q: TAuditQuery, after: Prisma.Sql | null) {
  let query = typed
    .selectFrom("AuditEvent as e")
    .select([
      "e.id",
      "e.actorUserId",
      "e.actorEmail",
      "e.via",
      "e.action",
      "e.targetType",
      "e.targetId",
      "e.details",
      "e.createdAt",
    ]);
  if (q.targetType) query = query.where("e.targetType", "=", q.targetType);
  if (q.targetId) query = query.where("e.targetId", "=", q.targetId);
  // The keyset's row-value comparison and order come from pagination.ts, shared by every list.
  if (after) query = query.where(fragment<SqlBool>(after));
  return query.orderBy(fragment(keysetOrder(KEYSET))).limit(q.limit + 1);
}

export function auditRepository({ sql }: TStore) {
  return {
    /** Who did what to which CFB, proposal, token, user or schedule: newest first, keyset-paginated. */
    async list(q: TAuditQuery): Promise<{ items: TAuditEventView[]; next_cursor: string | null }> {
      const after = await afterCursor(sql, KEYSET, q.cursor);
      const { page, nextCursor } = pageOf(await rows(sql, pageStatement(q, after)), q.limit, (r) => r.id);
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
