import { randomUUID } from "node:crypto";
import type { TCfb, TCfbDraft } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { Prisma } from "../generated/prisma/client";
import { allocateId } from "../ids";
import { toCfb } from "../mappers";

type Tx = Prisma.TransactionClient;

/**
 * Writes a new CFB with its first revision and an empty stats row, inside the caller's
 * transaction: a CFB never exists without its history.
 */
export async function insertCfb(tx: Tx, d: TCfbDraft, promotionId: string | null): Promise<TCfb> {
  const cfbId = await allocateId(tx, "cfb");
  const row = await tx.cfb.create({
    data: {
      id: cfbId,
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
  });
  const cfb = toCfb(row);
  await tx.cfbRevision.create({
    data: { id: randomUUID(), cfbId, version: 1, snapshot: cfb, changeKind: "create", promotionEventId: promotionId },
  });
  await tx.cfbStats.create({ data: { cfbId } });
  return cfb;
}

/** A CFB authored directly (demo data, imports), not through a proposal. */
export async function createCfb(db: DbClient, draft: TCfbDraft): Promise<TCfb> {
  return db.$transaction((tx) => insertCfb(tx, draft, null));
}

export async function countCfbs(db: DbClient): Promise<number> {
  return db.cfb.count();
}
