// The order tables are copied in: every table after the tables its foreign keys reference, so
// each row's parents are in the target before it (PostgreSQL checks every row as it goes in;
// Prisma's foreign keys are not deferrable). A column that references its own table cannot be
// ordered that way: it is written NULL with its row, and set once the whole table is in.
import type { TForeignKey } from "./copy-support";
import type { TCopyTable } from "./models";

export type TCopyStep = TCopyTable & {
  /** The columns referencing this table itself: inserted NULL, set after the table's rows. */
  selfReferences: string[];
};

/**
 * `tables` in an order that satisfies `foreignKeys` (the target's), the schema's order among
 * tables that could go either way. Foreign keys to tables that are not copied are ignored. Throws,
 * naming the tables, when references go round in a circle (none in the schema; the copy could not
 * order them).
 */
export function copyOrder(tables: readonly TCopyTable[], foreignKeys: readonly TForeignKey[]): TCopyStep[] {
  const byTable = new Map(tables.map((t) => [t.table, t]));
  const parents = new Map(tables.map((t) => [t.table, new Set<string>()]));
  const selfReferences = new Map(tables.map((t) => [t.table, [] as string[]]));
  for (const fk of foreignKeys) {
    if (!byTable.has(fk.table) || !byTable.has(fk.references)) continue;
    if (fk.table === fk.references) {
      const own = selfReferences.get(fk.table) as string[];
      if (!own.includes(fk.column)) own.push(fk.column);
    } else parents.get(fk.table)?.add(fk.references);
  }
  const done = new Set<string>();
  const order: TCopyStep[] = [];
  while (order.length < tables.length) {
    // The first table in schema order whose parents are all in: a stable, readable order.
    const next = tables.find((t) => !done.has(t.table) && [...(parents.get(t.table) ?? [])].every((p) => done.has(p)));
    if (!next) {
      const left = tables.filter((t) => !done.has(t.table)).map((t) => t.table);
      throw new Error(
        `the foreign keys of ${left.join(", ")} reference each other in a circle: db:copy cannot order them`,
      );
    }
    done.add(next.table);
    order.push({ ...next, selfReferences: selfReferences.get(next.table) ?? [] });
  }
  return order;
}
