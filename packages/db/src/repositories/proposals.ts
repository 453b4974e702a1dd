import type { TProposal, TProposalListResponse } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { toProposal } from "../mappers";
import { afterCursor, cursorPosition, pageOf } from "../pagination";

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

export type { TPromotionResult, TPromotionWrite } from "./promotion-write";
