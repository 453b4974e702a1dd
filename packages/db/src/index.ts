export {
  createCandidateIndex,
  FUZZY_WEIGHT,
  resolveWeight,
  type TCandidateIndex,
  type TVisibleTo,
  type TWeightedQuery,
} from "./candidates/candidate-index";
export { TermIndex, type TIndexHit, type TWeightedTerm } from "./candidates/term-index";
export { connectionOf, createPrismaClient, type DbClient, migrateDatabase, sqlDriverOf } from "./client";
export { defaultDatabaseUrl, repositoryRoot, resolveDatabaseUrl } from "./database-url";
export {
  databaseLabel,
  databaseUrlProblem,
  dialectFor,
  type TDialect,
  type TEmbeddingWrite,
  type TPendingEmbedding,
  type TStorage,
  type TVectorStore,
} from "./dialect";
export { databaseFilePath } from "./dialect/sqlite/database-file";
export { VECTOR_TABLES } from "./dialect/sqlite/vector-tables";
export * from "./repositories";
