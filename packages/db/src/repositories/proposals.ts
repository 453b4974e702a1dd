import { randomUUID } from "node:crypto";
import type { TCfb, TCfbDraft, TPromoteAction, TProposal, TProposalListResponse } from "@solserver/contracts";
import { DomainError } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { allocateId } from "../ids";
import { toCfb, toProposal } from "../mappers";
import { afterCursor, cursorPosition, pageOf } from "../pagination";
import { type TAuditWrite, writeAudit } from "./audit";
import { insertCfb } from "./cfb-writes";
import { resolveDecisionStatement } from "./resolve";
import { writeTraceRun } from "./traces";
import type { TResolveDecisionWrite, TTraceEventInput } from "./types";

type Tx = Prisma.TransactionClient;

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
  /** The CFB to create, or null when the action writes no CFB (reject) or updates one. */
  cfbDraft: TCfbDraft | null;
  /**
   * An existing CFB to rewrite instead (approve_update, or an edit of an update proposal),
   * conditional on the version the person reviewed; with `mergedId`, that CFB is folded into it.
   */
  cfbUpdate?: { cfbId: string; expectedVersion: number; draft: TCfbDraft; mergedId: string | null } | null;
  overrides: Record<string, unknown> | null;
  trace: TTraceEventInput[];
  /** Resolve taken again at promotion time (the knowledge base may have moved since). */
  resolve?: Omit<TResolveDecisionWrite, "proposalId" | "stage">;
};

export type TPromotionResult = { promotionId: string; cfb: TCfb | null; mergedCfbId: string | null };

/** What changed in a CFB since `expectedVersion`: field names, for the CONFLICT message. */
async function changedSince(tx: Tx, cfbId: string, expectedVersion: number, current: TCfb): Promise<string[]> {
  const base = await tx.cfbRevision.findUnique({ where: { cfbId_version: { cfbId, version: expectedVersion } } });
  if (!base) return [];
  const before = base.snapshot as Record<string, unknown>;
  const after = current as unknown as Record<string, unknown>;
  return ["title", "summary", "text", "tags", "entities", "kind", "confidence", "domain"].filter(
    (f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]),
  );
}

/**
 * Rewrites a CFB from a promotion: version + 1 conditional on the reviewed version, a revision
 * linked to the promotion. A stale version is CONFLICT naming what changed; nothing is written
 * (the caller's transaction rolls back).
 */
async function rewriteCfb(
  tx: Tx,
  cfbId: string,
  expectedVersion: number,
  data: Prisma.CfbUpdateManyMutationInput,
  changeKind: "update" | "merge",
  promotionId: string,
): Promise<TCfb> {
  const moved = await tx.cfb.updateMany({
    where: { id: cfbId, version: expectedVersion, mergedIntoId: null },
    data: { ...data, version: { increment: 1 } },
  });
  const row = await tx.cfb.findUnique({ where: { id: cfbId } });
  if (!row) throw new DomainError("NOT_FOUND", `CFB ${cfbId} does not exist`, { field: "expected_cfb_version" });
  if (moved.count !== 1) {
    if (row.mergedIntoId) {
      throw new DomainError("CONFLICT", `CFB ${cfbId} was merged into ${row.mergedIntoId} meanwhile`, {
        field: "expected_cfb_version",
      });
    }
    const changed = await changedSince(tx, cfbId, expectedVersion, toCfb(row));
    throw new DomainError(
      "CONFLICT",
      `CFB ${cfbId} is at version ${row.version}, not ${expectedVersion}${changed.length ? `: ${changed.join(", ")} changed` : ""}; review it again`,
      { field: "expected_cfb_version" },
    );
  }
  const cfb = toCfb(row);
  await tx.cfbRevision.create({
    data: { id: randomUUID(), cfbId, version: cfb.version, snapshot: cfb, changeKind, promotionEventId: promotionId },
  });
  return cfb;
}

/**
 * Records a person's decision on a pending proposal, in one transaction. The status flip is
 * conditional on `pending`, and PromotionEvent.proposalId is unique, so of two concurrent
 * decisions exactly one lands and the other gets CONFLICT with nothing written.
 */
export async function applyPromotion(db: DbClient, w: TPromotionWrite): Promise<TPromotionResult> {
  return db.$transaction(async (tx) => {
    // Write first: a SQLite transaction that reads before it writes cannot wait for another
    // process's write lock (it fails at once), so the conditional status flip comes first.
    const status = w.action === "reject" ? "rejected" : "approved";
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
    let cfb = w.cfbDraft ? await insertCfb(tx, w.cfbDraft, promotionId) : null;
    const update = w.cfbUpdate ?? null;
    if (update) {
      const d = update.draft;
      cfb = await rewriteCfb(
        tx,
        update.cfbId,
        update.expectedVersion,
        {
          domain: d.domain,
          kind: d.kind,
          confidence: d.confidence,
          title: d.title,
          summary: d.summary,
          text: d.text,
          tags: d.tags,
          entities: d.entities,
          trustTier: d.trust_tier,
          sourceRefs: d.source_refs,
        },
        update.mergedId ? "merge" : "update",
        promotionId,
      );
      if (update.mergedId) {
        // The merged CFB keeps its row and history and points to the survivor.
        const merged = await tx.cfb.findUnique({ where: { id: update.mergedId } });
        if (!merged) throw new DomainError("NOT_FOUND", `CFB ${update.mergedId} does not exist`);
        await rewriteCfb(tx, merged.id, merged.version, { mergedIntoId: update.cfbId }, "merge", promotionId);
      }
    }
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
        action: update ? (update.mergedId ? "cfb.merge" : "cfb.update") : "cfb.create",
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
    return { promotionId, cfb, mergedCfbId: update?.mergedId ?? null };
  });
}
