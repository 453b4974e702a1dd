import type { Compilable, InferResult } from "kysely";
import type { TSqlDialect } from "./dialect/dialect";
import { Prisma } from "./generated/prisma/client";
import type { TBound } from "./typed-sql";

// Prepared statements: a typed statement built and compiled once per dialect and shape, then run
// with each call's values. Every chat turn runs some twenty statements, and building and compiling
// each anew with Kysely cost 1.5 ms of a turn's 8 ms of CPU (bench:overhead). `build` is called
// with stand-ins for the values (slots), which the compiled statement's parameters keep; each call
// puts its values in their place. A value named in `expand` is a list (an IN list, the rows of a
// multi-row insert) or a row to spread into an insert: its stand-in is a list of slots, rows of
// slots or a row of slots, and the statement is compiled once per length and columns.

/** Where a prepared statement takes a value: its path in the call's values (`rows.2.id`). */
class Slot {
  constructor(readonly path: string) {}
  // What a dialect's `json(value)` binds for it (JSON.stringify calls this): a marker, replaced
  // by the value's JSON (null: SQL NULL) when the statement runs.
  toJSON(): string {
    return `${JSON_SLOT}${this.path}`;
  }
}
const JSON_SLOT = "prepared-json-slot:";

type TCompiled = { strings: string[]; parameters: readonly unknown[] };

/**
 * A prepared statement. `build` must build the same statement whatever the values: it may pass
 * them to Kysely or to `dialect.json`, not branch on them or read their fields (but those of the
 * rows named in `expand`). A list of plain values in `expand` is an IN list: it is padded to a
 * power of two with its last value (the same rows), so its lengths make a dozen statements, not
 * one per length (a model's answer may cite two thousand CFBs).
 */
export function prepare<V extends Record<string, unknown>, S extends Compilable>(
  build: (values: V, dialect: TSqlDialect) => S,
  expand: readonly (keyof V & string)[] = [],
): (values: V, dialect: TSqlDialect) => TBound<InferResult<S>[number]> {
  const compiled = new WeakMap<TSqlDialect, Map<string, TCompiled>>();
  return (given, dialect) => {
    const values = padded(given, expand);
    let shapes = compiled.get(dialect);
    if (!shapes) {
      shapes = new Map<string, TCompiled>();
      compiled.set(dialect, shapes);
    }
    const shape = shapeOf(values, expand);
    let statement = shapes.get(shape);
    if (!statement) {
      const { sql, parameters } = build(standIns(values, expand) as V, dialect).compile();
      statement = { strings: sql.split("?"), parameters };
      shapes.set(shape, statement);
    }
    const bound = statement.parameters.map((p) => {
      if (p instanceof Slot) return valueAt(values, p.path);
      if (typeof p !== "string" || !p.includes(JSON_SLOT)) return p;
      // A Json value's marker: the value's JSON in its place. (A stand-in inside a Json value
      // would leave its marker in the stored text: the whole value must be one value.)
      if (!p.startsWith(`"${JSON_SLOT}`)) throw new Error("prepared statement: a value inside a Json value");
      // (null: no value, SQL NULL, as a nullable Json column means it)
      const value = valueAt(values, p.slice(JSON_SLOT.length + 1, -1));
      return value === null ? null : JSON.stringify(value);
    });
    return new Prisma.Sql(statement.strings, bound);
  };
}

/** The values with each IN list padded to a power of two by its last value. */
function padded<V extends Record<string, unknown>>(values: V, expand: readonly string[]): V {
  let copy: Record<string, unknown> | null = null;
  for (const key of expand) {
    const list = values[key];
    if (!Array.isArray(list) || list.length < 2 || isRow(list[0])) continue;
    const size = 2 ** Math.ceil(Math.log2(list.length));
    if (size === list.length) continue;
    copy ??= { ...values };
    copy[key] = [...list, ...Array.from({ length: size - list.length }, () => list.at(-1))];
  }
  return (copy ?? values) as V;
}

/** Which values are given, and the expanded ones' lengths and columns: one statement each. */
function shapeOf(values: Record<string, unknown>, expand: readonly string[]): string {
  let shape = `${columnsOf(values).join()};`;
  for (const key of expand) {
    const value = values[key];
    if (!Array.isArray(value)) shape += `${key}(${columnsOf(value).join()});`;
    else {
      shape += `${key}:${value.length}`;
      for (const item of value) if (isRow(item)) shape += `(${columnsOf(item).join()})`;
      shape += ";";
    }
  }
  return shape;
}

/** A row's columns with a value (Kysely leaves an undefined one out). */
function columnsOf(row: unknown): string[] {
  const r = row as Record<string, unknown>;
  return Object.keys(r).filter((column) => r[column] !== undefined);
}

function isRow(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !(value instanceof Date) && !ArrayBuffer.isView(value);
}

/** The values' stand-ins: the same keys (a statement may spread them into a row), slots for values. */
function standIns(values: Record<string, unknown>, expand: readonly string[]): Record<string, unknown> {
  const rowOfSlots = (row: unknown, path: string) =>
    Object.fromEntries(columnsOf(row).map((column) => [column, new Slot(`${path}.${column}`)]));
  const slots: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    // (undefined stays undefined: Kysely leaves such a column out, as it does unprepared)
    if (value === undefined) continue;
    if (!expand.includes(name)) slots[name] = new Slot(name);
    else if (!Array.isArray(value)) slots[name] = rowOfSlots(value, name);
    else
      slots[name] = value.map((item, i) => (isRow(item) ? rowOfSlots(item, `${name}.${i}`) : new Slot(`${name}.${i}`)));
  }
  return slots;
}

function valueAt(values: Record<string, unknown>, path: string): unknown {
  let value: unknown = values;
  for (const step of path.split(".")) value = (value as Record<string, unknown>)[step];
  return value;
}
