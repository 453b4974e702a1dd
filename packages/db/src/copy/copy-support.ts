// What `db:copy` needs from each database product that portable SQL cannot say: its catalog
// (tables, columns, primary and foreign keys), whether a database exists without creating it,
// and what a bulk insert must do before and after (SQLite defers foreign keys; PostgreSQL moves
// its sequences past the copied ids). One implementation per dialect, beside the dialect
// (dialect/sqlite/copy-support.ts, dialect/postgres/copy-support.ts).
import { dialectFor } from "../dialect";
import type { TSqlBase } from "../sql";

/** One column of a table in the catalog; `pk`: its place in the primary key (1, 2 …), 0 when not in it. */
export type TCatalogColumn = { table: string; column: string; pk: number };

/** A table as the database's catalog describes it: columns in order, primary key in key order. */
export type TTableShape = { columns: string[]; primaryKey: string[] };

/** One column of a foreign key: `table.column` references a row of `references`. */
export type TForeignKey = { table: string; column: string; references: string };

export type TCopySupport = {
  /** Most bound parameters one statement may carry. */
  readonly maxParameters: number;
  /** Whether the database of `databaseUrl` exists; never creates it. */
  exists(databaseUrl: string): Promise<boolean>;
  /** Every column of every table of the database's own schema, the columns of a table in order. */
  columns(sql: TSqlBase): Promise<TCatalogColumn[]>;
  /** Every foreign key of the database's own schema, one entry per column. */
  foreignKeys(sql: TSqlBase): Promise<TForeignKey[]>;
  /** Before the first row goes into the target, in the copy's transaction. */
  beforeCopy(tx: TSqlBase): Promise<void>;
  /** After the last row, in the copy's transaction: sequences past the copied ids. */
  afterCopy(tx: TSqlBase): Promise<void>;
};

/** The copy support of the database product of `databaseUrl`. */
export function copySupportFor(databaseUrl: string): TCopySupport {
  return dialectFor(databaseUrl).copySupport;
}

/** The tables of a database, by name, from its catalog's columns. */
export async function tableShapes(support: TCopySupport, sql: TSqlBase): Promise<Map<string, TTableShape>> {
  const keyed = new Map<string, { columns: string[]; key: [string, number][] }>();
  for (const { table, column, pk } of await support.columns(sql)) {
    let shape = keyed.get(table);
    if (!shape) {
      shape = { columns: [], key: [] };
      keyed.set(table, shape);
    }
    shape.columns.push(column);
    if (Number(pk) > 0) shape.key.push([column, Number(pk)]);
  }
  // A key's order is its own (@@id([cfbId, model])), not the columns' order.
  return new Map(
    [...keyed].map(([table, s]) => [
      table,
      { columns: s.columns, primaryKey: s.key.sort((a, b) => a[1] - b[1]).map(([c]) => c) },
    ]),
  );
}
