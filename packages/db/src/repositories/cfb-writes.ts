import { randomUUID } from "node:crypto";
import { cfbFieldChanges, cfbVersionConflict, DomainError, type TCfb, type TCfbDraft } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { allocateId, idNumber } from "../ids";
import { asObject } from "../json";
import { toCfb } from "../mappers";
import { type TAuditWrite, writeAudit } from "./audit";

type Tx = Prisma.TransactionClient;

/** A draft's fields as Cfb columns, shared by create and edit. */
function cfbColumns(d: TCfbDraft) {
  return {
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
  };
}

/**
 * Writes a new CFB with its first revision and an empty stats row, inside the caller's
 * transaction: a CFB never exists without its history.
 */
async function insertCfb(tx: Tx, d: TCfbDraft, promotionId: string | null): Promise<TCfb> {
  const cfbId = await allocateId(tx, "cfb");
  const row = await tx.cfb.create({
    data: { id: cfbId, seq: idNumber(cfbId), ...cfbColumns(d) },
  });
  const cfb = toCfb(row);
  await tx.cfbRevision.create({
    data: { id: randomUUID(), cfbId, version: 1, snapshot: cfb, changeKind: "create", promotionEventId: promotionId },
  });
  await tx.cfbStats.create({ data: { cfbId } });
  return cfb;
}

type TAuditActor = Omit<TAuditWrite, "targetType" | "targetId" | "details" | "action">;

/** A CFB authored directly (a Jam editor, demo data), not through a proposal. */
export async function createCfb(db: DbClient, draft: TCfbDraft, audit?: TAuditActor): Promise<TCfb> {
  return db.$transaction(async (tx) => {
    const cfb = await insertCfb(tx, draft, null);
    if (audit)
      await writeAudit(tx, { ...audit, action: "cfb.create", targetType: "cfb", targetId: cfb.cfb_id, details: {} });
    return cfb;
  });
}

/**
 * Edits a CFB in place: version + 1, a revision with the new state, an audit event. The write is
 * conditional on `expectedVersion`, so an edit based on a stale read is CONFLICT, not a lost update.
 */
export async function updateCfb(
  db: DbClient,
  cfbId: string,
  expectedVersion: number,
  d: TCfbDraft,
  audit: TAuditActor,
): Promise<TCfb> {
  return db.$transaction(async (tx) => {
    const moved = await tx.cfb.updateMany({
      where: { id: cfbId, version: expectedVersion },
      data: { ...cfbColumns(d), version: { increment: 1 } },
    });
    const row = await tx.cfb.findUnique({ where: { id: cfbId } });
    if (!row) throw new DomainError("NOT_FOUND", `CFB ${cfbId} does not exist`, { field: "cfb_id" });
    if (moved.count !== 1) {
      const base = await tx.cfbRevision.findUnique({ where: { cfbId_version: { cfbId, version: expectedVersion } } });
      const changed = base ? cfbFieldChanges(asObject(base.snapshot, "CfbRevision.snapshot"), toCfb(row)) : [];
      throw cfbVersionConflict(
        cfbId,
        row.version,
        expectedVersion,
        changed.map((c) => c.field),
        "version",
      );
    }
    const cfb = toCfb(row);
    await tx.cfbRevision.create({
      data: {
        id: randomUUID(),
        cfbId,
        version: cfb.version,
        snapshot: cfb,
        changeKind: "edit",
        promotionEventId: null,
      },
    });
    await writeAudit(tx, {
      ...audit,
      action: "cfb.update",
      targetType: "cfb",
      targetId: cfbId,
      details: { version: cfb.version },
    });
    return cfb;
  });
}

export async function countCfbs(db: DbClient): Promise<number> {
  return db.cfb.count();
}
