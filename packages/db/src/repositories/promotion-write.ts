import { DomainError, proposalDecidedConflict, type TCfb, type TCfbDraft } from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { allocateIds } from "../ids";
import type { TSql, TSqlDriver } from "../sql";
import { insertAudit, type TAuditWrite } from "./audit";
import { insertCfbs, readCfbRow, rewriteCfb, type TPrivateOwner } from "./cfb-write";
import { addProposalCounts, KIND_WHILE_PENDING } from "./proposal-counts";
import { proposalsByIds } from "./proposal-read";
import { insertResolveDecisions } from "./resolve";
import { insertTraceRun } from "./traces";
import type { TResolveDecisionWrite, TTraceEventInput } from "./types";

// A person's decision on a proposal, written through the SQL driver: a promotion touches a
// dozen rows (proposal, CFB, revision, stats, promotion event, audit, resolve decision, trace),
// and as Prisma model queries that cost ~10 ms (docs/performance.md). The CFB goes through the
// one CFB writer (cfb-write.ts), the audit events through the one audit writer.

export type TPromotionWrite = {
  proposalId: string;
  action: "approve_create" | "approve_update" | "reject" | "edit_then_approve";
  editor: "user" | "jam";
  audit: Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">;
  /** The CFB to create, or null when the action writes no CFB (reject) or updates one. */
  cfbDraft: TCfbDraft | null;
  /** The user a created CFB is private to (a user's own approval, issue 19); null: shared. */
  cfbPrivateTo?: TPrivateOwner | null;
  /**
   * An existing CFB to rewrite instead (approve_update, or an edit of an update proposal),
   * conditional on the version the person reviewed; with `mergedId`, that CFB is folded into it.
   */
  cfbUpdate?: { cfbId: string; expectedVersion: number; draft: TCfbDraft; mergedId: string | null } | null;
  overrides: Record<string, unknown> | null;
  /** A rejection's reason, kept with the decision. */
  reason?: string | null;
  trace: TTraceEventInput[];
  /** Resolve taken again at promotion time (the knowledge base may have moved since). */
  resolve?: Omit<TResolveDecisionWrite, "proposalId" | "stage">;
};

export type TPromotionResult = {
  promotionId: string;
  cfb: TCfb | null;
  mergedCfbId: string | null;
  /** When the decision landed (ISO). */
  decidedTs: string;
  /** The proposal's pending twins this decision folded (status `duplicate`). */
  folded: string[];
};

/** The request field a promotion's CFB conflicts name. */
const PROMOTION_FIELDS = { conflict: "expected_cfb_version", cfb: "expected_cfb_version" } as const;

/**
 * Records a person's decision on a pending proposal, in one transaction. The status flip is
 * conditional on `pending` and comes first (a SQLite transaction that reads before it writes
 * cannot wait for another process's write lock), and (PromotionEvent.proposalId, round) is unique
 * (the round counts the proposal's earlier decisions, all of them reopened), so of two concurrent
 * decisions exactly one lands and the other gets CONFLICT with nothing written, saying who
 * decided it and when. The proposal's pending twins are folded into it in the same transaction:
 * one decision covers the group, so a twin can never be decided on its own after it.
 */
