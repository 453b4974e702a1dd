// Where a benchmark writes its results, per database: benchmarks open their databases through
// the test support (createTestDatabase), which makes PostgreSQL databases when
// SOLSERVER_TEST_POSTGRES_URL names a server. The same bench then writes `<name>-postgres.json`
// beside the SQLite `<name>.json`, so docs/performance.md can put the two side by side. The raw
// files stay out of git (generated on demand); docs/performance.md keeps each run's summary.
import { mkdirSync } from "node:fs";
import path from "node:path";

export function benchDatabase(): "sqlite" | "postgresql" {
  return process.env.SOLSERVER_TEST_POSTGRES_URL ? "postgresql" : "sqlite";
}

/** bench/results/<file>, the folder made on a fresh clone (it is not in git). */
export function resultsPath(file: string): string {
  const folder = path.join(import.meta.dirname, "..", "results");
  mkdirSync(folder, { recursive: true });
  return path.join(folder, file);
}

export function resultsFile(name: string): string {
  return resultsPath(`${name}${benchDatabase() === "postgresql" ? "-postgres" : ""}.json`);
}
