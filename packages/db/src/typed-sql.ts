import {
  type Compilable,
  DummyDriver,
  type InferResult,
  Kysely,
  sql as kyselySql,
  type RawBuilder,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import { Prisma } from "./generated/prisma/client";
import type { TSqlBase } from "./sql";

// Typed SQL (issue 37): statements written with Kysely's query builder against the tables of
// schema.prisma, so a renamed column, a column of another table or a value of the wrong type
// fails `tsc`, and a statement's rows have the type of what it selects. Kysely only builds and
// compiles here (its DummyDriver); the SQL driver of sql.ts runs the statement as it runs the
// hand-written ones, on either database: the SQLite compiler's SQL (double-quoted names, `?`
// placeholders) is the portable SQL both dialects take, and Prisma.Sql numbers the placeholders
// for PostgreSQL. The tables' types come from the generated Prisma client (its TypeMap), so
// `pnpm db:generate` after a schema change is the whole update: there is no second generator.

type TModelScalars<M extends Prisma.ModelName> = Prisma.TypeMap["model"][M]["payload"]["scalars"];

/**
 * A column as both drivers give it back and take it: a date is a Date on PostgreSQL and ISO text
 * on SQLite (read it with dateOf), a boolean 0 / 1 on SQLite, a Json column text on SQLite and
 * parsed on PostgreSQL (jsonOf), bytes any Uint8Array (a Buffer). Non-distributive, so `Date | null` stays one column type.
 */
type TStored<T> = [Prisma.JsonValue] extends [T]
  ? unknown
  : [T] extends [Date | null]
    ? Date | string | (null extends T ? null : never)
    : [T] extends [boolean | null]
      ? boolean | number | (null extends T ? null : never)
      : [T] extends [Uint8Array | null]
        ? Uint8Array<ArrayBufferLike> | (null extends T ? null : never)
        : T;

/** Every table of schema.prisma with its columns, as statements read and write them. */
export type TDatabase = {
  [M in Prisma.ModelName]: { [C in keyof TModelScalars<M>]: TStored<TModelScalars<M>[C]> };
};

/** Builds statements; `run` / `rows` send them through the SQL driver. */
export const typed = new Kysely<TDatabase>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  },
});

/**
 * A piece of SQL from a dialect helper (`tx.dialect.json(value)`, `forUpdate`, `utcDay(column)`,
 * full-text match) or the keyset pagination, inside a typed statement: `.where(fragment(after))`,
 * `.set({ payload: fragment(tx.dialect.json(value)) })`. Its values stay bound parameters. `T` is
 * the type of what it computes, which nothing checks: name it where a row reads it.
 */
export function fragment<T = unknown>(piece: Prisma.Sql): RawBuilder<T> {
  return kyselySql<T>(Object.assign([...piece.strings], { raw: piece.strings }), ...piece.values);
}

/** A prepared statement with its values, ready for the driver (prepared-sql.ts); `R` is a row of its result. */
export type TBound<R> = Prisma.Sql & { readonly row?: R };

/** The statement as the SQL driver takes it (every value a bound parameter). */
export function toSql(statement: Compilable | TBound<unknown>): Prisma.Sql {
  if (statement instanceof Prisma.Sql) return statement;
  const { sql, parameters } = statement.compile();
  // (`?` occurs in compiled SQL only as a placeholder: values are never inlined)
  return new Prisma.Sql(sql.split("?"), parameters as unknown[]);
}

type TRows<S> = S extends TBound<infer R> ? R[] : S extends Compilable ? InferResult<S> : never;

/** Runs a typed query; its rows have the type of what it selects (or returns). */
export function rows<S extends Compilable | TBound<unknown>>(sql: TSqlBase, statement: S): Promise<TRows<S>> {
  return sql.query(toSql(statement)) as Promise<TRows<S>>;
}

/** Runs a typed write; the rows it changed. */
export function run(sql: TSqlBase, statement: Compilable | TBound<unknown>): Promise<number> {
  return sql.execute(toSql(statement));
}
