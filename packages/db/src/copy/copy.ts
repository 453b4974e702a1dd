// `pnpm db:copy`: every row of one Solserver database into another, empty one, in one
// transaction on the target (scripts/copy.ts is the command; its help says what users see).
// Above all an existing SQLite file into a new PostgreSQL database, and back.
import { realpathSync } from "node:fs";
import { createPrismaClient, type DbClient, migrateDatabase, sqlDriverOf } from "../client";
import { databaseLabel, databaseUrlProblem, dialectFor } from "../dialect";
import { databaseName } from "../dialect/postgres/database-url";
import { databaseFilePath } from "../dialect/sqlite/database-file";
import { Prisma } from "../generated/prisma/client";
import type { TSql, TSqlBase } from "../sql";
import { copySupportFor, type TCopySupport, type TTableShape, tableShapes } from "./copy-support";
import { copyTables, modelTables, runtimeModels, type TCopyTable } from "./models";
import { copyOrder, type TCopyStep } from "./plan";
import { CopyRefusal } from "./refusal";
import { boundValue } from "./values";

export type TCopyOptions = {
  from: string;
  to: string;
  /** Progress, one line at a time (`Cfb: 1,234 rows (18/36 tables)`). */
  log?: (line: string) => void;
  /** Rows read from the source per statement (default 1,000). */
  batchRows?: number;
};

export type TCopyResult = {
  /** Rows copied per table, in the order they were copied (every count verified on both sides). */
  tables: { table: string; rows: number }[];
  rows: number;
  /** Migrations the target needed first. */
  migrationsApplied: number;
  ms: number;
};

const DEFAULT_BATCH_ROWS = 1000;

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const count = (n: number) => n.toLocaleString("en-US");
const rowsOf = (n: number) => `${count(n)} ${n === 1 ? "row" : "rows"}`;

/** Where a URL's database lives, so that two spellings of one database compare equal. */
function databaseIdentity(databaseUrl: string): string {
  if (dialectFor(databaseUrl).name === "sqlite") {
    const file = databaseFilePath(databaseUrl);
    try {
      return `file:${realpathSync(file)}`;
    } catch {
      return `file:${file}`;
    }
  }
  const url = new URL(databaseUrl);
  return `postgresql://${url.hostname.toLowerCase()}:${url.port || "5432"}/${databaseName(databaseUrl)}`;
}

/** Refuses URLs this build cannot open, and one database given twice. */
export function checkCopyUrls(from: string, to: string): void {
  for (const [option, url] of [
    ["--to", to],
    ["--from", from],
  ] as const) {
    const problem = databaseUrlProblem(url);
    if (problem) throw new CopyRefusal(`${option} ${problem}`, 2);
  }
  if (databaseIdentity(from) === databaseIdentity(to))
    throw new CopyRefusal(
      `--from and --to name the same database (${databaseLabel(to)}): copy into another database`,
      2,
    );
}

/**
 * The source must hold every table and column this build's models have, and no column it does
 * not know (a database migrated by another version of Solserver would lose it or fail).
 */
function checkSourceSchema(tables: readonly TCopyTable[], shapes: Map<string, TTableShape>): void {
  const migrate = "migrate it first (pnpm db:migrate with DATABASE_URL set to it)";
  for (const t of tables) {
    const shape = shapes.get(t.table);
    if (!shape)
      throw new CopyRefusal(`--from has no table "${t.table}": is it a Solserver database? If so, ${migrate}`, 2);
    const missing = t.columns.find((c) => !shape.columns.includes(c.name));
    if (missing) throw new CopyRefusal(`--from has no column "${t.table}"."${missing.name}": ${migrate}`, 2);
    const unknown = shape.columns.find((c) => !t.columns.some((m) => m.name === c));
    if (unknown)
      throw new CopyRefusal(
        `--from has a column this version of Solserver does not know ("${t.table}"."${unknown}"): copy with the version that migrated it`,
        2,
      );
    if (shape.primaryKey.length === 0) throw new Error(`"${t.table}" has no primary key to read it in order by`);
  }
}

