// A PostgreSQL server's admin connection for the benchmarks: fresh databases (named on the admin
// URL's server, created and migrated by migrateDatabase) and dropping them again, and the server
// settings a result should carry.
import { migrateDatabase } from "@solserver/db";
import { databaseUrlOn, withPostgresAdmin as withAdmin } from "@solserver/db/testing";

export const DEFAULT_POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:55432/postgres";

/** Creates and migrates database `name` (migrateDatabase creates it when missing); its URL. */
export async function createMigratedDatabase(adminUrl: string, name: string): Promise<string> {
  const url = databaseUrlOn(adminUrl, name);
  await migrateDatabase(url);
  return url;
}

/** Drops database `name`, ending the sessions still on it (server processes that did not exit). */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`database name "${name}" must be lower-case letters, digits and _`);
  await withAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** The server's version and the settings that bear on write throughput. */
export async function serverSettings(adminUrl: string): Promise<Record<string, string>> {
  const names = ["server_version", "fsync", "synchronous_commit", "shared_buffers", "max_connections"];
  return withAdmin(adminUrl, async (admin) => {
    const settings: Record<string, string> = {};
    for (const name of names) {
      const { rows } = await admin.query(`SELECT current_setting($1) AS value`, [name]);
      settings[name] = String(rows[0]?.value);
    }
    return settings;
  });
}
