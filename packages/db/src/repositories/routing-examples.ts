// Messages people filed under a domain (RoutingExample, issue 34): the router learns them beside
// the routing config's examples. Adding and removing are audited in the same transaction; a
// process knows it must retrain when `version()` changes.

import { Prisma } from "../generated/prisma/client";
import { allocateIds } from "../ids";
import { dateOf, type TSql } from "../sql";
import { insertAudit, type TAuditWrite } from "./audit";
import type { TStore } from "./store";

export type TRoutingExampleSource = "proposal_domain" | "suggestion" | "manual";
export type TRoutingExampleRow = {
  id: string;
  domain: string;
  text: string;
  source: TRoutingExampleSource;
  sourceRef: string | null;
  createdById: string | null;
  createdAt: string;
};
type TAudit = Omit<TAuditWrite, "targetId" | "targetType" | "details">;

const COLUMNS = Prisma.sql`"id", "domain", "text", "source", "sourceRef", "createdById", "createdAt"`;

function toRow(r: Omit<TRoutingExampleRow, "createdAt"> & { createdAt: unknown }): TRoutingExampleRow {
  return { ...r, createdAt: dateOf(r.createdAt).toISOString() };
}

export function routingExampleRepository({ sql }: TStore) {
  return {
    /** Every learned example, oldest first (the order the router learns them in). */
    async list(): Promise<TRoutingExampleRow[]> {
      const rows = await sql.query<Omit<TRoutingExampleRow, "createdAt"> & { createdAt: unknown }>(
        Prisma.sql`SELECT ${COLUMNS} FROM "RoutingExample" ORDER BY "createdAt", "id"`,
      );
      return rows.map(toRow);
    },
    /** Changes whenever an example is added or removed: how many there are, and the newest id. */
    async version(): Promise<string> {
      const [row] = await sql.query<{ n: unknown; newest: string | null }>(
        Prisma.sql`SELECT COUNT(*) AS "n", MAX("id") AS "newest" FROM "RoutingExample"`,
      );
      return `${Number(row?.n ?? 0)}:${row?.newest ?? ""}`;
    },
    /**
     * Files `text` under `domain`, audited, and returns it as stored; the same text already filed
     * there is not added twice (that example is returned), and the same text filed under another
     * domain is replaced.
     */
    async add(
      example: Pick<TRoutingExampleRow, "domain" | "text" | "source" | "sourceRef" | "createdById">,
      audit: TAudit,
      now: Date,
    ): Promise<TRoutingExampleRow> {
      return sql.transaction(async (tx: TSql) => {
        const [same] = await tx.query<Omit<TRoutingExampleRow, "createdAt"> & { createdAt: unknown }>(
          Prisma.sql`SELECT ${COLUMNS} FROM "RoutingExample" WHERE "domain" = ${example.domain} AND "text" = ${example.text}`,
        );
        if (same) return toRow(same);
        // Filed again under another domain: the later correction wins, the earlier one goes.
        const moved = await tx.query<{ id: string; domain: string }>(
          Prisma.sql`SELECT "id", "domain" FROM "RoutingExample" WHERE "text" = ${example.text}`,
        );
        if (moved.length > 0) await tx.execute(Prisma.sql`DELETE FROM "RoutingExample" WHERE "text" = ${example.text}`);
        const [id] = (await allocateIds(tx, { routingExample: 1 })).routingExample as [string];
        await tx.execute(Prisma.sql`INSERT INTO "RoutingExample" (${COLUMNS})
          VALUES (${id}, ${example.domain}, ${example.text}, ${example.source}, ${example.sourceRef},
            ${example.createdById}, ${now})`);
        await insertAudit(
          tx,
          [
            {
              ...audit,
              targetType: "routing_example",
              targetId: id,
              details: { ...example, replaced: moved.map((m) => ({ id: m.id, domain: m.domain })) },
            },
          ],
          now,
        );
        return { id, ...example, createdAt: now.toISOString() };
      });
    },
    /** Removes example `id`, audited with its text; false when there is none. */
    async remove(id: string, audit: TAudit, now: Date): Promise<boolean> {
      return sql.transaction(async (tx: TSql) => {
        const [row] = await tx.query<{ domain: string; text: string }>(
          Prisma.sql`SELECT "domain", "text" FROM "RoutingExample" WHERE "id" = ${id}`,
        );
        if (!row) return false;
        await tx.execute(Prisma.sql`DELETE FROM "RoutingExample" WHERE "id" = ${id}`);
        await insertAudit(
          tx,
          [{ ...audit, targetType: "routing_example", targetId: id, details: { domain: row.domain, text: row.text } }],
          now,
        );
        return true;
      });
    },
  };
}
