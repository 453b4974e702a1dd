import { randomUUID } from "node:crypto";
import type { TCfb, TCfbDraft } from "@solserver/contracts";
import { Prisma } from "../generated/prisma/client";
import { allocateIdBatch, idNumber } from "../ids";
import type { TSqlDriver } from "../sql";

// Rows per INSERT: 14 parameters a CFB, well under SQLite's bound-parameter limit.
const CHUNK = 500;

/**
 * Imports many CFBs at once (a knowledge base brought in from elsewhere, the resolve benchmarks):
 * the same rows `createCfb` writes (the CFB, revision v1, an empty stats row), in one transaction
 * with multi-row INSERTs, so 100,000 CFBs take seconds rather than minutes. Returns the ids in
 * draft order.
 */
export async function importCfbs(driver: TSqlDriver, drafts: readonly TCfbDraft[]): Promise<string[]> {
  if (drafts.length === 0) return [];
  return driver.transaction(async (tx) => {
    const ids = (await allocateIdBatch(tx, { cfb: drafts.length })).cfb;
    const now = new Date();
    const json = (value: unknown) => JSON.stringify(value);
    for (let start = 0; start < drafts.length; start += CHUNK) {
      const chunk = drafts.slice(start, start + CHUNK).map((d, i) => ({ d, id: ids[start + i] as string }));
      await tx.execute(Prisma.sql`INSERT INTO "Cfb" ("id", "domain", "kind", "confidence", "title", "summary", "text",
          "tags", "entities", "trustTier", "sourceRefs", "version", "seq", "createdAt", "updatedAt")
        VALUES ${Prisma.join(
          chunk.map(
            ({
              d,
              id,
            }) => Prisma.sql`(${id}, ${d.domain}, ${d.kind}, ${d.confidence}, ${d.title}, ${d.summary}, ${d.text},
              ${json(d.tags)}, ${json(d.entities)}, ${d.trust_tier}, ${json(d.source_refs)}, 1, ${idNumber(id)},
              ${now}, ${now})`,
          ),
        )}`);
      await tx.execute(Prisma.sql`INSERT INTO "CfbRevision" ("id", "cfbId", "version", "snapshot", "changeKind", "createdAt")
        VALUES ${Prisma.join(
          chunk.map(({ d, id }) => {
            const snapshot: TCfb = {
              cfb_id: id,
              domain: d.domain,
              kind: d.kind,
              confidence: d.confidence,
              title: d.title,
              summary: d.summary,
              text: d.text,
              tags: d.tags,
              entities: d.entities,
              trust_tier: d.trust_tier,
              staleness: { ttl_days: 180, review_on_use: true },
              source_refs: d.source_refs,
              version: 1,
              created_ts: now.toISOString(),
              updated_ts: now.toISOString(),
              last_accessed_ts: null,
            };
            return Prisma.sql`(${randomUUID()}, ${id}, 1, ${json(snapshot)}, 'create', ${now})`;
          }),
        )}`);
      await tx.execute(Prisma.sql`INSERT INTO "CfbStats" ("cfbId", "updatedAt")
        VALUES ${Prisma.join(chunk.map(({ id }) => Prisma.sql`(${id}, ${now})`))}`);
    }
    return ids;
  });
}
