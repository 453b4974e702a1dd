import type {
  ArgType,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQueryable,
  SqlResultSet,
} from "@prisma/driver-adapter-utils";
import type { Prisma } from "./generated/prisma/client";

/**
 * Hot-path SQL. A Prisma model query costs 0.3-1 ms here (the query is compiled and interpreted
 * in JS before the driver sees it), and a chat turn needs about twenty statements: that alone is
 * four times the turn's overhead budget (docs/performance.md). These statements go straight to the
 * driver adapter Prisma itself uses: transactions through its interface (`startTransaction`: the
 * same transaction lock as `$transaction`), statements through `queryRaw` / `executeRaw` or, on
 * SQLite, the adapter's own connection with cached prepared statements (bindNative below); the
 * same connection, the same value encoding (dates as Prisma stores them), about 0.02 ms per
 * statement. Statements are `Prisma.sql` templates, so every value is a bound parameter.
 */
export type TSql = {
  /** Rows as objects keyed by column name (quote aliases: `AS "packetId"`). */
  query<T = Record<string, unknown>>(statement: Prisma.Sql): Promise<T[]>;
  /** Rows changed. */
  execute(statement: Prisma.Sql): Promise<number>;
};

export type TSqlDriver = TSql & {
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: TSql) => Promise<T>): Promise<T>;
};

type TAdapterSlot = { adapter: SqlDriverAdapter | null };

/** Wraps Prisma's adapter factory so the connection it opens is also reachable by `createSqlDriver`. */
export function capturingFactory(inner: SqlDriverAdapterFactory, slot: TAdapterSlot): SqlDriverAdapterFactory {
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect() {
      const adapter = await inner.connect();
      slot.adapter = adapter;
      return adapter;
    },
  };
}

function argTypeOf(value: unknown): ArgType {
  if (value instanceof Date) return { scalarType: "datetime", arity: "scalar" };
  switch (typeof value) {
    case "string":
      return { scalarType: "string", arity: "scalar" };
    case "number":
      return { scalarType: Number.isInteger(value) ? "int" : "float", arity: "scalar" };
    case "bigint":
      return { scalarType: "bigint", arity: "scalar" };
    case "boolean":
      return { scalarType: "boolean", arity: "scalar" };
    default:
      return { scalarType: "unknown", arity: "scalar" };
  }
}

/** A better-sqlite3 statement, as far as this file uses it. */
type TNativeStatement = {
  reader: boolean;
  all(...args: unknown[]): Record<string, unknown>[];
  run(...args: unknown[]): { changes: number };
  safeIntegers(on: boolean): TNativeStatement;
};
type TNativeConnection = { prepare(sql: string): TNativeStatement; open: boolean };

/**
 * The better-sqlite3 connection under Prisma's SQLite adapter (its `client`), when there is one.
 * The adapter prepares every statement afresh on every call, which costs more than running it
 * (40 µs against 5 µs for a four-table join); statements here are a fixed set, so they are
 * prepared once per connection and reused. The adapter version is pinned exactly; without a
 * `client` (another driver, another version) the adapter's own interface is used.
 */
function nativeConnection(queryable: SqlQueryable): TNativeConnection | null {
  const client = (queryable as { client?: Partial<TNativeConnection> }).client;
  return client && typeof client.prepare === "function" && client.open === true ? (client as TNativeConnection) : null;
}

const statementCaches = new WeakMap<TNativeConnection, Map<string, TNativeStatement>>();
const STATEMENT_CACHE_LIMIT = 256;

