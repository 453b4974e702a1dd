import { DomainError } from "@solserver/contracts";
import type { TSqlDialect } from "../dialect/dialect";
import { prepare } from "../prepared-sql";
import { dateOf, jsonOf, type TSql, type TSqlDriver } from "../sql";
import { fragment, rows, run, typed } from "../typed-sql";
import type { TStore } from "./store";

// Mementos are read and written on every chat turn, so they go through the hot-path driver, in
// prepared statements (typed-sql.ts).

export type TStoredMemento = { threadId: string; version: number; payload: unknown; updatedAt: Date };

const memento = prepare((v: { threadId: string }) =>
  typed
    .selectFrom("ThreadMemento")
    .select(["threadId", "version", "payload", "updatedAt"])
    .where("threadId", "=", v.threadId),
);

const lockedMemento = prepare((v: { threadId: string }, d) =>
  typed
    .selectFrom("ThreadMemento")
    .select(["version", "payload"])
    .where("threadId", "=", v.threadId)
    .modifyEnd(fragment(d.forUpdate)),
);

const firstMemento = prepare((v: { threadId: string; payload: unknown; now: Date }, d) =>
  typed
    .insertInto("ThreadMemento")
    .values({ threadId: v.threadId, version: 1, payload: fragment(d.json(v.payload)), updatedAt: v.now })
    .onConflict((oc) => oc.column("threadId").doNothing()),
);

type TNext = { threadId: string; payload: unknown; now: Date };

/** The memento's next version, whatever its version. */
const nextAny = prepare((v: TNext, d) => nextVersion(v, d));

/** The memento's next version, only from `version` (else no row changes). */
const nextFrom = prepare((v: TNext & { version: number }, d) => nextVersion(v, d).where("version", "=", v.version));

function nextVersion(v: TNext, d: TSqlDialect) {
  return typed
    .updateTable("ThreadMemento")
    .set((eb) => ({ payload: fragment(d.json(v.payload)), version: eb("version", "+", 1), updatedAt: v.now }))
    .where("threadId", "=", v.threadId);
}

async function getMemento(sql: TSql, threadId: string): Promise<TStoredMemento | null> {
  const [row] = await rows(sql, memento({ threadId }, sql.dialect));
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
  const changed =
    expectedVersion === null
      ? await insertFirst(tx, threadId, payload, now)
      : await run(tx, nextFrom({ threadId, payload, now, version: expectedVersion }, tx.dialect));
  if (changed !== 1) throw await conflict(tx, threadId, expectedVersion);
  return (expectedVersion ?? 0) + 1;
}

/** A thread's first memento, unless one is there already; the rows written (0 or 1). */
function insertFirst(tx: TSql, threadId: string, payload: Record<string, unknown>, now: Date): Promise<number> {
  return run(tx, firstMemento({ threadId, payload, now }, tx.dialect));
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
  const locked = async () => (await rows(tx, lockedMemento({ threadId }, tx.dialect)))[0];
  let row = await locked();
  if (!row) {
    // A new thread's first turns race to create it: one inserts, the others lock what it wrote.
    if ((await insertFirst(tx, threadId, write.rebase(null), now)) === 1) return 1;
    row = await locked();
    if (!row) throw new Error(`thread ${threadId}: its memento was neither there nor written`);
  }
  const payload = write.rebase(jsonOf(row.payload));
  await run(tx, nextAny({ threadId, payload, now }, tx.dialect));
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
