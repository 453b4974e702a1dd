// Reads the vitest and Playwright JSON reports (SQLite, then PostgreSQL) and prints one line per
// suite plus the closing "N passed, N failed" line CI reads. A missing report counts as a
// failure: a suite that did not run must not look green.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? ".test-results";
const read = (name) => {
  const file = path.join(dir, name);
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
};

let passed = 0;
let failed = 0;
let missing = 0;

const SUITES = [
  { label: "vitest (SQLite)", file: "vitest.json", kind: "vitest" },
  { label: "vitest (PostgreSQL)", file: "vitest-postgres.json", kind: "vitest" },
  { label: "playwright (SQLite)", file: "playwright.json", kind: "playwright" },
  { label: "playwright (PostgreSQL smoke)", file: "playwright-postgres.json", kind: "playwright" },
];
const width = Math.max(...SUITES.map((s) => s.label.length)) + 2;

for (const suite of SUITES) {
  const report = read(suite.file);
  const label = `${suite.label}:`.padEnd(width);
  if (!report) {
    console.log(`${label}no report (did not run)`);
    missing++;
  } else if (suite.kind === "vitest") {
    const skipped = report.numPendingTests + (report.numTodoTests ?? 0);
    console.log(
      `${label}${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped (${report.numTotalTestSuites} suites)`,
    );
    passed += report.numPassedTests;
    failed += report.numFailedTests + skipped;
  } else {
    const s = report.stats;
    const ok = s.expected + s.flaky;
    console.log(`${label}${ok} passed, ${s.unexpected} failed, ${s.skipped} skipped`);
    passed += ok;
    failed += s.unexpected + s.skipped;
  }
}

console.log(`${passed} passed, ${failed + missing} failed`);
process.exit(failed + missing > 0 ? 1 : 0);
