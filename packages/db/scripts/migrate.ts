// `pnpm db:migrate`: applies committed migrations (prisma/migrations) to DATABASE_URL, or to the
// shared default `<repo>/.data/solserver.db`. Offline replacement for `prisma migrate deploy`.

import { migrateDatabase } from "../src/client";
import { resolveDatabaseUrl } from "../src/database-url";
import { databaseFilePath } from "../src/dialect/sqlite/database-file";

const url = resolveDatabaseUrl();
const started = Date.now();
try {
  const { applied } = await migrateDatabase(url, {
    log: (line) => console.log(line),
  });
  const where = databaseFilePath(url);
  console.log(
    applied.length > 0
      ? `database up to date: ${applied.length} migrations applied (${where}, ${Date.now() - started} ms)`
      : `already up to date (${where})`,
  );
} catch (error) {
  console.error(`db:migrate failed: ${(error as Error).message}`);
  process.exit(1);
}
