import type {
  ArgType,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQueryable,
  SqlResultSet,
} from "@prisma/driver-adapter-utils";
import type { TDialect, TSqlDialect } from "./dialect/dialect";
import type { Prisma } from "./generated/prisma/client";

/**
 * The SQL driver: writes and hot-path reads (packages/db/README.md says which queries use it).
 * A Prisma model query costs 0.3-1 ms here (the query is compiled and interpreted in JS before
 * the driver sees it), and a chat turn needs about twenty statements: that alone is four times
 * the turn's overhead budget (docs/performance.md). These statements go straight to the driver
 * adapter Prisma itself uses: transactions through its interface (`startTransaction`: the same
 * transaction lock as `$transaction`), statements through `queryRaw` / `executeRaw` or the
 * dialect's faster binding on the same connection (SQLite: cached prepared statements); the same
 * value encoding (dates as Prisma stores them). Statements are `Prisma.sql` templates, so every
 * value is a bound parameter.
 */
export type TSqlBase = {
  /** Rows as objects keyed by column name (quote aliases: `AS "packetId"`). */
  query<T = Record<string, unknown>>(statement: Prisma.Sql): Promise<T[]>;
  /** Rows changed. */
  execute(statement: Prisma.Sql): Promise<number>;
};

/** Statements, and the dialect's help for what is not portable SQL (`tx.dialect.json(value)`). */
export type TSql = TSqlBase & {
  readonly dialect: TSqlDialect;
  /**
   * Statements that commit on their own, outside the transaction (PostgreSQL: a small pool of
   * their own), for the id counters: held until a turn commits, their row locks would make every
   * concurrent writer wait in line, and SERIALIZABLE writers conflict over them. Absent on SQLite,
   * whose one writer at a time has nothing to gain.
   */
  readonly outside?: TSqlBase;
};

/**
 * How a transaction is isolated from concurrent ones (PostgreSQL; SQLite runs one writer at a
 * time, which is stronger than both). "serializable", the default, keeps every read-then-write
 * transaction written for SQLite correct when processes race, at the price of running it again
 * when it raced. "read committed" is for hot transactions made of inserts, increments, conditional
 * writes and rows read FOR UPDATE (`tx.dialect.forUpdate`): a chat turn. Counter rows every turn
 * touches (ids, queue counts, CFB stats) would otherwise make concurrent turns conflict.
 */
export type TIsolation = "serializable" | "read committed";

export type TSqlDriver = TSql & {
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. On
   * PostgreSQL it is SERIALIZABLE unless `isolation` says "read committed" (see TIsolation).
   */
  transaction<T>(work: (tx: TSql) => Promise<T>, options?: { isolation?: TIsolation }): Promise<T>;
};

export type TAdapterSlot = { adapter: SqlDriverAdapter | null };

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

function bind(queryable: SqlQueryable, dialect: TDialect): TSql {
  const native = dialect.nativeBinding(queryable);
  if (native) return { ...native, dialect };
  // PostgreSQL numbers its placeholders ($1); SQLite takes `?`.
  const text = (s: Prisma.Sql) => (queryable.provider === "postgres" ? s.text : s.sql);
  const toQuery = (s: Prisma.Sql) => ({ sql: text(s), args: s.values, argTypes: s.values.map(argTypeOf) });
  return {
    dialect,
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
export function createSqlDriver(slot: TAdapterSlot, dialect: TDialect, outside?: TSqlBase): TSqlDriver {
  const adapter = () => {
    if (!slot.adapter) throw new Error("the database connection is not open yet");
    return slot.adapter;
  };
  return {
    dialect,
    ...(outside ? { outside } : {}),
    query: (statement) => bind(adapter(), dialect).query(statement),
    execute: (statement) => bind(adapter(), dialect).execute(statement),
    async transaction(work, options) {
      // PostgreSQL runs transactions SERIALIZABLE: one that raced another fails with a
      // serialization error having done nothing, and runs again (a few times, with a short
      // random wait so that the racers do not meet again). SQLite never raises one.
      for (let attempt = 1; ; attempt++) {
        try {
          return await runTransaction(adapter(), dialect, work, options?.isolation ?? "serializable", outside);
        } catch (error) {
          if (attempt >= TRANSACTION_ATTEMPTS || !dialect.isRetryableTransactionError?.(error)) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 8 * attempt));
        }
      }
    },
  };
}

const TRANSACTION_ATTEMPTS = 8;

async function runTransaction<T>(
  connection: SqlDriverAdapter,
  dialect: TDialect,
  work: (tx: TSql) => Promise<T>,
  isolation: TIsolation,
  outside: TSqlBase | undefined,
) {
  const withDialect = (tx: TSqlBase): TSql => ({ ...tx, dialect, ...(outside ? { outside } : {}) });
  const native = dialect.nativeTransaction?.(connection, isolation, (tx) => work(withDialect(tx)));
  if (native) return native;
  // startTransaction takes the adapter's lock (shared with Prisma's $transaction) and BEGINs.
  const tx = await connection.startTransaction(dialect.isolationLevel?.(isolation));
  // Drivers without "phantom" transactions expect the caller to send COMMIT / ROLLBACK, as
  // Prisma's own transaction manager does.
  const explicit = !tx.options.usePhantomQuery;
  try {
    const result = await work(withDialect(bind(tx, dialect)));
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
}

type TDriverErrorCause = { kind?: string; table?: string; constraint?: { fields?: string[] } };

/**
 * Whether `error` is a unique-constraint violation on `table`, involving `column`: from Prisma's
 * adapter (a DriverAdapterError) or from the dialect's native binding.
 */
export function isUniqueViolation(error: unknown, sql: TSql, table: string, column: string): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "DriverAdapterError") {
    const cause = (error as Error & { cause?: TDriverErrorCause }).cause;
    if (cause?.kind !== "UniqueConstraintViolation") return false;
    const fields = cause.constraint?.fields ?? [];
    return (cause.table === undefined || cause.table === table) && fields.includes(column);
  }
  return (sql.dialect as TDialect).isNativeUniqueViolation(error, table, column);
}

/** A datetime column read back as the driver gives it (canonical ISO text on SQLite). */
export function dateOf(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

/** A Json column read back: text on SQLite, already parsed on PostgreSQL. */
export function jsonOf(value: unknown): unknown {
  return typeof value === "string" ? JSON.parse(value) : value;
}
