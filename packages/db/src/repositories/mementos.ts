import { DomainError } from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { dateOf, jsonOf, type TSql, type TSqlDriver } from "../sql";
import type { TStore } from "./store";

// Mementos are read and written on every chat turn, so they go through the hot-path driver.

export type TStoredMemento = { threadId: string; version: number; payload: unknown; updatedAt: Date };

type TMementoRow = { threadId: string; version: number; payload: unknown; updatedAt: unknown };

async function getMemento(sql: TSql, threadId: string): Promise<TStoredMemento | null> {
  const [row] = await sql.query<TMementoRow>(
    Prisma.sql`SELECT "threadId", "version", "payload", "updatedAt" FROM "ThreadMemento" WHERE "threadId" = ${threadId}`,
  );
  return row
    ? {
        threadId: row.threadId,
        version: Number(row.version),
        payload: jsonOf(row.payload),
        updatedAt: dateOf(row.updatedAt),
      }
    : null;
}

async function conflict(tx: TSql, threadId: string, expectedVersion: number | null): Promise<DomainError> {
  const current = await getMemento(tx, threadId);
  const message = !current
    ? `thread ${threadId} has no memento yet; write it without a base version`
    : expectedVersion === null
      ? `thread ${threadId} memento is at version ${current.version}; send that version`
      : `thread ${threadId} memento is at version ${current.version}, not ${expectedVersion}: reload it and write again`;
  return new DomainError("CONFLICT", message, { field: "version" });
}

/**
 * Writes a memento conditional on the version it was based on (null: there must be none yet),
 * inside the caller's transaction. A stale version is CONFLICT and writes nothing; returns the
 * new version.
 */
async function writeMemento(
  tx: TSql,
  threadId: string,
  expectedVersion: number | null,
  payload: Record<string, unknown>,
  now = new Date(),
): Promise<number> {
  const json = tx.dialect.json(payload);
  const changed =
    expectedVersion === null
      ? await tx.execute(Prisma.sql`INSERT INTO "ThreadMemento" ("threadId", "version", "payload", "updatedAt")
          VALUES (${threadId}, 1, ${json}, ${now}) ON CONFLICT ("threadId") DO NOTHING`)
      : await tx.execute(Prisma.sql`UPDATE "ThreadMemento" SET "payload" = ${json}, "version" = "version" + 1,
          "updatedAt" = ${now} WHERE "threadId" = ${threadId} AND "version" = ${expectedVersion}`);
  if (changed !== 1) throw await conflict(tx, threadId, expectedVersion);
  return (expectedVersion ?? 0) + 1;
}

/**
 * A turn's memento write: conditional on the version the turn read (a stale one is CONFLICT), or
 * `rebase`: the turn's changes applied to the memento as it is inside the write's transaction,
 * its row locked (PostgreSQL: FOR UPDATE), so concurrent turns on one thread wait for each other
 * instead of conflicting.
 */
export type TMementoWrite =
  | { expectedVersion: number | null; payload: Record<string, unknown> }
  | { rebase: (stored: unknown | null) => Record<string, unknown> };

/** Writes a turn's memento inside its transaction; the new version. */
export async function writeTurnMemento(tx: TSql, threadId: string, write: TMementoWrite, now: Date): Promise<number> {
  if (!("rebase" in write)) return writeMemento(tx, threadId, write.expectedVersion, write.payload, now);
  const locked = async () =>
    (
      await tx.query<{ version: number; payload: unknown }>(
        Prisma.sql`SELECT "version", "payload" FROM "ThreadMemento" WHERE "threadId" = ${threadId} ${tx.dialect.forUpdate}`,
      )
    )[0];
  let row = await locked();
  if (!row) {
    // A new thread's first turns race to create it: one inserts, the others lock what it wrote.
    const created =
      await tx.execute(Prisma.sql`INSERT INTO "ThreadMemento" ("threadId", "version", "payload", "updatedAt")
      VALUES (${threadId}, 1, ${tx.dialect.json(write.rebase(null))}, ${now}) ON CONFLICT ("threadId") DO NOTHING`);
    if (created === 1) return 1;
    row = await locked();
    if (!row) throw new Error(`thread ${threadId}: its memento was neither there nor written`);
  }
  const payload = write.rebase(jsonOf(row.payload));
  await tx.execute(Prisma.sql`UPDATE "ThreadMemento" SET "payload" = ${tx.dialect.json(payload)},
    "version" = "version" + 1, "updatedAt" = ${now} WHERE "threadId" = ${threadId}`);
  return Number(row.version) + 1;
}

/** A standalone memento write (the memento API), in its own transaction. */
async function putMemento(
  driver: TSqlDriver,
  threadId: string,
  expectedVersion: number | null,
  payload: Record<string, unknown>,
): Promise<TStoredMemento> {
  return driver.transaction(async (tx) => {
    const now = new Date();
    const version = await writeMemento(tx, threadId, expectedVersion, payload, now);
    return { threadId, version, payload, updatedAt: now };
  });
}

export function mementoRepository({ sql }: TStore) {
  return {
    get: (threadId: string) => getMemento(sql, threadId),
    put: (threadId: string, expectedVersion: number | null, payload: Record<string, unknown>) =>
      putMemento(sql, threadId, expectedVersion, payload),
  };
}
