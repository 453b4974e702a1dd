import { cfbDraftOf, DomainError, sameCfbContent, type TCfb } from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { isLiveCfb } from "../live";
import { toCfb } from "../mappers";
import type { TSql, TSqlDriver } from "../sql";
import { rows, run, typed } from "../typed-sql";
import { insertAudit, type TAuditWrite } from "./audit";
import { readCfbRow, revisionSnapshot, rewriteCfb } from "./cfb-write";
import { addProposalCounts } from "./proposal-counts";

// Reopening a decided proposal, in one transaction: the status flips back to pending (conditional
// on `rejected` or `approved`, and first: a SQLite transaction that reads before it writes cannot
// wait for another process's write lock), the decision's PromotionEvent is stamped reopened and
// kept, and the audit event. The next decision is the next round (promotion-write.ts), so the
// proposal's history holds both.
//
// Reopening an approval is its undo: every CFB the approval wrote goes back as it was, each a new
// version through the one CFB writer (a created CFB retired; an updated or merged one reverted to
// the content it had before; a CFB merged away points to nothing again). Only while those CFBs
// still hold what the approval left: a CFB edited after it is CONFLICT naming it, and nothing is
// written. The twins a decision folded stay folded under it, and its next decision covers them.

export type TReopenWrite = {
  proposalId: string;
  /** The decision the caller means to undo; another one in force is CONFLICT (it was decided again). */
  promotionId?: string | undefined;
  audit: Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">;
};

/** The decision that was reopened, and the CFBs an undone approval put back. */
export type TReopenResult = { promotionId: string; cfbs: TCfb[] };

export async function reopenProposal(driver: TSqlDriver, w: TReopenWrite): Promise<TReopenResult> {
  return driver.transaction(async (tx) => {
    const now = new Date();
    const flipped = await run(
      tx,
      typed
        .updateTable("UmbraProposal")
        .set({ status: "pending", decidedAt: null })
        .where("id", "=", w.proposalId)
        .where("status", "in", ["rejected", "approved"]),
    );
    if (flipped !== 1) throw await cannotReopen(tx, w.proposalId);
    const [decision] = await rows(
      tx,
      typed
        .selectFrom("PromotionEvent")
        .select(["id", "action", "finalCfbId"])
        .where("proposalId", "=", w.proposalId)
        .where("reopenedAt", "is", null)
        .orderBy("round", "desc")
        .limit(1),
    );
    if (!decision) throw new Error(`proposal ${w.proposalId} is decided without a decision`);
    if (w.promotionId !== undefined && w.promotionId !== decision.id) {
      throw new DomainError(
        "CONFLICT",
        `proposal ${w.proposalId} was decided again since (${decision.id}, not ${w.promotionId}): nothing undone`,
        { field: "promotion_id" },
      );
    }
    const was = decision.action === "reject" ? "rejected" : "approved";
    // The queue counts: off its decision, onto pending (a lead: a decided proposal leads no group).
    const reopened = Prisma.sql`p."id" = ${w.proposalId}`;
    await addProposalCounts(tx, reopened, -1, Prisma.raw(`'${was}'`));
    await addProposalCounts(tx, reopened, 1);
    const cfbs = was === "approved" ? await undoWrites(tx, decision.id, decision.finalCfbId, now) : [];
    await run(
      tx,
      typed
        .updateTable("PromotionEvent")
        .set({ reopenedAt: now, reopenedById: w.audit.actorUserId })
        .where("id", "=", decision.id),
    );
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

/**
 * Puts back every CFB the approval `promotionId` wrote; CONFLICT when one changed since. "Changed"
 * is judged on what the CFB holds, not its version: undoing a later approval of the same CFB (a
 * bulk run undone latest first) writes a new version with the very content this approval left,
 * which must not block this undo. Each write is conditional on the version read here.
 */
async function undoWrites(
  tx: TSql,
  promotionId: string,
  finalCfbId: string | null,
  now: Date,
): Promise<{ cfb: TCfb; retired: boolean }[]> {
  const written = await rows(
    tx,
    typed
      .selectFrom("CfbRevision")
      .select(["cfbId", "version", "changeKind"])
      .where("promotionEventId", "=", promotionId)
      .orderBy("cfbId"),
  );
  const undone: { cfb: TCfb; retired: boolean }[] = [];
  for (const r of written) {
    const version = Number(r.version);
    const [row, left] = [await readCfbRow(tx, r.cfbId), await revisionSnapshot(tx, r.cfbId, version)];
    if (!row || !left) throw new Error(`CFB ${r.cfbId} or its version ${version} is missing`);
    // What this approval did to it: created it, merged it away into the survivor, or rewrote it.
    const role = r.changeKind === "create" ? "created" : r.cfbId === finalCfbId ? "rewritten" : "merged";
    const asLeft =
      role === "merged" ? row.mergedIntoId === finalCfbId : isLiveCfb(row) && sameCfbContent(toCfb(row), left);
    if (!asLeft) {
      throw new DomainError(
        "CONFLICT",
        `${r.cfbId} changed after this approval (version ${Number(row.version)} now, ${version} then): revert it on its page instead`,
        { field: "proposal_id" },
      );
    }
    const base = { cfbId: r.cfbId, expectedVersion: Number(row.version), promotionId: null, now, liveOnly: false };
    const fields = { conflict: "proposal_id", cfb: "proposal_id" };
    if (role === "created") {
      const cfb = await rewriteCfb(tx, { ...base, change: { retired: true }, revision: "retire", fields });
      undone.push({ cfb, retired: true });
      continue;
    }
    // Merged away by this approval: it points to nothing again. Rewritten: its content before.
    const before = role === "rewritten" ? await revisionSnapshot(tx, r.cfbId, version - 1) : null;
    if (role === "rewritten" && !before) throw new Error(`CFB ${r.cfbId} has no version ${version - 1}`);
    const change = before ? { draft: cfbDraftOf(before) } : { mergedInto: null };
    undone.push({ cfb: await rewriteCfb(tx, { ...base, change, revision: "revert", fields }), retired: false });
  }
  return undone;
}

/** Why a proposal that is not decided cannot be reopened, and what to do instead. */
async function cannotReopen(tx: TSql, proposalId: string): Promise<DomainError> {
  const [current] = await rows(tx, typed.selectFrom("UmbraProposal").select("status").where("id", "=", proposalId));
  if (!current) return new DomainError("NOT_FOUND", `proposal ${proposalId} does not exist`, { field: "proposal_id" });
  const next =
    current.status === "pending"
      ? "nothing to reopen; decide it"
      : "a duplicate is decided with its twin; reopen that one";
  return new DomainError("CONFLICT", `proposal ${proposalId} is ${current.status}: ${next}`, {
    field: "proposal_id",
  });
}
