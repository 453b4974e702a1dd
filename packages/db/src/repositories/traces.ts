import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { timeOrderedId } from "../ids";
import { prepare } from "../prepared-sql";
import type { TSql } from "../sql";
import { fragment, type TDatabase, toSql, typed } from "../typed-sql";
import type { TStore } from "./store";
import type { TTraceEventInput } from "./types";

export type TTraceRunWrite = {
  kind: "turn" | "promotion";
  status: "completed" | "failed";
  threadId: string | null;
  packetId: string | null;
  transmissionId: string | null;
  events: TTraceEventInput[];
};

const traceEvents = prepare(
  (v: { events: TDatabase["TraceEvent"][] }, d) =>
    typed.insertInto("TraceEvent").values(v.events.map((e) => ({ ...e, metadata: fragment(d.json(e.metadata)) }))),
  ["events"],
);

/**
 * The statements that write one run with its ordered events: the run row, then every event in one
 * multi-row INSERT (Prisma's createMany costs ~0.5 ms per row here, and every turn writes eight
 * events). Dates are bound parameters, so they are stored exactly as Prisma stores DateTime.
 */
function traceRunStatements(tx: TSql, run: TTraceRunWrite): { id: string; statements: Prisma.Sql[] } {
  // Time-ordered ids: a run's events sit together in the primary-key index, so pruning the oldest
  // runs (retention) rewrites a few index pages instead of one page per event (random UUIDs).
  const id = timeOrderedId();
  const first = run.events[0]?.at ?? new Date();
  const last = run.events.at(-1)?.at ?? first;
  const { threadId, packetId, transmissionId, kind, status } = run;
  const statements = [
    toSql(
      typed
        .insertInto("TraceRun")
        .values({ id, threadId, packetId, transmissionId, kind, status, startedAt: first, endedAt: last }),
    ),
  ];
  if (run.events.length > 0) {
    const events = run.events.map((e, seq) => ({
      id: timeOrderedId(),
      traceRunId: id,
      seq,
      transmissionId,
      actor: e.actor,
      phase: e.phase,
      status: e.status,
      summary: e.summary,
      metadata: e.metadata,
      createdAt: e.at,
    }));
    statements.push(traceEvents({ events }, tx.dialect));
  }
  return { id, statements };
}

/** One run with its events, inside the hot-path transaction of the step it describes. */
export async function insertTraceRun(tx: TSql, run: TTraceRunWrite): Promise<string> {
  const { id, statements } = traceRunStatements(tx, run);
  for (const statement of statements) await tx.execute(statement);
  return id;
}

export type TTraceEventView = {
  seq: number;
  actor: string;
  phase: string;
  status: string;
  summary: string;
  metadata: unknown;
  created_ts: string;
};

async function listTraceEventsForTransmission(db: DbClient, transmissionId: string): Promise<TTraceEventView[]> {
  const rows = await db.traceEvent.findMany({
    where: { transmissionId },
    select: { seq: true, actor: true, phase: true, status: true, summary: true, metadata: true, createdAt: true },
    orderBy: [{ createdAt: "asc" }, { seq: "asc" }],
  });
  return rows.map((r) => ({
    seq: r.seq,
    actor: r.actor,
    phase: r.phase,
    status: r.status,
    summary: r.summary,
    metadata: r.metadata,
    created_ts: r.createdAt.toISOString(),
  }));
}

export function traceRepository({ prisma, sql }: TStore) {
  return {
    /** A run on its own (a turn that failed before anything else was stored), in one transaction. */
    write: (run: TTraceRunWrite) => sql.transaction((tx) => insertTraceRun(tx, run)),
    forTransmission: (transmissionId: string) => listTraceEventsForTransmission(prisma, transmissionId),
  };
}
