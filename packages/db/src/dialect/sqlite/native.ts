import type { Prisma } from "../../generated/prisma/client";
import type { TSqlBase } from "../../sql";

// The SQLite connection under Prisma's better-sqlite3 adapter, used directly: statements prepared
// once per connection, extension loading, and better-sqlite3's own error codes.

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
function nativeConnection(queryable: unknown): TNativeConnection | null {
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

function bindNative(connection: TNativeConnection): TSqlBase {
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

/** Statements on the better-sqlite3 connection under Prisma's adapter, or null when there is none. */
export function nativeBinding(queryable: unknown): TSqlBase | null {
  const native = nativeConnection(queryable);
  return native ? bindNative(native) : null;
}

/**
 * A unique-constraint violation raised by better-sqlite3 itself (the native path above), whose
 * message names the columns: "UNIQUE constraint failed: Packet.callerId, Packet.requestId".
 */
export function isNativeUniqueViolation(error: Error, table: string, column: string): boolean {
  const code = (error as Error & { code?: unknown }).code;
  if (code !== "SQLITE_CONSTRAINT_UNIQUE" && code !== "SQLITE_CONSTRAINT_PRIMARYKEY") return false;
  const columns = error.message.split("constraint failed: ")[1]?.split(", ") ?? [];
  return columns.includes(`${table}.${column}`);
}
