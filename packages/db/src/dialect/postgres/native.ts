import { createHash } from "node:crypto";
import pg from "pg";
import type { Prisma } from "../../generated/prisma/client";
import type { TIsolation, TSqlBase } from "../../sql";

// The pg connection (pool, or a transaction's pooled client) under Prisma's PostgreSQL adapter,
// used directly for the hot path: statements prepared once per connection (pg's named
// statements), and rows that read the same as SQLite's, so the repositories and mappers see one
// shape: counts and sums as numbers (PostgreSQL's bigint and numeric arrive as text), timestamps
// as the canonical ISO text (docs: packages/db/README.md, Timestamps), Json as its text.

type TPgResult = { rows: Record<string, unknown>[]; rowCount: number | null };
type TPgQueryConfig = {
  name?: string;
  text: string;
  values: unknown[];
  types: { getTypeParser: (oid: number, format?: string) => (value: string) => unknown };
};
type TPgQueryable = { query(config: TPgQueryConfig | string): Promise<TPgResult> };
type TPgPool = TPgQueryable & { connect(): Promise<TPgQueryable & { release(error?: Error | boolean): void }> };

const OID = { int8: 20, numeric: 1700, timestamptz: 1184, timestamp: 1114, json: 114, jsonb: 3802 } as const;

