import type { TClaimCheckView, TClaimMapEntry, TThreadDetail } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { TStore } from "./store";

export type TThreadSummaryView = {
  thread_id: string;
  title: string;
  owner_email: string | null;
  updated_ts: string;
  procedure_system_id: string | null;
};

/** Threads newest first: one owner's, or every thread when `ownerId` is undefined. */
export async function listThreads(
  db: DbClient,
  ownerId: string | undefined,
  limit: number,
): Promise<TThreadSummaryView[]> {
  const rows = await db.thread.findMany({
    where: ownerId === undefined ? {} : { ownerId },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { id: true, title: true, updatedAt: true, procedureSystemId: true, owner: { select: { email: true } } },
  });
  return rows.map((t) => ({
    thread_id: t.id,
    title: t.title,
    owner_email: t.owner?.email ?? null,
    updated_ts: t.updatedAt.toISOString(),
    procedure_system_id: t.procedureSystemId,
  }));
}

/** A turn as stored; whether its trace was pruned is the service's to say (it knows the retention). */
type TStoredTurn = Omit<TThreadDetail["turns"][number], "trace_pruned_after_days">;

/** A thread with its messages and, per turn, the trace of that turn. */
export async function getThreadDetail(
  db: DbClient,
  threadId: string,
): Promise<(Omit<TThreadDetail, "turns"> & { turns: TStoredTurn[]; owner_id: string | null }) | null> {
  const t = await db.thread.findUnique({
    where: { id: threadId },
    select: {
      id: true,
      title: true,
      ownerId: true,
      updatedAt: true,
      procedureSystemId: true,
      owner: { select: { email: true } },
      messages: {
        select: { id: true, role: true, content: true, createdAt: true },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      },
      packets: {
        orderBy: { createdAt: "asc" },
        select: {
          id: true,
          createdAt: true,
          transmissions: {
            take: 1,
            select: {
              id: true,
              routerDomain: true,
              modeLabel: true,
              responses: {
                take: 1,
                select: { id: true, assistantText: true, meta: { select: { claimMap: true, claimCheck: true } } },
              },
            },
          },
        },
      },
    },
  });
  if (!t) return null;
  const transmissionIds = t.packets.flatMap((p) => p.transmissions.map((tr) => tr.id));
  const events = await db.traceEvent.findMany({
    where: { transmissionId: { in: transmissionIds } },
    select: {
      transmissionId: true,
      seq: true,
      actor: true,
      phase: true,
      status: true,
      summary: true,
      metadata: true,
      createdAt: true,
    },
    orderBy: [{ createdAt: "asc" }, { seq: "asc" }],
  });
  return {
    thread_id: t.id,
    title: t.title,
    owner_id: t.ownerId,
    owner_email: t.owner?.email ?? null,
    updated_ts: t.updatedAt.toISOString(),
    procedure_system_id: t.procedureSystemId,
    messages: t.messages.map((m) => ({
      id: m.id,
      role: m.role === "assistant" ? "assistant" : "user",
      content: m.content,
      created_ts: m.createdAt.toISOString(),
    })),
    turns: t.packets.map((p) => {
      const transmission = p.transmissions[0];
      const transmissionId = transmission?.id ?? null;
      const response = transmission?.responses[0];
      return {
        packet_id: p.id,
        transmission_id: transmissionId,
        router_domain: transmission?.routerDomain ?? null,
        mode_label: transmission?.modeLabel ?? null,
        answer: response
          ? {
              response_id: response.id,
              assistant_text: response.assistantText,
              // Stored as validated by ZOutputEnvelope when the turn was written.
              claim_map: (response.meta?.claimMap ?? null) as TClaimMapEntry[] | null,
              claim_check: (response.meta?.claimCheck ?? null) as TClaimCheckView | null,
            }
          : null,
        trace: events
          .filter((e) => e.transmissionId === transmissionId)
          .map((e) => ({
            seq: e.seq,
            actor: e.actor,
            phase: e.phase,
            status: e.status,
            summary: e.summary,
            metadata: e.metadata,
            created_ts: e.createdAt.toISOString(),
          })),
        created_ts: p.createdAt.toISOString(),
      };
    }),
  };
}

export function threadRepository({ prisma }: TStore) {
  return {
    list: (ownerId: string | undefined, limit: number) => listThreads(prisma, ownerId, limit),
    get: (threadId: string) => getThreadDetail(prisma, threadId),
  };
}
