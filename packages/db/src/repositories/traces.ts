import { randomUUID } from "node:crypto";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
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
    await tx.traceEvent.createMany({
      data: run.events.map((e, seq) => ({
        id: randomUUID(),
        traceRunId: id,
        seq,
        transmissionId: run.transmissionId,
        actor: e.actor,
        phase: e.phase,
        status: e.status,
        summary: e.summary,
        metadata: e.metadata as Prisma.InputJsonObject,
        createdAt: e.at,
      })),
    });
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
