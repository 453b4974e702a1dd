import { randomUUID } from "node:crypto";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import type { TTraceEventInput } from "./types";

type Tx = Prisma.TransactionClient;

export type TTraceRunWrite = {
  kind: "turn" | "promotion";
  status: "completed" | "failed";
  threadId: string | null;
  packetId: string | null;
  transmissionId: string | null;
  events: TTraceEventInput[];
};

/** One run with its ordered events; used inside the transaction of the step it describes. */
export async function writeTraceRun(tx: Tx | DbClient, run: TTraceRunWrite): Promise<string> {
  const id = randomUUID();
  const first = run.events[0]?.at ?? new Date();
  const last = run.events.at(-1)?.at ?? first;
  await tx.traceRun.create({
    data: {
      id,
      kind: run.kind,
      status: run.status,
      threadId: run.threadId,
      packetId: run.packetId,
      transmissionId: run.transmissionId,
      startedAt: first,
      endedAt: last,
    },
  });
  if (run.events.length > 0) {
    // One raw multi-row INSERT: Prisma's createMany costs ~0.5 ms per row here (JSON metadata),
    // and every turn writes eight events. Date parameters go through the driver adapter, so
    // they are stored exactly as Prisma stores DateTime. (PostgreSQL will need ::jsonb on the
    // metadata parameter.)
    const rows = run.events.map(
      (e, seq) =>
        Prisma.sql`(${randomUUID()}, ${id}, ${seq}, ${run.transmissionId}, ${e.actor}, ${e.phase}, ${e.status}, ${e.summary}, ${JSON.stringify(e.metadata)}, ${e.at})`,
    );
    await tx.$executeRaw`INSERT INTO "TraceEvent" ("id", "traceRunId", "seq", "transmissionId", "actor", "phase", "status", "summary", "metadata", "createdAt") VALUES ${Prisma.join(rows)}`;
  }
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

export async function listTraceEventsForTransmission(db: DbClient, transmissionId: string): Promise<TTraceEventView[]> {
  const rows = await db.traceEvent.findMany({
    where: { transmissionId },
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
