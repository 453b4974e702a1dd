import { DomainError } from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import type { TSql, TSqlDriver } from "../sql";
import { insertAudit, type TAuditWrite } from "./audit";
import { addProposalCounts } from "./proposal-counts";

// Reopening a rejected proposal, in one transaction: the status flips back to pending
// (conditional on `rejected`, and first: a SQLite transaction that reads before it writes cannot
// wait for another process's write lock), the rejection's PromotionEvent is stamped reopened and
// kept, and the audit event. The next decision is the next round (promotion-write.ts), so the
// proposal's history holds both.

export type TReopenWrite = {
  proposalId: string;
  audit: Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">;
};

/** The rejection that was reopened. */
export type TReopenResult = { promotionId: string };

export async function reopenProposal(driver: TSqlDriver, w: TReopenWrite): Promise<TReopenResult> {
  return driver.transaction(async (tx) => {
    const now = new Date();
    const flipped = await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "status" = 'pending', "decidedAt" = NULL
      WHERE "id" = ${w.proposalId} AND "status" = 'rejected'`);
    if (flipped !== 1) throw await cannotReopen(tx, w.proposalId);
    // The queue counts: off rejected, onto pending (a lead: a decided proposal leads no group).
    const reopened = Prisma.sql`p."id" = ${w.proposalId}`;
    await addProposalCounts(tx, reopened, -1, Prisma.sql`'rejected'`);
    await addProposalCounts(tx, reopened, 1);
    const [rejection] = await tx.query<{ id: string }>(
      Prisma.sql`SELECT "id" FROM "PromotionEvent" WHERE "proposalId" = ${w.proposalId}
        AND "reopenedAt" IS NULL ORDER BY "round" DESC LIMIT 1`,
    );
    if (!rejection) throw new Error(`proposal ${w.proposalId} is rejected without a decision`);
    await tx.execute(Prisma.sql`UPDATE "PromotionEvent" SET "reopenedAt" = ${now}, "reopenedById" = ${w.audit.actorUserId}
      WHERE "id" = ${rejection.id}`);
    await insertAudit(
      tx,
      [
        {
          ...w.audit,
          action: "proposal.reopen",
          targetType: "proposal",
          targetId: w.proposalId,
          details: { reopened_promotion_id: rejection.id },
        },
      ],
      now,
    );
    return { promotionId: rejection.id };
  });
}

/** Why a proposal that is not `rejected` cannot be reopened, and what to do instead. */
async function cannotReopen(tx: TSql, proposalId: string): Promise<DomainError> {
  const [current] = await tx.query<{ status: string; finalCfbId: string | null }>(
    Prisma.sql`SELECT p."status" AS "status", e."finalCfbId" AS "finalCfbId" FROM "UmbraProposal" p
      LEFT JOIN "PromotionEvent" e ON e."proposalId" = p."id" AND e."reopenedAt" IS NULL
      WHERE p."id" = ${proposalId}`,
  );
  if (!current) return new DomainError("NOT_FOUND", `proposal ${proposalId} does not exist`, { field: "proposal_id" });
  const next =
    current.status === "pending"
      ? "nothing to reopen; decide it"
      : current.status === "approved"
        ? `only a rejection can be reopened; to undo what it wrote, revert ${current.finalCfbId ?? "its CFB"} to an earlier version on its page`
        : "only a rejected proposal can be reopened";
  return new DomainError("CONFLICT", `proposal ${proposalId} is ${current.status}: ${next}`, {
    field: "proposal_id",
  });
}