async function rowCount(sql: TSqlBase, table: string): Promise<number> {
  const [row] = await sql.query<{ n: number }>(Prisma.sql`SELECT COUNT(*) AS "n" FROM ${Prisma.raw(ident(table))}`);
  return Number(row?.n ?? 0);
}

/** Refuses (exit 3) when any of `tables` holds a row: the copy never merges into live data. */
async function refuseRows(sql: TSqlBase, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const n = await rowCount(sql, table);
    if (n > 0)
      throw new CopyRefusal(
        `--to already holds data (table "${table}": ${rowsOf(n)}): db:copy copies only into an empty database, so it never merges into live data`,
        3,
      );
  }
}

/** A row's bound values, with the error naming table, column and key when one does not convert. */
function rowValues(step: TCopyStep, key: readonly string[], row: Record<string, unknown>, tx: TSql): unknown[] {
  return step.columns.map((c) => {
    if (step.selfReferences.includes(c.name)) return null;
    try {
      return boundValue(c.type, row[c.name], tx.dialect);
    } catch (error) {
      const at = key.map((k) => String(row[k])).join(", ");
      throw new Error(`"${step.table}"."${c.name}" of row (${at}): ${(error as Error).message}`);
    }
  });
}

/**
 * Copies one table: read in primary-key order, a batch at a time after the last key read (so
 * memory and time stay flat however large it is), written as multi-row INSERTs. Exported for tests.
 */
export async function copyTable(
  src: TSql,
  tx: TSql,
  step: TCopyStep,
  key: readonly string[],
  support: TCopySupport,
  batchRows: number,
): Promise<number> {
  const table = Prisma.raw(ident(step.table));
  const columns = Prisma.raw(step.columns.map((c) => ident(c.name)).join(", "));
  const keyList = Prisma.raw(key.map(ident).join(", "));
  const insertRows = Math.max(1, Math.min(batchRows, Math.floor(support.maxParameters / step.columns.length)));
  const selfReferenced: Record<string, unknown>[] = [];
  let after: unknown[] | null = null;
  let copied = 0;
  for (;;) {
    const where: Prisma.Sql = after ? Prisma.sql`WHERE (${keyList}) > (${Prisma.join(after)})` : Prisma.empty;
    const rows = await src.query<Record<string, unknown>>(
      Prisma.sql`SELECT ${columns} FROM ${table} ${where} ORDER BY ${keyList} LIMIT ${batchRows}`,
    );
    for (let i = 0; i < rows.length; i += insertRows) {
      const values = rows
        .slice(i, i + insertRows)
        .map((row) => Prisma.sql`(${Prisma.join(rowValues(step, key, row, tx))})`);
      await tx.execute(Prisma.sql`INSERT INTO ${table} (${columns}) VALUES ${Prisma.join(values)}`);
    }
    for (const row of rows) if (step.selfReferences.some((c) => row[c] !== null)) selfReferenced.push(row);
    copied += rows.length;
    const last = rows.at(-1);
    if (!last || rows.length < batchRows) break;
    after = key.map((k) => last[k]);
  }
  // Now that every row of the table is in, the references between them can be set.
  const assign = (column: string, row: Record<string, unknown>) => {
    const type = step.columns.find((c) => c.name === column)?.type ?? "String";
    return Prisma.sql`${Prisma.raw(ident(column))} = ${boundValue(type, row[column], tx.dialect)}`;
  };
  for (const row of selfReferenced) {
    const set = step.selfReferences.map((c) => assign(c, row));
    const match = key.map((k) => assign(k, row));
    await tx.execute(Prisma.sql`UPDATE ${table} SET ${Prisma.join(set)} WHERE ${Prisma.join(match, " AND ")}`);
  }
  return copied;
}