function prepared(connection: TNativeConnection, sql: string): TNativeStatement {
  let cache = statementCaches.get(connection);
  if (!cache) {
    cache = new Map();
    statementCaches.set(connection, cache);
  }
  let statement = cache.get(sql);
  if (!statement) {
    statement = connection.prepare(sql);
    // The adapter opens the connection with safe integers (BigInt) on; these statements read
    // counters, versions and lengths, all far below 2^53.
    if (statement.reader) statement.safeIntegers(false);
    if (cache.size >= STATEMENT_CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(sql, statement);
  }
  return statement;
}

/** Values as Prisma's SQLite adapter binds them: dates as ISO text with +00:00, booleans as 0/1. */
function nativeArg(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString().replace("Z", "+00:00");
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

function bindNative(connection: TNativeConnection): TSql {
  return {
    async query<T>(statement: Prisma.Sql): Promise<T[]> {
      const stmt = prepared(connection, statement.sql);
      const args = statement.values.map(nativeArg);
      if (!stmt.reader) {
        stmt.run(...args);
        return [];
      }
      return stmt.all(...args) as T[];
    },
    async execute(statement) {
      return prepared(connection, statement.sql).run(...statement.values.map(nativeArg)).changes;
    },
  };
}

function bind(queryable: SqlQueryable, provider: string): TSql {
  const native = provider === "sqlite" ? nativeConnection(queryable) : null;
  if (native) return bindNative(native);
  // PostgreSQL numbers its placeholders ($1); SQLite takes `?`.
  const text = (s: Prisma.Sql) => (provider === "postgres" ? s.statement : s.sql);
  const toQuery = (s: Prisma.Sql) => ({ sql: text(s), args: s.values, argTypes: s.values.map(argTypeOf) });
  return {
    async query<T>(statement: Prisma.Sql): Promise<T[]> {
      const result: SqlResultSet = await queryable.queryRaw(toQuery(statement));
      const names = result.columnNames;
      return result.rows.map((row) => {
        const record: Record<string, unknown> = {};
        for (let i = 0; i < names.length; i++) record[names[i] as string] = row[i];
        return record as T;
      });
    },
    execute: (statement) => queryable.executeRaw(toQuery(statement)),
  };
}

const control = (sql: string) => ({ sql, args: [], argTypes: [] });

/** A driver over whatever connection Prisma opened through `slot` (connect the client first). */
export function createSqlDriver(slot: TAdapterSlot): TSqlDriver {
  const adapter = () => {
    if (!slot.adapter) throw new Error("the database connection is not open yet");
    return slot.adapter;
  };
  return {
    query: (statement) => bind(adapter(), adapter().provider).query(statement),
    execute: (statement) => bind(adapter(), adapter().provider).execute(statement),
    async transaction(work) {
      const connection = adapter();
      // startTransaction takes the adapter's lock (shared with Prisma's $transaction) and BEGINs.
      const tx = await connection.startTransaction();
      // Drivers without "phantom" transactions expect the caller to send COMMIT / ROLLBACK, as
      // Prisma's own transaction manager does.
      const explicit = !tx.options.usePhantomQuery;
      try {
        const result = await work(bind(tx, connection.provider));
        if (explicit) await tx.executeRaw(control("COMMIT"));
        await tx.commit();
        return result;
      } catch (error) {
        try {
          if (explicit) await tx.executeRaw(control("ROLLBACK"));
        } finally {
          await tx.rollback();
        }
        throw error;
      }
    },
  };
}

type TDriverErrorCause = { kind?: string; table?: string; constraint?: { fields?: string[] } };

/**
 * Whether `error` is a unique-constraint violation on `table`, involving `column`: from the
 * adapter (a DriverAdapterError) or from better-sqlite3 itself (the native path above), whose
 * message names the columns: "UNIQUE constraint failed: Packet.callerId, Packet.requestId".
 */
export function isUniqueViolation(error: unknown, table: string, column: string): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "DriverAdapterError") {
    const cause = (error as Error & { cause?: TDriverErrorCause }).cause;
    if (cause?.kind !== "UniqueConstraintViolation") return false;
    const fields = cause.constraint?.fields ?? [];
    return (cause.table === undefined || cause.table === table) && fields.includes(column);
  }
  const code = (error as Error & { code?: unknown }).code;
  if (code !== "SQLITE_CONSTRAINT_UNIQUE" && code !== "SQLITE_CONSTRAINT_PRIMARYKEY") return false;
  const columns = error.message.split("constraint failed: ")[1]?.split(", ") ?? [];
  return columns.includes(`${table}.${column}`);
}

/** A datetime column read back as the driver gives it (ISO text on SQLite). */
export function dateOf(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

/** A Json column read back: text on SQLite, already parsed on PostgreSQL. */
export function jsonOf(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}

/**
 * Loads a SQLite extension (sqlite-vec) into the connection under `slot`'s adapter. Throws when
 * the connection is not better-sqlite3 (another driver cannot load SQLite extensions).
 */
export function loadExtensionInto(slot: { adapter: SqlDriverAdapter | null }, file: string): void {
  const client = slot.adapter
    ? (slot.adapter as unknown as { client?: { loadExtension?: (path: string) => void; open?: boolean } }).client
    : undefined;
  if (!client || typeof client.loadExtension !== "function" || client.open !== true)
    throw new Error("this database connection cannot load SQLite extensions");
  client.loadExtension(file);
}
