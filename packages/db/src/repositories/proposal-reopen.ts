import { cfbDraftOf, DomainError, type TCfb } from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import type { TSql, TSqlDriver } from "../sql";
import { insertAudit, type TAuditWrite } from "./audit";
import { revisionSnapshot, rewriteCfb } from "./cfb-write";
import { addProposalCounts } from "./proposal-counts";

// Reopening a decided proposal, in one transaction: the status flips back to pending (conditional
// on `rejected` or `approved`, and first: a SQLite transaction that reads before it writes cannot
// wait for another process's write lock), the decision's PromotionEvent is stamped reopened and
// kept, and the audit event. The next decision is the next round (promotion-write.ts), so the
// proposal's history holds both.
//
// Reopening an approval is its undo: every CFB the approval wrote goes back as it was, each a new
// version through the one CFB writer (a created CFB retired; an updated or merged one reverted to
// the content it had before; a CFB merged away points to nothing again). Only while nothing has
// changed those CFBs since: a CFB edited after the approval is CONFLICT naming it, and nothing is
// written. The twins a decision folded stay folded under it, and its next decision covers them.

export type TReopenWrite = {
  proposalId: string;
  audit: Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">;
};

/** The decision that was reopened, and the CFBs an undone approval put back. */
export type TReopenResult = { promotionId: string; cfbs: TCfb[] };

/** A CFB version a promotion wrote (its revision). */
type TWritten = { cfbId: string; version: number; changeKind: string; mergedIntoId: string | null; current: number };

export async function reopenProposal(driver: TSqlDriver, w: TReopenWrite): Promise<TReopenResult> {
  return driver.transaction(async (tx) => {
    const now = new Date();
    const flipped = await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "status" = 'pending', "decidedAt" = NULL
      WHERE "id" = ${w.proposalId} AND "status" IN ('rejected', 'approved')`);
    if (flipped !== 1) throw await cannotReopen(tx, w.proposalId);
    const [decision] = await tx.query<{ id: string; action: string }>(
      Prisma.sql`SELECT "id", "action" FROM "PromotionEvent" WHERE "proposalId" = ${w.proposalId}
        AND "reopenedAt" IS NULL ORDER BY "round" DESC LIMIT 1`,
    );
    if (!decision) throw new Error(`proposal ${w.proposalId} is decided without a decision`);
    const was = decision.action === "reject" ? "rejected" : "approved";
    // The queue counts: off its decision, onto pending (a lead: a decided proposal leads no group).
    const reopened = Prisma.sql`p."id" = ${w.proposalId}`;
    await addProposalCounts(tx, reopened, -1, Prisma.raw(`'${was}'`));
    await addProposalCounts(tx, reopened, 1);
    const cfbs = was === "approved" ? await undoWrites(tx, decision.id, now) : [];
    await tx.execute(Prisma.sql`UPDATE "PromotionEvent" SET "reopenedAt" = ${now}, "reopenedById" = ${w.audit.actorUserId}
      WHERE "id" = ${decision.id}`);
    await insertAudit(
      tx,
      [
        {
          ...w.audit,
          action: "proposal.reopen",
          targetType: "proposal",
          targetId: w.proposalId,
          details: { reopened_promotion_id: decision.id, was },
        },
        ...cfbs.map(
          (cfb): TAuditWrite => ({
            ...w.audit,
            action: cfb.retired ? "cfb.retire" : "cfb.revert",
            targetType: "cfb",
            targetId: cfb.cfb.cfb_id,
            details: { undone_promotion_id: decision.id, version: cfb.cfb.version },
          }),
        ),
      ],
      now,
    );
    return { promotionId: decision.id, cfbs: cfbs.map((c) => c.cfb) };
  });
}

/** Puts back every CFB the approval `promotionId` wrote; CONFLICT when one changed since. */
async function undoWrites(tx: TSql, promotionId: string, now: Date): Promise<{ cfb: TCfb; retired: boolean }[]> {
  const written = await tx.query<TWritten>(
    Prisma.sql`SELECT r."cfbId" AS "cfbId", r."version" AS "version", r."changeKind" AS "changeKind",
        c."mergedIntoId" AS "mergedIntoId", c."version" AS "current"
      FROM "CfbRevision" r JOIN "Cfb" c ON c."id" = r."cfbId"
      WHERE r."promotionEventId" = ${promotionId} ORDER BY r."cfbId"`,
  );
  const moved = written.find((r) => Number(r.current) !== Number(r.version));
  if (moved) {
    throw new DomainError(
      "CONFLICT",
      `${moved.cfbId} changed after this approval (version ${Number(moved.current)} now, ${Number(moved.version)} then): revert it on its page instead`,
      { field: "proposal_id" },
    );
  }
  const undone: { cfb: TCfb; retired: boolean }[] = [];
  for (const r of written) {
    const version = Number(r.version);
    const base = { cfbId: r.cfbId, expectedVersion: version, promotionId: null, now, liveOnly: false };
    const fields = { conflict: "proposal_id", cfb: "proposal_id" };
    if (r.changeKind === "create") {
      const cfb = await rewriteCfb(tx, { ...base, change: { retired: true }, revision: "retire", fields });
      undone.push({ cfb, retired: true });
      continue;
    }
    // Merged away by this approval: it points to nothing again. Else its content as it was.
    const before = r.mergedIntoId ? null : await revisionSnapshot(tx, r.cfbId, version - 1);
    if (!r.mergedIntoId && !before) throw new Error(`CFB ${r.cfbId} has no version ${version - 1}`);
    const change = before ? { draft: cfbDraftOf(before) } : { mergedInto: null };
    undone.push({ cfb: await rewriteCfb(tx, { ...base, change, revision: "revert", fields }), retired: false });
  }
  return undone;
}

/** Why a proposal that is not decided cannot be reopened, and what to do instead. */
async function cannotReopen(tx: TSql, proposalId: string): Promise<DomainError> {
  const [current] = await tx.query<{ status: string }>(
    Prisma.sql`SELECT "status" FROM "UmbraProposal" WHERE "id" = ${proposalId}`,
  );
  if (!current) return new DomainError("NOT_FOUND", `proposal ${proposalId} does not exist`, { field: "proposal_id" });
  const next =
    current.status === "pending"
      ? "nothing to reopen; decide it"
      : "a duplicate is decided with its twin; reopen that one";
  return new DomainError("CONFLICT", `proposal ${proposalId} is ${current.status}: ${next}`, {
    field: "proposal_id",
  });
}
