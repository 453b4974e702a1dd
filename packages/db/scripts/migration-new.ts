// `pnpm db:migration:new <name>`: writes the migration for whatever schema.prisma changed since the
// last one, for both databases (offline `migrate dev --create-only`):
// - prisma/migrations/<timestamp>_<name>/migration.sql (SQLite), diffed in temp files;
// - prisma/postgres/migrations/<same folder>/migration.sql, diffed on a PostgreSQL server
//   (SOLSERVER_POSTGRES_ADMIN_URL, default the cluster `bash scripts/postgres-cluster.sh start`
//   runs) in databases it creates and drops.
// It regenerates prisma/postgres/schema.prisma first and only writes files; `pnpm db:migrate`
// applies them, so the SQL can be reviewed and edited first (hand-written triggers and functions
// go in by hand: see the *_search_and_change_log migrations).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createMigration } from "./schema-engine";
import { createPostgresMigration, postgresAdminUrl } from "./schema-engine-postgres";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/i.test(name)) {
  console.error("usage: pnpm db:migration:new <name>   (letters, digits, underscores)");
  process.exit(2);
}

const started = Date.now();
const generated = spawnSync(
  process.execPath,
  ["--import", "tsx", fileURLToPath(new URL("generate.ts", import.meta.url))],
  {
    stdio: "inherit",
  },
);
if (generated.status !== 0) process.exit(generated.status ?? 1);
const folder = await createMigration(name);
try {
  await createPostgresMigration(folder ?? `${new Date().toISOString().replace(/\D/g, "").slice(0, 14)}_${name}`);
} catch (error) {
  console.error(
    `postgres: could not diff on ${postgresAdminUrl()} (${(error as Error).message}); ` +
      "start one with `bash scripts/postgres-cluster.sh start` or set SOLSERVER_POSTGRES_ADMIN_URL, then run this again",
  );
  process.exit(1);
}
console.log(`done in ${Date.now() - started} ms; review them, then run pnpm db:migrate`);
