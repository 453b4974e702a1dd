export {
  createCandidateIndex,
  FUZZY_WEIGHT,
  resolveWeight,
  type TCandidateIndex,
  type TWeightedQuery,
} from "./candidates/candidate-index";
export { TermIndex, type TIndexHit, type TWeightedTerm } from "./candidates/term-index";
export { createPrismaClient, type DbClient } from "./client";
export { databaseFilePath, defaultDatabaseUrl, repositoryRoot, resolveDatabaseUrl } from "./database-url";
export { ftsHealth } from "./fts";
export { migrateDatabase } from "./migrations";
export * from "./repositories";
export {
  type TEmbeddingWrite,
  type TPendingEmbedding,
  type TVectorStore,
  VECTOR_TABLES,
} from "./vectors/vector-store";
