import type { TCfb, TCfbDraft, TPromoteAction, TProposal, TProposalListResponse } from "@solserver/contracts";
import { DomainError } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { allocateId } from "../ids";
import { toProposal } from "../mappers";
import { afterCursor, cursorPosition, pageOf } from "../pagination";
import { type TAuditWrite, writeAudit } from "./audit";
import { insertCfb } from "./cfb-writes";
import { resolveDecisionStatement } from "./resolve";
import { writeTraceRun } from "./traces";
import type { TResolveDecisionWrite, TTraceEventInput } from "./types";

/** The latest resolve decision of a proposal (at promotion if taken, else at creation). */
const LATEST_DECISION = { orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }], take: 1 };

export type TProposalListQuery = {
  status: "pending" | "approved" | "rejected" | "all";
  /** Only proposals of threads this account owns; undefined for every proposal (Jam). */
  ownerId?: string | undefined;
  responseId?: string | undefined;
  cursor?: string | undefined;
  limit: number;
};

export async function listProposals(db: DbClient, q: TProposalListQuery): Promise<TProposalListResponse> {
  const visible: Prisma.UmbraProposalWhereInput = q.ownerId === undefined ? {} : { thread: { ownerId: q.ownerId } };
  const filter: Prisma.UmbraProposalWhereInput = {
    ...visible,
    ...(q.status === "all" ? {} : { status: q.status }),
    ...(q.responseId ? { responseId: q.responseId } : {}),
  };
  const cursor = await cursorPosition(q.cursor, "proposal", (id) =>
    db.umbraProposal.findUnique({ where: { id }, select: { createdAt: true } }),
  );
  const [rows, grouped] = await Promise.all([
    db.umbraProposal.findMany({
      where: cursor ? { AND: [filter, afterCursor("createdAt", cursor)] } : filter,
      include: { promotion: true, resolveDecision: LATEST_DECISION },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: q.limit + 1,
    }),
    db.umbraProposal.groupBy({
      by: ["status"],
      where: { ...visible, ...(q.responseId ? { responseId: q.responseId } : {}) },
      _count: { _all: true },
    }),
  ]);
  const counts = { pending: 0, approved: 0, rejected: 0 };
  for (const g of grouped) {
    if (g.status === "pending" || g.status === "approved" || g.status === "rejected") counts[g.status] = g._count._all;
  }
  const { page, nextCursor } = pageOf(rows, q.limit);
  return { items: page.map(toProposal), next_cursor: nextCursor, counts };
}

export async function getProposal(db: DbClient, proposalId: string): Promise<TProposal | null> {
  const row = await db.umbraProposal.findUnique({
    where: { id: proposalId },
    include: { promotion: true, resolveDecision: LATEST_DECISION },
  });
  return row ? toProposal(row) : null;
}

export type TPromotionWrite = {
  proposalId: string;
  action: TPromoteAction;
  editor: "user" | "jam";
  audit: Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">;
  /** The CFB to create, or null when the action writes no CFB (reject). */
  cfbDraft: TCfbDraft | null;
  overrides: Record<string, unknown> | null;
  trace: TTraceEventInput[];
  /** Resolve taken again at promotion time (the knowledge base may have moved since). */
  resolve?: Omit<TResolveDecisionWrite, "proposalId" | "stage">;
};

export type TPromotionResult = { promotionId: string; cfb: TCfb | null };

/**
 * Records a person's decision on a pending proposal, in one transaction. The status flip is
 * conditional on `pending`, and PromotionEvent.proposalId is unique, so of two concurrent
 * decisions exactly one lands and the other gets CONFLICT with nothing written.
 */
export async function applyPromotion(db: DbClient, w: TPromotionWrite): Promise<TPromotionResult> {
  return db.$transaction(async (tx) => {
    // Write first: a SQLite transaction that reads before it writes cannot wait for another
    // process's write lock (it fails at once), so the conditional status flip comes first.
    const status = w.cfbDraft ? "approved" : "rejected";
    const flipped = await tx.umbraProposal.updateMany({
      where: { id: w.proposalId, status: "pending" },
      data: { status, decidedAt: new Date() },
    });
    if (flipped.count !== 1) {
      const current = await tx.umbraProposal.findUnique({ where: { id: w.proposalId }, select: { status: true } });
      if (!current)
        throw new DomainError("NOT_FOUND", `proposal ${w.proposalId} does not exist`, { field: "proposal_id" });
      throw new DomainError("CONFLICT", `proposal ${w.proposalId} was already ${current.status}`, {
        field: "proposal_id",
      });
    }
    const proposal = await tx.umbraProposal.findUniqueOrThrow({
      where: { id: w.proposalId },
      select: {
        responseId: true,
        threadId: true,
        response: { select: { transmission: { select: { id: true, packetId: true } } } },
      },
    });
    const promotionId = await allocateId(tx, "promotion");
    const cfb = w.cfbDraft ? await insertCfb(tx, w.cfbDraft, promotionId) : null;
    const transmission = proposal.response.transmission;
    await tx.promotionEvent.create({
      data: {
        id: promotionId,
        proposalId: w.proposalId,
        responseId: proposal.responseId,
        packetId: transmission.packetId,
        transmissionId: transmission.id,
        action: w.action,
        finalCfbId: cfb?.cfb_id ?? null,
        editor: w.editor,
        decidedById: w.audit.actorUserId,
        overrides: (w.overrides ?? undefined) as Prisma.InputJsonObject | undefined,
      },
    });
    await writeAudit(tx, {
      ...w.audit,
      action: `proposal.${w.action}`,
      targetType: "proposal",
      targetId: w.proposalId,
      details: { promotion_id: promotionId, final_cfb_id: cfb?.cfb_id ?? null, overrides: w.overrides },
    });
    if (cfb) {
      await writeAudit(tx, {
        ...w.audit,
        action: "cfb.create",
        targetType: "cfb",
        targetId: cfb.cfb_id,
        details: { proposal_id: w.proposalId },
      });
    }
    if (w.resolve) {
      await tx.$executeRaw(
        resolveDecisionStatement([{ ...w.resolve, proposalId: w.proposalId, stage: "promotion" }], new Date()),
      );
    }
    await writeTraceRun(tx, {
      kind: "promotion",
      status: "completed",
      threadId: proposal.threadId,
      packetId: transmission.packetId,
      transmissionId: transmission.id,
      events: [
        ...w.trace,
        {
          actor: "solserver",
          phase: "promotion",
          status: "completed",
          summary: `Promotion ${promotionId}: ${w.action}${cfb ? ` wrote ${cfb.cfb_id}` : ""}`,
          metadata: { promotion_id: promotionId, proposal_id: w.proposalId, final_cfb_id: cfb?.cfb_id ?? null },
          at: new Date(),
        },
      ],
    });
    return { promotionId, cfb };
  });
}
