import { DomainError } from "@solserver/contracts";
import { prepare } from "../prepared-sql";
import { dateOf, jsonOf, type TSql } from "../sql";
import { fragment, rows, run, typed } from "../typed-sql";
import type { TStore } from "./store";

// Procedure mode (seed 004): a thread's binding to a catalog system (on Thread) and the context
// engine's state (ConversationContext), read on every turn of a bound thread (hot path) and
// written in the turn's transaction, conditional on the version the turn read.

/** A thread's procedure: its binding and, unless lost, the stored engine state. */
export type TStoredContext = {
  threadId: string;
  systemId: string;
  boundAt: Date;
  /** Null when the thread is bound but its state is missing (rebuilt from the messages). */
  stored: { systemId: string; version: number; state: unknown; updatedAt: Date } | null;
};

/** What a turn writes for a procedure thread (see recordTurn). */
export type TContextWrite = {
  /** The system to bind the thread to when this turn binds it; null for a thread bound already. */
  bind: string | null;
  systemId: string;
  /** The version the turn read; null when there was no stored state (new binding or a rebuild). */
  expectedVersion: number | null;
  /**
   * With no stored state: the version to insert, the number of the diagnosis's turns including
   * this one (1 for a new binding), so a lost-and-rebuilt state never reuses an earlier version.
   */
  insertVersion: number;
  state: Record<string, unknown>;
};

const storedContext = prepare((v: { threadId: string }) =>
  typed
    .selectFrom("Thread as t")
    .leftJoin("ConversationContext as c", "c.threadId", "t.id")
    .select([
      "t.procedureSystemId as systemId",
      "t.procedureBoundAt as boundAt",
      "c.systemId as storedSystemId",
      "c.version as version",
      "c.state as state",
      "c.updatedAt as updatedAt",
    ])
    .where("t.id", "=", v.threadId),
);

/** The thread's procedure, or null for a thread that does not exist or is not bound. */
async function getContext(sql: TSql, threadId: string): Promise<TStoredContext | null> {
  const [row] = await rows(sql, storedContext({ threadId }, sql.dialect));
  if (!row || row.systemId === null || row.boundAt === null) return null;
  return {
    threadId,
    systemId: row.systemId,
    boundAt: dateOf(row.boundAt),
    stored:
      row.version === null || row.storedSystemId === null
        ? null
        : {
            systemId: row.storedSystemId,
            version: Number(row.version),
            state: jsonOf(row.state),
            updatedAt: dateOf(row.updatedAt),
          },
  };
}

/**
 * The user's messages of a procedure thread from its binding on, oldest first: what the context
 * engine replays to rebuild a lost state.
 */
async function procedureMessages(sql: TSql, threadId: string, since: Date): Promise<string[]> {
  const messages = await rows(
    sql,
    typed
      .selectFrom("Message")
      .select("content")
      .where("threadId", "=", threadId)
      .where("role", "=", "user")
      .where("createdAt", ">=", since)
      .orderBy("createdAt", "asc")
      .orderBy("id", "asc"),
  );
  return messages.map((r) => r.content);
}

function conflict(threadId: string, message: string): DomainError {
  return new DomainError(
    "CONFLICT",
    `thread ${threadId}: ${message}; the diagnosis moved on while this turn ran, send the message again`,
    { field: "procedure_version" },
  );
}

/**
 * Binds the thread (when the turn binds it) and writes the engine state conditional on the
 * version the turn read, inside the turn's transaction. A thread bound meanwhile by another turn,
 * or a stale version, is CONFLICT (field "procedure_version") and the whole turn rolls back.
 * Returns the new version.
 */
export async function writeContext(
  tx: TSql,
  threadId: string,
  write: TContextWrite,
  at: Date,
): Promise<{ version: number; updatedAt: Date }> {
  if (write.bind !== null) {
    const bound = await run(
      tx,
      typed
        .updateTable("Thread")
        .set({ procedureSystemId: write.bind, procedureBoundAt: at })
        .where("id", "=", threadId)
        .where("procedureSystemId", "is", null),
    );
    if (bound !== 1) throw conflict(threadId, "another turn bound this thread to a procedure first");
  }
  const state = fragment(tx.dialect.json(write.state));
  const changed =
    write.expectedVersion === null
      ? await run(
          tx,
          typed
            .insertInto("ConversationContext")
            .values({
              threadId,
              systemId: write.systemId,
              version: write.insertVersion,
              state,
              createdAt: at,
              updatedAt: at,
            })
            .onConflict((oc) => oc.column("threadId").doNothing()),
        )
      : await run(
          tx,
          typed
            .updateTable("ConversationContext")
            .set((eb) => ({ state, systemId: write.systemId, version: eb("version", "+", 1), updatedAt: at }))
            .where("threadId", "=", threadId)
            .where("version", "=", write.expectedVersion),
        );
  if (changed !== 1) throw conflict(threadId, "its procedure state changed since this turn read it");
  return { version: write.expectedVersion === null ? write.insertVersion : write.expectedVersion + 1, updatedAt: at };
}

export function contextRepository({ sql }: TStore) {
  return {
    /** A thread's procedure binding and stored engine state; null when the thread is not bound. */
    get: (threadId: string) => getContext(sql, threadId),
    /** The user messages of a bound thread since its binding (to rebuild a lost state). */
    messages: (threadId: string, since: Date) => procedureMessages(sql, threadId, since),
  };
}