/** '2026-11-27 05:00:00.12+00' (any offset) as '2026-11-27T05:00:00.120+00:00'. */
export function canonicalTimestamp(text: string): string {
  return new Date(text.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00")).toISOString().replace("Z", "+00:00");
}

const asText = (value: string) => value;
const parsers: Record<number, (value: string) => unknown> = {
  [OID.int8]: Number,
  [OID.numeric]: Number,
  [OID.timestamptz]: canonicalTimestamp,
  [OID.timestamp]: (value) => canonicalTimestamp(`${value}+00`),
  [OID.json]: asText,
  [OID.jsonb]: asText,
};

const types = {
  getTypeParser: (oid: number, format?: string) =>
    parsers[oid] ?? (pg.types.getTypeParser(oid, (format ?? "text") as "text") as (value: string) => unknown),
};

/** Values as the adapter binds them: dates as ISO text (PostgreSQL reads the offset). */
function nativeArg(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return value;
}

// Named (prepared) statements live in each server connection until it closes; the hot path is a
// fixed set of statements, but a few carry variable-length IN lists. Name the first few hundred
// distinct texts and send the rest unnamed, so a long-lived connection never grows without bound.
const NAMED_LIMIT = 400;
const names = new Map<string, string>();
function statementName(text: string): string | undefined {
  const known = names.get(text);
  if (known) return known;
  if (names.size >= NAMED_LIMIT) return undefined;
  const name = `s_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
  names.set(text, name);
  return name;
}

function pgQueryable(queryable: unknown): TPgQueryable | null {
  const client = (queryable as { client?: Partial<TPgQueryable> }).client;
  return client && typeof client.query === "function" ? (client as TPgQueryable) : null;
}

/**
 * The type a bound value has in SQL. node-postgres sends every parameter untyped and PostgreSQL
 * infers a type from where it stands, which fails where nothing says (`CASE … THEN $1 ELSE $2`
 * on a timestamp, `$1 + $2`, `$1 IS NULL`): dates, numbers, booleans and bytes say what they are.
 * Strings stay untyped, so ISO text compared with a timestamptz column still reads as one.
 */
function castOf(value: unknown): string {
  if (value instanceof Date) return "::timestamptz";
  if (typeof value === "number") return Number.isInteger(value) ? "::int8" : "::float8";
  if (typeof value === "bigint") return "::int8";
  if (typeof value === "boolean") return "::boolean";
  if (value instanceof Uint8Array) return "::bytea";
  return "";
}

/** The statement with numbered, typed placeholders ($1::timestamptz …). */
export function postgresText(statement: Prisma.Sql): string {
  const { strings, values } = statement;
  let text = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) text += `$${i + 1}${castOf(values[i])}${strings[i + 1] ?? ""}`;
  return text;
}

/**
 * Statements on `client`. `serial`: one connection (a transaction's), where statements must go one
 * after another (a `Promise.all` in a transaction would otherwise queue them inside pg, which pg 9
 * refuses); the pool runs concurrent statements on separate connections.
 */
function bindNative(client: TPgQueryable, serial = false): TSqlBase {
  let last: Promise<unknown> = Promise.resolve();
  const send = (statement: Prisma.Sql) => {
    const text = postgresText(statement);
    return client.query({
      name: statementName(text),
      text,
      values: statement.values.map(nativeArg),
      types,
    });
  };
  const run = (statement: Prisma.Sql): Promise<TPgResult> => {
    if (!serial) return send(statement);
    const next = last.then(
      () => send(statement),
      () => send(statement),
    );
    last = next.catch(() => {});
    return next;
  };
  return {
    async query<T>(statement: Prisma.Sql): Promise<T[]> {
      return (await run(statement)).rows as T[];
    },
    async execute(statement) {
      return (await run(statement)).rowCount ?? 0;
    },
  };
}

/** Statements on a pg pool of one's own (autocommit, each on whichever connection is free). */
export function poolBinding(pool: TPgQueryable): TSqlBase {
  return bindNative(pool);
}

/** Statements on the pg pool or client under Prisma's adapter, or null when there is none. */
export function nativeBinding(queryable: unknown): TSqlBase | null {
  const client = pgQueryable(queryable);
  return client ? bindNative(client) : null;
}

/**
 * Runs `work` in one transaction on a connection of the pool under Prisma's adapter: `BEGIN
 * ISOLATION LEVEL …` in one round trip (the adapter's startTransaction sends BEGIN and SET
 * TRANSACTION separately), COMMIT, and the connection back to the pool (discarded when it broke).
 * Null when the queryable is not a pg pool.
 */
export function nativeTransaction<T>(
  queryable: unknown,
  isolation: TIsolation,
  work: (tx: TSqlBase) => Promise<T>,
): Promise<T> | null {
  const pool = pgQueryable(queryable) as TPgPool | null;
  if (!pool || typeof pool.connect !== "function") return null;
  return (async () => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query(`BEGIN ISOLATION LEVEL ${isolation === "read committed" ? "READ COMMITTED" : "SERIALIZABLE"}`);
      try {
        const result = await work(bindNative(client, true));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      }
    } catch (error) {
      // A connection that failed outside SQL (reset, timeout) must not go back to the pool.
      if (!(error as TPgError).code) broken ??= error as Error;
      throw error;
    } finally {
      client.release(broken ?? false);
    }
  })();
}

type TPgError = Error & { code?: string; table?: string; detail?: string; constraint?: string };

/**
 * A unique violation (23505) raised by pg itself on the native path, on `table`, whose key names
 * `column`: the detail reads 'Key ("callerId", "requestId")=(…) already exists.'
 */
export function isNativeUniqueViolation(error: Error, table: string, column: string): boolean {
  const e = error as TPgError;
  if (e.code !== "23505" || e.table !== table) return false;
  const key = /^Key \(([^)]*)\)=/.exec(e.detail ?? "")?.[1] ?? "";
  return key
    .split(",")
    .map((c) => c.trim().replace(/^"|"$/g, ""))
    .includes(column);
}

/** Serialization failures and deadlocks: the transaction did nothing and may simply run again. */
export function isRetryableTransactionError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as TPgError).code;
    if (code === "40001" || code === "40P01") return true;
    const cause = (current as Error & { cause?: { originalCode?: string; kind?: string } }).cause;
    if (cause && typeof cause === "object" && !(cause instanceof Error)) {
      if (cause.originalCode === "40001" || cause.originalCode === "40P01") return true;
      if (cause.kind === "TransactionWriteConflict") return true;
    }
    current = cause;
  }
  return false;
}
