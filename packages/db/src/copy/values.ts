// One stored value, as the source's driver reads it, bound as the target needs it. SQLite gives
// Json as text, DateTime as ISO text, Boolean as 0/1 and Bytes as a Buffer; PostgreSQL's driver
// (dialect/postgres/native.ts) the same except booleans. Dates and booleans are bound as JS
// values, so each dialect's binding stores them its own way (SQLite: canonical ISO text and
// 0/1; PostgreSQL: timestamptz and boolean), and Json through the dialect (PostgreSQL: jsonb).
import type { TSqlDialect } from "../dialect";
import type { Prisma } from "../generated/prisma/client";
import type { TColumnType } from "./models";

/** A timestamp as stored: ISO text (a zone-less one is UTC, as Prisma writes it), epoch ms, or a Date. */
export function storedDate(value: unknown): Date {
  let date: Date;
  if (value instanceof Date) date = value;
  else if (typeof value === "number" || typeof value === "bigint") date = new Date(Number(value));
  else {
    const text = String(value).trim();
    // "2026-11-27 05:00:00" names no zone, and Date would read it as local time.
    const zoneless = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(text);
    date = new Date(zoneless ? `${text.replace(" ", "T")}${text.length > 10 ? "" : "T00:00:00"}Z` : text);
  }
  if (Number.isNaN(date.getTime())) throw new Error(`not a timestamp: ${JSON.stringify(String(value))}`);
  return date;
}

function storedBoolean(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1 || value === 0n || value === 1n) return Number(value) === 1;
  if (value === "true" || value === "false") return value === "true";
  throw new Error(`not a boolean: ${JSON.stringify(value)}`);
}

function storedNumber(value: unknown): number {
  const n = typeof value === "number" ? value : Number(value);
  if (typeof value === "boolean" || value === "" || !Number.isFinite(n))
    throw new Error(`not a number: ${JSON.stringify(String(value))}`);
  return n;
}

function storedBytes(value: unknown): Buffer {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  throw new Error(`not bytes: ${typeof value}`);
}

/**
 * The bound value (or, for Json, the SQL fragment) that writes `value`, read from a column of
 * `type`, into the target. SQL NULL stays NULL; the JSON value null is a Json value like any other.
 */
export function boundValue(type: TColumnType, value: unknown, dialect: TSqlDialect): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "String":
      return typeof value === "string" ? value : String(value);
    case "Int":
    case "Float":
      return storedNumber(value);
    case "BigInt":
      return typeof value === "bigint" ? value : BigInt(value as number | string);
    case "Boolean":
      return storedBoolean(value);
    case "DateTime":
      return storedDate(value);
    case "Json":
      return dialect.json(typeof value === "string" ? JSON.parse(value) : value) as Prisma.Sql;
    case "Bytes":
      return storedBytes(value);
  }
}