export async function applyPromotion(driver: TSqlDriver, w: TPromotionWrite): Promise<TPromotionResult> {
  return driver.transaction(async (tx) => {
    const now = new Date();
    const status = w.action === "reject" ? "rejected" : "approved";
    const decision = w.resolve?.outcome.decision ?? null;
    const flipped = await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "status" = ${status}, "decidedAt" = ${now},
        "latestDecision" = COALESCE(${decision}, "latestDecision")
      WHERE "id" = ${w.proposalId} AND "status" = 'pending'`);
    if (flipped !== 1) {
      const [current] = await proposalsByIds(tx, [w.proposalId]);
      if (!current)
        throw new DomainError("NOT_FOUND", `proposal ${w.proposalId} does not exist`, { field: "proposal_id" });
      throw proposalDecidedConflict({ ...current, final_cfb_id: current.promotion?.final_cfb_id ?? null });
    }
    const [proposal] = await tx.query<{
      responseId: string;
      threadId: string;
      transmissionId: string;
      packetId: string;
      twinOfId: string | null;
    }>(
      Prisma.sql`SELECT p."responseId" AS "responseId", p."threadId" AS "threadId", t."id" AS "transmissionId",
          t."packetId" AS "packetId", p."twinOfId" AS "twinOfId"
        FROM "UmbraProposal" p JOIN "Response" r ON r."id" = p."responseId" JOIN "Transmission" t ON t."id" = r."transmissionId"
        WHERE p."id" = ${w.proposalId}`,
    );
    if (!proposal) throw new Error(`proposal ${w.proposalId} has no response`);
    // The queue counts: off its pending kind (a lead or a twin; the flip left its link), onto its
    // decision. Before the fold, which unlinks it from its lead.
    const decided = Prisma.sql`p."id" = ${w.proposalId}`;
    await addProposalCounts(tx, decided, -1, KIND_WHILE_PENDING);
    await addProposalCounts(tx, decided, 1);
    const folded = await foldTwins(tx, w.proposalId, proposal.twinOfId, now);
    const promotionId = (await allocateIds(tx, { promotion: 1 })).promotion[0] as string;
    const created = w.cfbDraft
      ? await insertCfbs(tx, [w.cfbDraft], { promotionId, now, privateTo: w.cfbPrivateTo ?? null })
      : [];
    let cfb = created[0] ?? null;
    const update = w.cfbUpdate ?? null;
    if (update) {
      const revision = update.mergedId ? "merge" : "update";
      cfb = await rewriteCfb(tx, {
        cfbId: update.cfbId,
        expectedVersion: update.expectedVersion,
        change: { draft: update.draft },
        revision,
        promotionId,
        now,
        liveOnly: true,
        fields: PROMOTION_FIELDS,
      });
      if (update.mergedId) {
        // The merged CFB keeps its row and history and points to the survivor.
        const merged = await readCfbRow(tx, update.mergedId);
        if (!merged) throw new DomainError("NOT_FOUND", `CFB ${update.mergedId} does not exist`);
        await rewriteCfb(tx, {
          cfbId: merged.id,
          expectedVersion: Number(merged.version),
          change: { mergedInto: update.cfbId },
          revision: "merge",
          promotionId,
          now,
          liveOnly: true,
          fields: PROMOTION_FIELDS,
        });
      }
    }
    const finalCfbId = cfb?.cfb_id ?? null;
    await tx.execute(Prisma.sql`INSERT INTO "PromotionEvent" ("id", "proposalId", "responseId", "packetId", "transmissionId",
        "action", "finalCfbId", "editor", "decidedById", "overrides", "reason", "createdAt", "round")
      VALUES (${promotionId}, ${w.proposalId}, ${proposal.responseId}, ${proposal.packetId}, ${proposal.transmissionId},
        ${w.action}, ${finalCfbId}, ${w.editor}, ${w.audit.actorUserId}, ${w.overrides ? tx.dialect.json(w.overrides) : null},
        ${w.reason ?? null}, ${now},
        (SELECT COUNT(*) FROM "PromotionEvent" WHERE "proposalId" = ${w.proposalId}))`);
    const audits: TAuditWrite[] = [
      {
        ...w.audit,
        action: `proposal.${w.action}`,
        targetType: "proposal",
        targetId: w.proposalId,
        details: {
          promotion_id: promotionId,
          final_cfb_id: finalCfbId,
          overrides: w.overrides,
          ...(w.reason ? { reason: w.reason } : {}),
        },
      },
    ];
    if (cfb) {
      audits.push({
        ...w.audit,
        action: update ? (update.mergedId ? "cfb.merge" : "cfb.update") : "cfb.create",
        targetType: "cfb",
        targetId: cfb.cfb_id,
        details: { proposal_id: w.proposalId, version: cfb.version },
      });
    }
    for (const id of folded) {
      audits.push({
        ...w.audit,
        action: "proposal.fold",
        targetType: "proposal",
        targetId: id,
        details: { twin_of: w.proposalId, promotion_id: promotionId },
      });
    }
    await insertAudit(tx, audits, now);
    if (w.resolve)
      await insertResolveDecisions(tx, [{ ...w.resolve, proposalId: w.proposalId, stage: "promotion" }], now);
    await insertTraceRun(tx, {
      kind: "promotion",
      status: "completed",
      threadId: proposal.threadId,
      packetId: proposal.packetId,
      transmissionId: proposal.transmissionId,
      events: [
        ...w.trace,
        {
          actor: "solserver",
          phase: "promotion",
          status: "completed",
          summary: `Promotion ${promotionId}: ${w.action}${cfb ? ` wrote ${cfb.cfb_id}` : ""}${folded.length > 0 ? `, folded ${folded.length} twin(s)` : ""}`,
          metadata: { promotion_id: promotionId, proposal_id: w.proposalId, final_cfb_id: finalCfbId, folded },
          at: now,
        },
      ],
    });
    return { promotionId, cfb, mergedCfbId: update?.mergedId ?? null, decidedTs: now.toISOString(), folded };
  });
}

/**
 * Folds the pending twins of a just-decided proposal into it: its group is its lead (`leadId`,
 * when it was a twin itself) or itself, and every other pending member becomes `duplicate`,
 * linked to the decided proposal. Returns their ids, oldest first.
 */
async function foldTwins(tx: TSql, decidedId: string, leadId: string | null, now: Date): Promise<string[]> {
  const group = leadId ?? decidedId;
  // Decided, it leads nothing any more: the twins point to it, not it to its old lead.
  if (leadId) await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "twinOfId" = NULL WHERE "id" = ${decidedId}`);
  const members = await tx.query<{ id: string }>(
    Prisma.sql`SELECT "id" FROM "UmbraProposal"
      WHERE "status" = 'pending' AND ("id" = ${group} OR "twinOfId" = ${group}) AND "id" <> ${decidedId}
      ORDER BY "seq"`,
  );
  const ids = members.map((m) => m.id);
  if (ids.length === 0) return [];
  // The queue counts move with them, from what they are (the lead, twins) to duplicate; this
  // transaction holds the write lock since its first statement, so nothing changed them since.
  const folded = Prisma.sql`p."id" IN (${Prisma.join(ids)})`;
  await addProposalCounts(tx, folded, -1);
  await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "status" = 'duplicate', "twinOfId" = ${decidedId},
      "decidedAt" = ${now} WHERE "id" IN (${Prisma.join(ids)}) AND "status" = 'pending'`);
  await addProposalCounts(tx, folded, 1);
  return ids;
}
