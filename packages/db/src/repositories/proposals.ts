import type { TCfb, TCfbDraft, TPromoteAction, TProposal, TProposalListResponse } from "@solserver/contracts";
import { DomainError } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { allocateId } from "../ids";
import { toProposal } from "../mappers";
import { insertCfb } from "./cfb-writes";
import { writeTraceRun } from "./traces";
import type { TTraceEventInput } from "./types";

export type TProposalListQuery = {
  status: "pending" | "approved" | "rejected" | "all";
  responseId?: string | undefined;
  cursor?: string | undefined;
  limit: number;
};

export async function listProposals(db: DbClient, q: TProposalListQuery): Promise<TProposalListResponse> {
  const where: Prisma.UmbraProposalWhereInput = {
    ...(q.status === "all" ? {} : { status: q.status }),
    ...(q.responseId ? { responseId: q.responseId } : {}),
  };
  const [rows, grouped] = await Promise.all([
    db.umbraProposal.findMany({
      where,
      include: { promotion: true },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: q.limit + 1,
      ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
    }),
    db.umbraProposal.groupBy({
      by: ["status"],
      where: q.responseId ? { responseId: q.responseId } : {},
      _count: { _all: true },
    }),
  ]);
  const counts = { pending: 0, approved: 0, rejected: 0 };
  for (const g of grouped) {
    if (g.status === "pending" || g.status === "approved" || g.status === "rejected") counts[g.status] = g._count._all;
  }
  const page = rows.slice(0, q.limit);
  return {
    items: page.map(toProposal),
    next_cursor: rows.length > q.limit ? (page.at(-1)?.id ?? null) : null,
    counts,
  };
}

export async function getProposal(db: DbClient, proposalId: string): Promise<TProposal | null> {
  const row = await db.umbraProposal.findUnique({ where: { id: proposalId }, include: { promotion: true } });
  return row ? toProposal(row) : null;
}

export type TPromotionWrite = {
  proposalId: string;
  action: TPromoteAction;
  editor: "user" | "jam";
  /** The CFB to create, or null when the action writes no CFB (reject). */
  cfbDraft: TCfbDraft | null;
  overrides: Record<string, unknown> | null;
  trace: TTraceEventInput[];
};

export type TPromotionResult = { promotionId: string; cfb: TCfb | null };

/**
 * Records a person's decision on a pending proposal, in one transaction. The status flip is
 * conditional on `pending`, and PromotionEvent.proposalId is unique, so of two concurrent
 * decisions exactly one lands and the other gets CONFLICT with nothing written.
 */
export async function applyPromotion(db: DbClient, w: TPromotionWrite): Promise<TPromotionResult> {
  return db.$transaction(async (tx) => {
    const proposal = await tx.umbraProposal.findUnique({
      where: { id: w.proposalId },
      select: {
        responseId: true,
        threadId: true,
        response: { select: { transmission: { select: { id: true, packetId: true } } } },
      },
    });
    if (!proposal)
      throw new DomainError("NOT_FOUND", `proposal ${w.proposalId} does not exist`, { field: "proposal_id" });
    const status = w.cfbDraft ? "approved" : "rejected";
    const flipped = await tx.umbraProposal.updateMany({
      where: { id: w.proposalId, status: "pending" },
      data: { status, decidedAt: new Date() },
    });
    if (flipped.count !== 1) {
      const current = await tx.umbraProposal.findUnique({ where: { id: w.proposalId }, select: { status: true } });
      throw new DomainError("CONFLICT", `proposal ${w.proposalId} was already ${current?.status ?? "decided"}`, {
        field: "proposal_id",
      });
    }
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
        overrides: (w.overrides ?? undefined) as Prisma.InputJsonObject | undefined,
      },
    });
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
