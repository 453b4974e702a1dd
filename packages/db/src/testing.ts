// Test support: a fresh, migrated SQLite file per test file (never a shared or in-memory DB, so
// tests exercise the same migrations, WAL and constraints as production).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrateDatabase } from "./migrations";

export type TTestDatabase = { url: string; dir: string; cleanup: () => void };

export async function createTestDatabase(label = "test"): Promise<TTestDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), `solserver-${label}-`));
  const url = `file:${path.join(dir, "test.db")}`;
  await migrateDatabase(url);
  return { url, dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
