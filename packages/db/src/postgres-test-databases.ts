// PostgreSQL databases for tests: one per test file, each a copy of a template database that was
// migrated once. CREATE DATABASE … TEMPLATE copies files, ~0.1 s, where migrating takes seconds.
// The template's name carries a hash of the migrations, so a changed migration gets a new one;
// test processes starting together build it once (an advisory lock on the admin database).
import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { migrateDatabase } from "./client";
import { listMigrations } from "./dialect/migration-files";
import { siblingUrl } from "./dialect/postgres/database-url";
import { defaultPostgresMigrationsDir } from "./dialect/postgres/migrations";

const TEMPLATE_LOCK = 7101984002;

function templateName(): string {
  const hash = createHash("sha1");
  for (const m of listMigrations(defaultPostgresMigrationsDir())) hash.update(m.name).update(m.sql);
  return `solserver_template_${hash.digest("hex").slice(0, 12)}`;
}

/** Runs `fn` on a connection to the admin URL (a server's maintenance database), closed after. */
export async function withPostgresAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

let template: Promise<string> | undefined;

function ensureTemplate(adminUrl: string): Promise<string> {
  template ??= withPostgresAdmin(adminUrl, async (admin) => {
    const name = templateName();
    await admin.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK]);
    try {
      const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate", [name]);
      if (!found.rowCount) {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await migrateDatabase(siblingUrl(adminUrl, name));
        // Marked a template only once it is complete: a half-built one is rebuilt.
        await admin.query(`ALTER DATABASE "${name}" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      }
      return name;
    } finally {
      await admin.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK]);
    }
  });
  return template;
}

export async function createPostgresTestDatabase(adminUrl: string, label: string) {
  const source = await ensureTemplate(adminUrl);
  const safe = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, 30);
  const name = `solserver_t_${safe}_${randomBytes(5).toString("hex")}`;
  await withPostgresAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${source}"`));
  return {
    url: siblingUrl(adminUrl, name),
    drop: () =>
      withPostgresAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(
        () => {},
      ),
  };
}
