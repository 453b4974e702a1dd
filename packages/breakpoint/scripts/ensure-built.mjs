// Build the CLI only when it is out of date: `pnpm breakpoint ...` (root package.json) and the
// tests run this before the bin, so an unchanged tree costs a few stat calls instead of a build.
// Out of date means an output (build.mjs OUTPUTS) is missing, or something the bundle is made
// from is newer than the oldest output: any file or directory under src/ of this package, the
// gate and contracts (a directory's mtime moves when a file in it is added, removed or renamed,
// which a file's own mtime cannot show), their package.json files (dependency versions), the
// lockfile, and this package's scripts/ (the build itself, the shipped vitest.d.ts).
// Silent unless `--verbose` (then one line on stderr: stdout stays the CLI's, e.g. for --json).
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildAll, OUTPUTS, PACKAGE_ROOT } from "./build.mjs";

const PACKAGES = path.resolve(PACKAGE_ROOT, "..");

/** Trees walked in full (files and directories). */
const SOURCE_TREES = [
  path.join(PACKAGE_ROOT, "src"),
  path.join(PACKAGE_ROOT, "scripts"),
  path.join(PACKAGES, "gate", "src"),
  path.join(PACKAGES, "contracts", "src"),
];

/** Single files (a missing one, e.g. no lockfile in a copy of the package, is skipped). */
const SOURCE_FILES = [
  path.join(PACKAGE_ROOT, "package.json"),
  path.join(PACKAGES, "gate", "package.json"),
  path.join(PACKAGES, "contracts", "package.json"),
  path.join(PACKAGES, "..", "pnpm-lock.yaml"),
];

/** The newest mtime under `dir` (the directory itself included), and the file that has it. */
function newestIn(dir, newest) {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (!stat) return newest;
  if (stat.mtimeMs > newest.mtimeMs) newest = { mtimeMs: stat.mtimeMs, file: dir };
  if (!stat.isDirectory()) return newest;
  for (const entry of readdirSync(dir)) newest = newestIn(path.join(dir, entry), newest);
  return newest;
}

/** Why a build is needed (a short phrase), or null when every output is up to date. */
export function staleReason() {
  let oldestOutput = Number.POSITIVE_INFINITY;
  for (const output of OUTPUTS) {
    const file = path.join(PACKAGE_ROOT, output);
    if (!existsSync(file)) return `${output} is missing`;
    oldestOutput = Math.min(oldestOutput, statSync(file).mtimeMs);
  }
  let newest = { mtimeMs: 0, file: "" };
  for (const tree of SOURCE_TREES) newest = newestIn(tree, newest);
  for (const file of SOURCE_FILES) newest = newestIn(file, newest);
  if (newest.mtimeMs > oldestOutput) return `${path.relative(PACKAGES, newest.file)} changed`;
  return null;
}

/** Build when stale; returns the reason it built, or null. */
export async function ensureBuilt() {
  const reason = staleReason();
  if (reason !== null) await buildAll();
  return reason;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    const reason = await ensureBuilt();
    if (process.argv.includes("--verbose")) {
      process.stderr.write(reason === null ? "breakpoint: build up to date\n" : `breakpoint: built (${reason})\n`);
    }
  } catch (err) {
    process.stderr.write(`breakpoint build failed: ${err instanceof Error ? err.message : err}\n`);
    process.exit(1);
  }
}
