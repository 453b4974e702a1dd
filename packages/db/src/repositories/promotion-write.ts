import { randomUUID } from "node:crypto";
import {
  cfbFieldChanges,
  cfbVersionConflict,
  DomainError,
  type TCfb,
  type TCfbDraft,
  type TCfbKind,
} from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { allocateIdBatch, idNumber } from "../ids";
import { asStringArray } from "../json";
import { dateOf, jsonOf, type TSql, type TSqlDriver } from "../sql";
import type { TAuditWrite } from "./audit";
import { insertResolveDecisions } from "./resolve";
import { insertTraceRun } from "./traces";
import type { TResolveDecisionWrite, TTraceEventInput } from "./types";

// A person's decision on a proposal, written through the hot-path driver: a promotion touches a
// dozen rows (proposal, CFB, revision, stats, promotion event, audit, resolve decision, trace),
// and as Prisma model queries that cost ~10 ms (docs/performance.md).

export type TPromotionWrite = {
  proposalId: string;
  action: "approve_create" | "approve_update" | "reject" | "edit_then_approve";
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

const json = (value: unknown) => JSON.stringify(value);

type TCfbRow = {
  id: string;
  domain: string;
  kind: string;
  confidence: number;
  title: string;
  summary: string;
  text: string | null;
  tags: unknown;
  entities: unknown;
  trustTier: string;
  ttlDays: number;
  reviewOnUse: number | boolean;
  sourceRefs: unknown;
  version: number;
  createdAt: unknown;
  updatedAt: unknown;
  lastAccessedAt: unknown;
  mergedIntoId: string | null;
};

function cfbOf(r: TCfbRow): TCfb {
  return {
    cfb_id: r.id,
    domain: r.domain,
    kind: r.kind as TCfbKind,
    confidence: Number(r.confidence),
    title: r.title,
    summary: r.summary,
    text: r.text,
    tags: asStringArray(jsonOf(r.tags), "Cfb.tags"),
    entities: asStringArray(jsonOf(r.entities), "Cfb.entities"),
    trust_tier: r.trustTier as TCfb["trust_tier"],
    staleness: { ttl_days: Number(r.ttlDays), review_on_use: Boolean(r.reviewOnUse) },
    source_refs: asStringArray(jsonOf(r.sourceRefs), "Cfb.sourceRefs"),
    version: Number(r.version),
    created_ts: dateOf(r.createdAt).toISOString(),
    updated_ts: dateOf(r.updatedAt).toISOString(),
    last_accessed_ts: r.lastAccessedAt ? dateOf(r.lastAccessedAt).toISOString() : null,
  };
}

async function readCfb(tx: TSql, cfbId: string): Promise<TCfbRow | null> {
  const [row] = await tx.query<TCfbRow>(Prisma.sql`SELECT * FROM "Cfb" WHERE "id" = ${cfbId}`);
  return row ?? null;
}

async function insertRevision(tx: TSql, cfb: TCfb, changeKind: string, promotionId: string, now: Date) {
  await tx.execute(Prisma.sql`INSERT INTO "CfbRevision" ("id", "cfbId", "version", "snapshot", "changeKind", "promotionEventId", "createdAt")
    VALUES (${randomUUID()}, ${cfb.cfb_id}, ${cfb.version}, ${json(cfb)}, ${changeKind}, ${promotionId}, ${now})`);
}

/** What changed in a CFB since `expectedVersion`: field names, for the CONFLICT message. */
async function changedSince(tx: TSql, cfbId: string, expectedVersion: number, current: TCfb): Promise<string[]> {
  const [base] = await tx.query<{ snapshot: unknown }>(
    Prisma.sql`SELECT "snapshot" FROM "CfbRevision" WHERE "cfbId" = ${cfbId} AND "version" = ${expectedVersion}`,
  );
  if (!base) return [];
  return cfbFieldChanges(jsonOf(base.snapshot) as Record<string, unknown>, current).map((c) => c.field);
}

/**
 * Rewrites a CFB from a promotion: version + 1 conditional on the reviewed version, a revision
 * linked to the promotion. A stale version is CONFLICT naming what changed; nothing is written
 * (the caller's transaction rolls back).
 */
async function rewriteCfb(
  tx: TSql,
  cfbId: string,
  expectedVersion: number,
  set: Prisma.Sql,
  changeKind: "update" | "merge",
  promotionId: string,
  now: Date,
): Promise<TCfb> {
  const moved = await tx.execute(Prisma.sql`UPDATE "Cfb" SET ${set}, "version" = "version" + 1, "updatedAt" = ${now}
    WHERE "id" = ${cfbId} AND "version" = ${expectedVersion} AND "mergedIntoId" IS NULL`);
  const row = await readCfb(tx, cfbId);
  if (!row) throw new DomainError("NOT_FOUND", `CFB ${cfbId} does not exist`, { field: "expected_cfb_version" });
  if (moved !== 1) {
    if (row.mergedIntoId) {
      throw new DomainError("CONFLICT", `CFB ${cfbId} was merged into ${row.mergedIntoId} meanwhile`, {
        field: "expected_cfb_version",
      });
    }
    throw cfbVersionConflict(
      cfbId,
      row.version,
      expectedVersion,
      await changedSince(tx, cfbId, expectedVersion, cfbOf(row)),
    );
  }
  const cfb = cfbOf(row);
  await insertRevision(tx, cfb, changeKind, promotionId, now);
  return cfb;
}

const draftColumns = (
  d: TCfbDraft,
) => Prisma.sql`"domain" = ${d.domain}, "kind" = ${d.kind}, "confidence" = ${d.confidence},
  "title" = ${d.title}, "summary" = ${d.summary}, "text" = ${d.text}, "tags" = ${json(d.tags)},
  "entities" = ${json(d.entities)}, "trustTier" = ${d.trust_tier}, "sourceRefs" = ${json(d.source_refs)}`;

/** A new CFB from a promotion: the row, revision v1 and an empty stats row. */
async function createCfb(tx: TSql, cfbId: string, d: TCfbDraft, promotionId: string, now: Date): Promise<TCfb> {
  await tx.execute(Prisma.sql`INSERT INTO "Cfb" ("id", "domain", "kind", "confidence", "title", "summary", "text", "tags",
      "entities", "trustTier", "sourceRefs", "version", "seq", "createdAt", "updatedAt")
    VALUES (${cfbId}, ${d.domain}, ${d.kind}, ${d.confidence}, ${d.title}, ${d.summary}, ${d.text}, ${json(d.tags)},
      ${json(d.entities)}, ${d.trust_tier}, ${json(d.source_refs)}, 1, ${idNumber(cfbId)}, ${now}, ${now})`);
  const row = await readCfb(tx, cfbId);
  if (!row) throw new Error(`CFB ${cfbId} was not written`);
  const cfb = cfbOf(row);
  await insertRevision(tx, cfb, "create", promotionId, now);
  await tx.execute(Prisma.sql`INSERT INTO "CfbStats" ("cfbId", "updatedAt") VALUES (${cfbId}, ${now})`);
  return cfb;
}

function auditStatement(a: TAuditWrite, now: Date): Prisma.Sql {
  return Prisma.sql`(${randomUUID()}, ${a.actorUserId}, ${a.actorEmail}, ${a.via}, ${a.action}, ${a.targetType},
    ${a.targetId}, ${json(a.details)}, ${now})`;
}

/**
 * Records a person's decision on a pending proposal, in one transaction. The status flip is
 * conditional on `pending` and comes first (a SQLite transaction that reads before it writes
 * cannot wait for another process's write lock), and PromotionEvent.proposalId is unique, so of
 * two concurrent decisions exactly one lands and the other gets CONFLICT with nothing written.
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
      const [current] = await tx.query<{ status: string }>(
        Prisma.sql`SELECT "status" FROM "UmbraProposal" WHERE "id" = ${w.proposalId}`,
      );
      if (!current)
        throw new DomainError("NOT_FOUND", `proposal ${w.proposalId} does not exist`, { field: "proposal_id" });
      throw new DomainError("CONFLICT", `proposal ${w.proposalId} was already ${current.status}`, {
        field: "proposal_id",
      });
    }
    const [proposal] = await tx.query<{
      responseId: string;
      threadId: string;
      transmissionId: string;
      packetId: string;
    }>(
      Prisma.sql`SELECT p."responseId" AS "responseId", p."threadId" AS "threadId", t."id" AS "transmissionId",
          t."packetId" AS "packetId"
        FROM "UmbraProposal" p JOIN "Response" r ON r."id" = p."responseId" JOIN "Transmission" t ON t."id" = r."transmissionId"
        WHERE p."id" = ${w.proposalId}`,
    );
    if (!proposal) throw new Error(`proposal ${w.proposalId} has no response`);
    const ids = await allocateIdBatch(tx, { promotion: 1, cfb: w.cfbDraft ? 1 : 0 });
    const promotionId = ids.promotion[0] as string;
    let cfb = w.cfbDraft ? await createCfb(tx, ids.cfb[0] as string, w.cfbDraft, promotionId, now) : null;
    const update = w.cfbUpdate ?? null;
    if (update) {
      const kind = update.mergedId ? "merge" : "update";
      cfb = await rewriteCfb(
        tx,
        update.cfbId,
        update.expectedVersion,
        draftColumns(update.draft),
        kind,
        promotionId,
        now,
      );
      if (update.mergedId) {
        // The merged CFB keeps its row and history and points to the survivor.
        const merged = await readCfb(tx, update.mergedId);
        if (!merged) throw new DomainError("NOT_FOUND", `CFB ${update.mergedId} does not exist`);
        await rewriteCfb(
          tx,
          merged.id,
          Number(merged.version),
          Prisma.sql`"mergedIntoId" = ${update.cfbId}`,
          "merge",
          promotionId,
          now,
        );
      }
    }
    const finalCfbId = cfb?.cfb_id ?? null;
    await tx.execute(Prisma.sql`INSERT INTO "PromotionEvent" ("id", "proposalId", "responseId", "packetId", "transmissionId",
        "action", "finalCfbId", "editor", "decidedById", "overrides", "createdAt")
      VALUES (${promotionId}, ${w.proposalId}, ${proposal.responseId}, ${proposal.packetId}, ${proposal.transmissionId},
        ${w.action}, ${finalCfbId}, ${w.editor}, ${w.audit.actorUserId}, ${w.overrides ? json(w.overrides) : null}, ${now})`);
    const audits = [
      auditStatement(
        {
          ...w.audit,
          action: `proposal.${w.action}`,
          targetType: "proposal",
          targetId: w.proposalId,
          details: { promotion_id: promotionId, final_cfb_id: finalCfbId, overrides: w.overrides },
        },
        now,
      ),
    ];
    if (cfb) {
      audits.push(
        auditStatement(
          {
            ...w.audit,
            action: update ? (update.mergedId ? "cfb.merge" : "cfb.update") : "cfb.create",
            targetType: "cfb",
            targetId: cfb.cfb_id,
            details: { proposal_id: w.proposalId },
          },
          now,
        ),
      );
    }
    await tx.execute(Prisma.sql`INSERT INTO "AuditEvent" ("id", "actorUserId", "actorEmail", "via", "action", "targetType",
        "targetId", "details", "createdAt") VALUES ${Prisma.join(audits)}`);
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
          summary: `Promotion ${promotionId}: ${w.action}${cfb ? ` wrote ${cfb.cfb_id}` : ""}`,
          metadata: { promotion_id: promotionId, proposal_id: w.proposalId, final_cfb_id: finalCfbId },
          at: now,
        },
      ],
    });
    return { promotionId, cfb, mergedCfbId: update?.mergedId ?? null };
  });
}
