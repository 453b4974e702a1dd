export {
  createCandidateIndex,
  FUZZY_WEIGHT,
  resolveWeight,
  type TCandidateIndex,
  type TVisibleTo,
  type TWeightedQuery,
} from "./candidates/candidate-index";
export { TermIndex } from "./candidates/term-index";
export type { TIndexHit, TWeightedTerm } from "./candidates/term-index-types";
export { connectionOf, createPrismaClient, type DbClient, migrateDatabase, sqlDriverOf } from "./client";
export { defaultDatabaseUrl, repositoryRoot, resolveDatabaseUrl } from "./database-url";
export {
  databaseLabel,
  databaseUrlProblem,
  dialectFor,
  type TDialect,
  type TStorage,
} from "./dialect";
export { databaseFilePath } from "./dialect/sqlite/database-file";
export { createJobQueue, type TJobHandler, type TJobQueue, type TJobSpec } from "./jobs/job-queue";
export * from "./repositories";
export type { TJobState, TJobView } from "./repositories/jobs";
export { isDatabaseUnreachable } from "./unreachable";
export type { TEmbeddingWrite, TPendingEmbedding, TVectorStore } from "./vectors";
