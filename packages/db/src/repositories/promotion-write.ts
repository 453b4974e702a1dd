import { DomainError, proposalDecidedConflict, type TCfb, type TCfbDraft } from "@solserver/contracts";
import { expressionBuilder, sql as kyselySql, type SqlBool } from "kysely";
import { Prisma } from "../generated/prisma/client";
import { allocateIds } from "../ids";
import type { TSql, TSqlDriver } from "../sql";
import { fragment, rows, run, type TDatabase, typed } from "../typed-sql";
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

/** 'pending' as a literal, as these statements always wrote it: the planner sees the value. */
const PENDING = kyselySql.lit("pending");

/** The proposal is an echo: the flag tested bare, which both take (a boolean; 0 / 1 on SQLite). */
const IS_ECHO = expressionBuilder<TDatabase, "UmbraProposal">().ref("echo").$castTo<SqlBool>();

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
    const flipped = await run(
      tx,
      typed
        .updateTable("UmbraProposal")
        .set((eb) => ({ status, decidedAt: now, latestDecision: eb.fn.coalesce(eb.val(decision), "latestDecision") }))
        .where("id", "=", w.proposalId)
        .where("status", "=", PENDING),
    );
    if (flipped !== 1) {
      const [current] = await proposalsByIds(tx, [w.proposalId]);
      if (!current)
        throw new DomainError("NOT_FOUND", `proposal ${w.proposalId} does not exist`, { field: "proposal_id" });
      throw proposalDecidedConflict({ ...current, final_cfb_id: current.promotion?.final_cfb_id ?? null });
    }
    const proposal = await decidedProposal(tx, w.proposalId);
    // The queue counts: off its pending kind (a lead or a twin; the flip left its link), onto its
    // decision. Before the fold, which unlinks it from its lead. (addProposalCounts takes its
    // condition as a Prisma.Sql over `p`.)
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
    await insertPromotionEvent(tx, w, { id: promotionId, finalCfbId, now }, proposal);
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

/** The decided proposal's response, thread, transmission and packet, and its link to a group. */
async function decidedProposal(tx: TSql, proposalId: string) {
  const [proposal] = await rows(
    tx,
    typed
      .selectFrom("UmbraProposal as p")
      .innerJoin("Response as r", "r.id", "p.responseId")
      .innerJoin("Transmission as t", "t.id", "r.transmissionId")
      .select(["p.responseId", "p.threadId", "t.id as transmissionId", "t.packetId", "p.twinOfId", "p.echo"])
      .where("p.id", "=", proposalId),
  );
  if (!proposal) throw new Error(`proposal ${proposalId} has no response`);
  return proposal;
}

/** The decision's PromotionEvent, its round the proposal's earlier decisions (all of them reopened). */
function insertPromotionEvent(
  tx: TSql,
  w: TPromotionWrite,
  event: { id: string; finalCfbId: string | null; now: Date },
  source: { responseId: string; packetId: string; transmissionId: string },
): Promise<number> {
  return run(
    tx,
    typed.insertInto("PromotionEvent").values((eb) => ({
      id: event.id,
      proposalId: w.proposalId,
      responseId: source.responseId,
      packetId: source.packetId,
      transmissionId: source.transmissionId,
      action: w.action,
      finalCfbId: event.finalCfbId,
      editor: w.editor,
      decidedById: w.audit.actorUserId,
      // A Json value as the dialect binds it: its fragment.
      overrides: w.overrides ? fragment(tx.dialect.json(w.overrides)) : null,
      reason: w.reason ?? null,
      createdAt: event.now,
      round: eb
        .selectFrom("PromotionEvent")
        .select((sub) => sub.fn.countAll<number>().as("n"))
        .where("proposalId", "=", w.proposalId),
    })),
  );
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
          await rows(
            tx,
            typed.selectFrom("UmbraProposal").select(["id", "twinOfId", "echo"]).where("id", "=", ownLeadId),
          )
        ).map((r) => ({ ...r, echo: Boolean(r.echo) }))[0] ?? decided);
  const root = ownLead.echo && ownLead.twinOfId ? ownLead.twinOfId : ownLead.id;
  const members = await rows(
    tx,
    typed
      .selectFrom("UmbraProposal")
      .select("id")
      .where("status", "=", PENDING)
      .where("id", "<>", decided.id)
      .where((eb) =>
        acrossOwners
          ? // The decided one's own twins too: decided (no longer pending), it is not among the echoes.
            eb.or([
              eb("id", "=", root),
              eb("twinOfId", "in", [root, decided.id]),
              eb(
                "twinOfId",
                "in",
                eb
                  .selectFrom("UmbraProposal")
                  .select("id")
                  .where("twinOfId", "=", root)
                  .where(IS_ECHO)
                  .where("status", "=", PENDING),
              ),
            ])
          : eb.or([eb("id", "=", ownLeadId), eb.and([eb("twinOfId", "=", ownLeadId), eb.not(IS_ECHO)])]),
      )
      .orderBy("seq"),
  );
  // Decided, it leads nothing any more: the twins point to it, not it to its old lead.
  if (decided.twinOfId) await unlead(tx, decided.id);
  // Decided from another person's side of the group, the group's old lead is that other
  // person's proposal now folded under it: flagged as an echo, it counts among its people.
  if (acrossOwners && root !== ownLead.id)
    await run(tx, typed.updateTable("UmbraProposal").set({ echo: true }).where("id", "=", root));
  const ids = members.map((m) => m.id);
  if (ids.length > 0) {
    // The queue counts move with them, from what they are (the lead, twins) to duplicate; this
    // transaction holds the write lock since its first statement, so nothing changed them since.
    // (addProposalCounts takes its condition as a Prisma.Sql over `p`.)
    const folded = Prisma.sql`p."id" IN (${Prisma.join(ids)})`;
    await addProposalCounts(tx, folded, -1);
    await run(
      tx,
      typed
        .updateTable("UmbraProposal")
        .set({ status: kyselySql.lit("duplicate"), twinOfId: decided.id, decidedAt: now })
        .where("id", "in", ids)
        .where("status", "=", PENDING),
    );
    await addProposalCounts(tx, folded, 1);
  }
  if (!acrossOwners) await rerootEchoes(tx, [decided.id, ownLeadId]);
  return ids;
}

/** Other people's echoes of a group whose lead was decided by a user: the oldest leads them now. */
async function rerootEchoes(tx: TSql, decidedLeads: readonly string[]): Promise<void> {
  const echoes = await rows(
    tx,
    typed
      .selectFrom("UmbraProposal")
      .select("id")
      .where("twinOfId", "in", [...new Set(decidedLeads)])
      .where(IS_ECHO)
      .where("status", "=", PENDING)
      .orderBy("seq"),
  );
  const [lead, ...rest] = echoes.map((e) => e.id);
  if (!lead) return;
  // (addProposalCounts takes its condition as a Prisma.Sql over `p`.)
  const led = Prisma.sql`p."id" = ${lead}`;
  await addProposalCounts(tx, led, -1);
  await unlead(tx, lead);
  await addProposalCounts(tx, led, 1);
  if (rest.length > 0)
    await run(tx, typed.updateTable("UmbraProposal").set({ twinOfId: lead }).where("id", "in", rest));
}

/** Proposal `id` is a lead now: linked to no other, so no echo either. */
function unlead(tx: TSql, id: string): Promise<number> {
  return run(
    tx,
    typed
      .updateTable("UmbraProposal")
      .set((eb) => ({ twinOfId: eb.lit(null), echo: false }))
      .where("id", "=", id),
  );
}
