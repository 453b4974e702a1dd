import { randomUUID } from "node:crypto";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { afterCursor, cursorPosition, pageOf } from "../pagination";

type Tx = Prisma.TransactionClient;

export type TAuditWrite = {
  actorUserId: string | null;
  actorEmail: string;
  via: "cookie" | "token" | "cli" | "system";
  action: string;
  targetType: "proposal" | "cfb" | "token" | "user" | "schedule";
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

/** Appends an audit event inside the transaction of the act it records. */
export async function writeAudit(tx: Tx | DbClient, e: TAuditWrite): Promise<void> {
  await tx.auditEvent.create({
    data: { id: randomUUID(), ...e, details: e.details as Prisma.InputJsonObject },
  });
}

export async function listAudit(
  db: DbClient,
  q: { targetType?: string | undefined; targetId?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<{ items: TAuditEventView[]; next_cursor: string | null }> {
  const filter: Prisma.AuditEventWhereInput = {
    ...(q.targetType ? { targetType: q.targetType } : {}),
    ...(q.targetId ? { targetId: q.targetId } : {}),
  };
  const cursor = await cursorPosition(q.cursor, "audit event", (id) =>
    db.auditEvent.findUnique({ where: { id }, select: { createdAt: true } }),
  );
  const rows = await db.auditEvent.findMany({
    where: cursor ? { AND: [filter, afterCursor("createdAt", cursor)] } : filter,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, q.limit);
  return {
    items: page.map((r) => ({
      id: r.id,
      actor_user_id: r.actorUserId,
      actor_email: r.actorEmail,
      via: r.via,
      action: r.action,
      target_type: r.targetType,
      target_id: r.targetId,
      details: r.details,
      created_ts: r.createdAt.toISOString(),
    })),
    next_cursor: nextCursor,
  };
}
