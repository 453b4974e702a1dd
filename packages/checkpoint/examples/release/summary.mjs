#!/usr/bin/env node
// Release summary for the approval checkpoint of ../release-pipeline.yaml: what the test run
// reported (JUnit XML) and what was packed (name, size, sha256), as Markdown a person reads before
// deciding "Ship". Plain Node, no dependencies; paths are relative to the workspace (the CLI runs
// commands there).
//
//   node packages/checkpoint/examples/release/summary.mjs <version> <junit.xml> <packages-dir> <out.md>
//
// Exit 1 (the phase fails) when the JUnit file is missing, reports failures, or nothing was packed.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const [version, junitFile, packagesDir, outFile] = process.argv.slice(2);
if (!version || !junitFile || !packagesDir || !outFile) {
  console.error("usage: summary.mjs <version> <junit.xml> <packages-dir> <out.md>");
  process.exit(2);
}

function fail(message) {
  console.error(`summary: ${message}`);
  process.exit(1);
}

let xml;
try {
  xml = readFileSync(junitFile, "utf8");
} catch {
  fail(`${junitFile}: not found (did the test phase run with --reporter=junit?)`);
}
// The first <testsuites …> element carries the totals; attributes are read by name, in any order.
const root = xml.match(/<testsuites\b[^>]*>/)?.[0] ?? "";
const attr = (name) => Number(root.match(new RegExp(`\\b${name}="([\\d.]+)"`))?.[1] ?? Number.NaN);
const totals = { tests: attr("tests"), failures: attr("failures"), errors: attr("errors"), time: attr("time") };
if (Number.isNaN(totals.tests)) fail(`${junitFile}: no <testsuites tests="…"> totals in it`);
const failed = [...xml.matchAll(/<testcase\b[^>]*\bname="([^"]*)"[^>]*>\s*<failure/g)].map((m) => m[1]);

let packed = [];
try {
  packed = readdirSync(packagesDir)
    .filter((name) => name.endsWith(".tgz"))
    .sort();
} catch {
  // reported below
}
if (packed.length === 0) fail(`${packagesDir}: no .tgz package in it (did the package phase run?)`);

const lines = [
  `# Release ${version}`,
  "",
  "## Tests",
  "",
  `${totals.tests} tests, ${totals.failures || 0} failures, ${totals.errors || 0} errors` +
    (Number.isNaN(totals.time) ? "" : ` in ${totals.time.toFixed(1)} s`),
  ...(failed.length > 0 ? ["", "Failed:", ...failed.map((name) => `- ${name}`)] : []),
  "",
  "## Packages",
  "",
  "| file | size | sha256 |",
  "| --- | --- | --- |",
  ...packed.map((name) => {
    const file = path.join(packagesDir, name);
    const sha = createHash("sha256").update(readFileSync(file)).digest("hex");
    return `| ${name} | ${(statSync(file).size / 1024).toFixed(1)} KB | \`${sha.slice(0, 16)}…\` |`;
  }),
  "",
  `Ship creates the tag \`v${version}\`.`,
  "",
];
mkdirSync(path.dirname(outFile), { recursive: true });
writeFileSync(outFile, lines.join("\n"));
console.log(`wrote ${outFile}: ${totals.tests} tests, ${packed.length} package${packed.length === 1 ? "" : "s"}`);
if (totals.failures > 0 || totals.errors > 0) fail(`${totals.failures} failures, ${totals.errors} errors`);
