// `pnpm db:migration:new <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql for
// whatever schema.prisma changed since the last migration (offline `migrate dev --create-only`).
// It only writes the file; `pnpm db:migrate` applies it, so the SQL can be reviewed/edited first.
import { createMigration } from "./schema-engine";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/i.test(name)) {
  console.error("usage: pnpm db:migration:new <name>   (letters, digits, underscores)");
  process.exit(2);
}

const started = Date.now();
const folder = await createMigration(name);
if (folder) console.log(`done in ${Date.now() - started} ms; review it, then run pnpm db:migrate`);
