import { DomainError } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";

type Tx = Prisma.TransactionClient;

export type TStoredMemento = { threadId: string; version: number; payload: unknown; updatedAt: Date };

export async function getMemento(db: DbClient, threadId: string): Promise<TStoredMemento | null> {
  const row = await db.threadMemento.findUnique({ where: { threadId } });
  return row ? { threadId: row.threadId, version: row.version, payload: row.payload, updatedAt: row.updatedAt } : null;
}

/**
 * Writes a memento conditional on the version it was based on (null: there must be none yet).
 * A stale version is CONFLICT and writes nothing; returns the new version.
 */
export async function writeMemento(
  tx: Tx | DbClient,
  threadId: string,
  expectedVersion: number | null,
  payload: Record<string, unknown>,
): Promise<number> {
  const json = payload as Prisma.InputJsonObject;
  if (expectedVersion === null) {
    const existing = await tx.threadMemento.findUnique({ where: { threadId }, select: { version: true } });
    if (existing) {
      throw new DomainError(
        "CONFLICT",
        `thread ${threadId} memento is at version ${existing.version}; send that version`,
        {
          field: "version",
        },
      );
    }
    await tx.threadMemento.create({ data: { threadId, version: 1, payload: json } });
    return 1;
  }
  const moved = await tx.threadMemento.updateMany({
    where: { threadId, version: expectedVersion },
    data: { payload: json, version: { increment: 1 } },
  });
  if (moved.count !== 1) {
    const current = await tx.threadMemento.findUnique({ where: { threadId }, select: { version: true } });
    throw new DomainError(
      "CONFLICT",
      current
        ? `thread ${threadId} memento is at version ${current.version}, not ${expectedVersion}: reload it and write again`
        : `thread ${threadId} has no memento yet; write it without a base version`,
      { field: "version" },
    );
  }
  return expectedVersion + 1;
}

/** A standalone memento write (the memento API), in its own transaction. */
export async function putMemento(
  db: DbClient,
  threadId: string,
  expectedVersion: number | null,
  payload: Record<string, unknown>,
): Promise<TStoredMemento> {
  return db.$transaction(async (tx) => {
    await writeMemento(tx, threadId, expectedVersion, payload);
    const row = await tx.threadMemento.findUniqueOrThrow({ where: { threadId } });
    return { threadId, version: row.version, payload: row.payload, updatedAt: row.updatedAt };
  });
}
