// The tables `db:copy` moves and the type of every column, from the Prisma client's own data
// model: a model or column added to prisma/schema.prisma is copied without a change here.
import type { DbClient } from "../client";

/** A column's Prisma type: how its values are read from one database and bound for the other. */
export type TColumnType = "String" | "Int" | "BigInt" | "Float" | "Boolean" | "DateTime" | "Json" | "Bytes";

type TCopyColumn = { name: string; type: TColumnType };
export type TCopyTable = { model: string; table: string; columns: TCopyColumn[] };

/**
 * Models whose rows the target writes itself, so copying them would duplicate or contradict it.
 * Tables that are no model at all are never copied either: `_prisma_migrations` (the target's
 * own migrations wrote it), SQLite's full-text and vector tables (CfbFts*, CfbVec*) and
 * PostgreSQL's search table (CfbSearch), which the target's triggers fill as the CFBs go in and
 * the vector index rebuilds from CfbEmbedding when it opens.
 */
const DERIVED_MODELS: Readonly<Record<string, string>> = {
  // The candidate index's change log: the target's triggers write one entry per CFB copied,
  // and every server process rebuilds its index when it starts.
  CfbChange: "written by the target's triggers as the CFBs go in",
  // Held by the source's processes for their background work; the target's take their own.
  WorkLease: "held by the source's processes, which the target's are not",
  // The in-process queue of a SQLite source: the target's processes queue their own work.
  Job: "the source's job queue; the target's processes queue their own (recurring jobs at start)",
};

const TYPES = new Set<string>(["String", "Int", "BigInt", "Float", "Boolean", "DateTime", "Json", "Bytes"]);

type TRuntimeField = { name: string; kind: string; type: string; dbName?: string | null };
type TRuntimeModel = { fields: TRuntimeField[]; dbName: string | null };

/**
 * The generated client's data model. Prisma 7 no longer exports the DMMF (`Prisma.dmmf`); the
 * client keeps a reduced one (models, fields with kind and type, table names) for its query
 * compiler, which is what this reads. Primary and foreign keys are not in it: they come from the
 * databases' catalogs (copy-support.ts).
 */
export function runtimeModels(db: DbClient): Record<string, TRuntimeModel> {
  const models = (db as unknown as { _runtimeDataModel?: { models?: Record<string, TRuntimeModel> } })._runtimeDataModel
    ?.models;
  if (!models || Object.keys(models).length === 0)
    throw new Error("the Prisma client exposes no data model (_runtimeDataModel): db:copy needs Prisma 7.10's client");
  return models;
}

/** Every model's table except the derived ones, in the schema's order, with its columns' types. */
export function copyTables(models: Record<string, TRuntimeModel>): TCopyTable[] {
  return Object.entries(models)
    .filter(([model]) => !(model in DERIVED_MODELS))
    .map(([model, m]) => ({
      model,
      table: m.dbName ?? model,
      columns: m.fields
        .filter((f) => f.kind === "scalar" || f.kind === "enum")
        .map((f) => {
          // An enum is text in both databases' columns as Prisma maps them here (none so far).
          const type = f.kind === "enum" ? "String" : f.type;
          if (!TYPES.has(type))
            throw new Error(`${model}.${f.name}: db:copy cannot copy a ${f.type} column (add it to copy/values.ts)`);
          return { name: f.dbName ?? f.name, type: type as TColumnType };
        }),
    }));
}

/** The tables of every model, derived ones included (the target must have none of their rows). */
export function modelTables(models: Record<string, TRuntimeModel>): string[] {
  return Object.entries(models).map(([model, m]) => m.dbName ?? model);
}