/**
 * Copies every row of `from` into `to`: refuses (CopyRefusal) bad URLs, one database twice, a
 * source that does not exist (never creating it) and a target that holds any row; migrates the
 * target; then copies every table in ONE transaction on the target, reading the source in one
 * transaction too (a consistent snapshot), and verifies each table's row count and the target's
 * search index before committing. An error anywhere rolls the copy back: the target then holds
 * no rows, only the schema its migrations made.
 */
export async function copyDatabase(options: TCopyOptions): Promise<TCopyResult> {
  const started = performance.now();
  const { from, to } = options;
  const log = options.log ?? (() => {});
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  checkCopyUrls(from, to);
  const fromSupport = copySupportFor(from);
  const toSupport = copySupportFor(to);
  if (!(await fromSupport.exists(from)))
    throw new CopyRefusal(
      `--from names a database that does not exist (${databaseLabel(from)}): give an existing one (db:copy never creates it)`,
      2,
    );

  log(`copying ${databaseLabel(from)} into ${databaseLabel(to)}`);
  const source = await createPrismaClient(from);
  let target: DbClient | undefined;
  try {
    const sourceSql = sqlDriverOf(source);
    const models = runtimeModels(source);
    const tables = copyTables(models);
    const sourceShapes = await tableShapes(fromSupport, sourceSql);
    checkSourceSchema(tables, sourceShapes);
    const guarded = modelTables(models);

    // A target that exists is looked at before migrating it: one holding rows is left untouched.
    if (await toSupport.exists(to)) {
      const existing = await createPrismaClient(to);
      try {
        const present = await tableShapes(toSupport, sqlDriverOf(existing));
        await refuseRows(
          sqlDriverOf(existing),
          guarded.filter((t) => present.has(t)),
        );
      } finally {
        await existing.$disconnect();
      }
    }
    const { applied } = await migrateDatabase(to);
    log(
      applied.length > 0
        ? `${databaseLabel(to)}: ${applied.length} migrations applied`
        : `${databaseLabel(to)}: schema up to date`,
    );

    target = await createPrismaClient(to);
    const targetSql = sqlDriverOf(target);
    const steps = copyOrder(tables, await toSupport.foreignKeys(targetSql));
    const textIndexHealth = dialectFor(to).textIndexHealth;

    const copied = await sourceSql.transaction((src) =>
      targetSql.transaction(async (tx) => {
        // Again inside the transaction: nothing may have been written since the look above.
        await refuseRows(tx, guarded);
        await toSupport.beforeCopy(tx);
        const done: { table: string; rows: number }[] = [];
        for (const [i, step] of steps.entries()) {
          const key = sourceShapes.get(step.table)?.primaryKey ?? [];
          const rows = await copyTable(src, tx, step, key, toSupport, batchRows);
          done.push({ table: step.table, rows });
          log(`${step.table}: ${rowsOf(rows)} (${i + 1}/${steps.length} tables)`);
        }
        await toSupport.afterCopy(tx);

        for (const { table, rows } of done) {
          const [inSource, inTarget] = [await rowCount(src, table), await rowCount(tx, table)];
          if (inSource !== rows || inTarget !== rows)
            throw new Error(
              `"${table}": ${count(inSource)} rows in --from, ${count(rows)} copied, ${count(inTarget)} in --to`,
            );
        }
        const health = await textIndexHealth(tx);
        if (!health.ok)
          throw new Error(
            `the target's search index disagrees with its CFBs (${count(health.cfbs)} CFBs, ${count(health.indexed)} indexed)`,
          );
        log(
          `verified: the row counts of all ${steps.length} tables match; the search index holds all ${count(health.cfbs)} CFBs`,
        );
        return done;
      }),
    );
    // A bulk copy leaves the planner no statistics of what it wrote until autovacuum gets to it.
    await dialectFor(to).analyze(targetSql);
    return {
      tables: copied,
      rows: copied.reduce((sum, t) => sum + t.rows, 0),
      migrationsApplied: applied.length,
      ms: performance.now() - started,
    };
  } finally {
    await source.$disconnect();
    await target?.$disconnect();
  }
}
