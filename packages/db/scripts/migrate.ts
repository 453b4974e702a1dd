// `pnpm db:migrate`: applies committed migrations to DATABASE_URL (prisma/migrations to a SQLite
// file, prisma/postgres/migrations to a PostgreSQL database, created when missing), or to the
// shared default `<repo>/.data/solserver.db`. Offline replacement for `prisma migrate deploy`.

import { migrateDatabase } from "../src/client";
import { resolveDatabaseUrl } from "../src/database-url";
import { databaseLabel } from "../src/dialect";

const url = resolveDatabaseUrl();
const started = Date.now();
try {
  const { applied } = await migrateDatabase(url, {
    log: (line) => console.log(line),
  });
  const where = databaseLabel(url);
  console.log(
    applied.length > 0
      ? `database up to date: ${applied.length} migrations applied (${where}, ${Date.now() - started} ms)`
      : `already up to date (${where})`,
  );
} catch (error) {
  console.error(`db:migrate failed: ${(error as Error).message}`);
  process.exit(1);
}
