// Messages people filed under a domain (RoutingExample, issue 34): the router learns them beside
// the routing config's examples. Adding and removing are audited in the same transaction; a
// process knows it must retrain when `version()` changes.

import { allocateIds } from "../ids";
import { dateOf, type TSql } from "../sql";
import { rows, run, type TDatabase, typed } from "../typed-sql";
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

const COLUMNS = ["id", "domain", "text", "source", "sourceRef", "createdById", "createdAt"] as const;

function toRow(r: TDatabase["RoutingExample"]): TRoutingExampleRow {
  // (`source` holds what `add` stored: a TRoutingExampleSource)
  return { ...r, source: r.source as TRoutingExampleSource, createdAt: dateOf(r.createdAt).toISOString() };
}

export function routingExampleRepository({ sql }: TStore) {
  return {
    /** Every learned example, oldest first (the order the router learns them in). */
    async list(): Promise<TRoutingExampleRow[]> {
      const examples = await rows(
        sql,
        typed.selectFrom("RoutingExample").select(COLUMNS).orderBy("createdAt").orderBy("id"),
      );
      return examples.map(toRow);
    },
    /** Changes whenever an example is added or removed: how many there are, and the newest id. */
    async version(): Promise<string> {
      const [row] = await rows(
        sql,
        typed.selectFrom("RoutingExample").select((eb) => [eb.fn.countAll().as("n"), eb.fn.max("id").as("newest")]),
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
        const [same] = await rows(
          tx,
          typed
            .selectFrom("RoutingExample")
            .select(COLUMNS)
            .where("domain", "=", example.domain)
            .where("text", "=", example.text),
        );
        if (same) return toRow(same);
        // Filed again under another domain: the later correction wins, the earlier one goes.
        const moved = await rows(
          tx,
          typed.selectFrom("RoutingExample").select(["id", "domain"]).where("text", "=", example.text),
        );
        if (moved.length > 0) await run(tx, typed.deleteFrom("RoutingExample").where("text", "=", example.text));
        const [id] = (await allocateIds(tx, { routingExample: 1 })).routingExample as [string];
        const { domain, text, source, sourceRef, createdById } = example;
        await run(
          tx,
          typed
            .insertInto("RoutingExample")
            .values({ id, domain, text, source, sourceRef, createdById, createdAt: now }),
        );
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
        const [row] = await rows(
          tx,
          typed.selectFrom("RoutingExample").select(["domain", "text"]).where("id", "=", id),
        );
        if (!row) return false;
        await run(tx, typed.deleteFrom("RoutingExample").where("id", "=", id));
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
