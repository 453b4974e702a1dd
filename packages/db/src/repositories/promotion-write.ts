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
      echo: unknown;
    }>(
      Prisma.sql`SELECT p."responseId" AS "responseId", p."threadId" AS "threadId", t."id" AS "transmissionId",
          t."packetId" AS "packetId", p."twinOfId" AS "twinOfId", p."echo" AS "echo"
        FROM "UmbraProposal" p JOIN "Response" r ON r."id" = p."responseId" JOIN "Transmission" t ON t."id" = r."transmissionId"
        WHERE p."id" = ${w.proposalId}`,
    );
    if (!proposal) throw new Error(`proposal ${w.proposalId} has no response`);
    // The queue counts: off its pending kind (a lead or a twin; the flip left its link), onto its
    // decision. Before the fold, which unlinks it from its lead.
    const decided = Prisma.sql`p."id" = ${w.proposalId}`;
    await addProposalCounts(tx, decided, -1, KIND_WHILE_PENDING);
    await addProposalCounts(tx, decided, 1);
    const folded = await foldTwins(
      tx,
      { id: w.proposalId, twinOfId: proposal.twinOfId, echo: Boolean(proposal.echo) },
      w.editor === "jam",
      now,
    );
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

type TGroupLink = { id: string; twinOfId: string | null; echo: boolean };

/**
 * Folds the pending twins of a just-decided proposal into it (status `duplicate`, linked to it),
 * and returns their ids, oldest first. Its group is its lead's (when it was a twin itself) or its
 * own. A Jam editor's decision covers the whole group across people (echoes and their twins); a
 * user's covers only their own proposals, and another person's echo of the group then leads it
 * (the oldest; the others are grouped under that one).
 */
async function foldTwins(tx: TSql, decided: TGroupLink, acrossOwners: boolean, now: Date): Promise<string[]> {
  const ownLeadId = decided.twinOfId && !decided.echo ? decided.twinOfId : decided.id;
  const ownLead =
    ownLeadId === decided.id
      ? decided
      : ((
          await tx.query<{ id: string; twinOfId: string | null; echo: unknown }>(
            Prisma.sql`SELECT "id", "twinOfId", "echo" FROM "UmbraProposal" WHERE "id" = ${ownLeadId}`,
          )
        ).map((r) => ({ ...r, echo: Boolean(r.echo) }))[0] ?? decided);
  const root = ownLead.echo && ownLead.twinOfId ? ownLead.twinOfId : ownLead.id;
  const pending = Prisma.sql`"status" = 'pending' AND "id" <> ${decided.id}`;
  const members = await tx.query<{ id: string }>(
    acrossOwners
      ? // The decided one's own twins too: decided (no longer pending), it is not among the echoes.
        Prisma.sql`SELECT "id" FROM "UmbraProposal" WHERE ${pending} AND ("id" = ${root} OR "twinOfId" IN (${root}, ${decided.id})
          OR "twinOfId" IN (SELECT "id" FROM "UmbraProposal" WHERE "twinOfId" = ${root} AND "echo" AND "status" = 'pending'))
          ORDER BY "seq"`
      : Prisma.sql`SELECT "id" FROM "UmbraProposal" WHERE ${pending}
          AND ("id" = ${ownLeadId} OR ("twinOfId" = ${ownLeadId} AND NOT "echo"))
          ORDER BY "seq"`,
  );
  // Decided, it leads nothing any more: the twins point to it, not it to its old lead.
  if (decided.twinOfId)
    await tx.execute(
      Prisma.sql`UPDATE "UmbraProposal" SET "twinOfId" = NULL, "echo" = ${false} WHERE "id" = ${decided.id}`,
    );
  // Decided from another person's side of the group, the group's old lead is that other
  // person's proposal now folded under it: flagged as an echo, it counts among its people.
  if (acrossOwners && root !== ownLead.id)
    await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "echo" = ${true} WHERE "id" = ${root}`);
  const ids = members.map((m) => m.id);
  if (ids.length > 0) {
    // The queue counts move with them, from what they are (the lead, twins) to duplicate; this
    // transaction holds the write lock since its first statement, so nothing changed them since.
    const folded = Prisma.sql`p."id" IN (${Prisma.join(ids)})`;
    await addProposalCounts(tx, folded, -1);
    await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "status" = 'duplicate', "twinOfId" = ${decided.id},
        "decidedAt" = ${now} WHERE "id" IN (${Prisma.join(ids)}) AND "status" = 'pending'`);
    await addProposalCounts(tx, folded, 1);
  }
  if (!acrossOwners) await rerootEchoes(tx, [decided.id, ownLeadId]);
  return ids;
}

/** Other people's echoes of a group whose lead was decided by a user: the oldest leads them now. */
async function rerootEchoes(tx: TSql, decidedLeads: readonly string[]): Promise<void> {
  const echoes = await tx.query<{ id: string }>(
    Prisma.sql`SELECT "id" FROM "UmbraProposal" WHERE "twinOfId" IN (${Prisma.join([...new Set(decidedLeads)])})
      AND "echo" AND "status" = 'pending' ORDER BY "seq"`,
  );
  const [lead, ...rest] = echoes.map((e) => e.id);
  if (!lead) return;
  const led = Prisma.sql`p."id" = ${lead}`;
  await addProposalCounts(tx, led, -1);
  await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "twinOfId" = NULL, "echo" = ${false} WHERE "id" = ${lead}`);
  await addProposalCounts(tx, led, 1);
  if (rest.length > 0)
    await tx.execute(Prisma.sql`UPDATE "UmbraProposal" SET "twinOfId" = ${lead} WHERE "id" IN (${Prisma.join(rest)})`);
}
