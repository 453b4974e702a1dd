export { createPrismaClient, type DbClient } from "./client";
export { databaseFilePath, defaultDatabaseUrl, repositoryRoot, resolveDatabaseUrl } from "./database-url";
export { migrateDatabase } from "./migrations";
export * from "./repositories";
