import type { TDialect } from "./dialect";
import { sqliteDialect } from "./sqlite";

/** Why this build cannot open a DATABASE_URL, or null when it can. */
export function databaseUrlProblem(databaseUrl: string): string | null {
  if (databaseUrl.startsWith("file:")) return null;
  return "must be a SQLite file: URL such as file:.data/solserver.db";
}

/** The dialect of a DATABASE_URL: `file:` is the embedded SQLite database. */
export function dialectFor(databaseUrl: string): TDialect {
  const problem = databaseUrlProblem(databaseUrl);
  if (problem) throw new Error(`DATABASE_URL: ${problem}`);
  return sqliteDialect;
}

export type { TConnection, TDialect, TSqlDialect, TStorage } from "./dialect";
export type { TEmbeddingWrite, TPendingEmbedding, TVectorStore } from "./vector-store";
