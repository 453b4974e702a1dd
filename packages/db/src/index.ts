export { createPrismaClient, type DbClient } from "./client";
export { databaseFilePath, defaultDatabaseUrl, repositoryRoot, resolveDatabaseUrl } from "./database-url";
export { createSqliteCandidateSearch, ftsHealth, type TCandidateSearch } from "./fts";
export { migrateDatabase } from "./migrations";
export * from "./repositories";
