// Reads the vitest and Playwright JSON reports and prints one line per suite plus the closing
// "N passed, N failed" line CI reads. A missing report counts as a failure: a suite that did not
// run must not look green.
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

const vitest = read("vitest.json");
if (vitest) {
  const skipped = vitest.numPendingTests + (vitest.numTodoTests ?? 0);
  console.log(
    `vitest:     ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed, ${skipped} skipped (${vitest.numTotalTestSuites} suites)`,
  );
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests + skipped;
} else {
  console.log("vitest:     no report (did not run)");
  missing++;
}

const pw = read("playwright.json");
if (pw) {
  const s = pw.stats;
  const ok = s.expected + s.flaky;
  console.log(`playwright: ${ok} passed, ${s.unexpected} failed, ${s.skipped} skipped`);
  passed += ok;
  failed += s.unexpected + s.skipped;
} else {
  console.log("playwright: no report (did not run)");
  missing++;
}

console.log(`${passed} passed, ${failed + missing} failed`);
process.exit(failed + missing > 0 ? 1 : 0);
