// The package.json that ships in the tarball (`npm pack`): `strip` (prepack) swaps in a manifest
// without what only the workspace understands, `restore` (postpack) puts the repo's back.
//   - devDependencies go: they name `workspace:*` packages and exist only to build the bundles,
//     which carry everything at run time.
//   - scripts go: they run files (scripts/) that are not shipped.
//   - exports into ./src go (TypeScript source for the workspace, not shipped).
//   - vitest becomes an optional peer: dist/vitest.d.ts augments its types; nothing imports it.
// The repo's file is copied aside first with its mtime (so ensure-built.mjs sees no change once
// restored), and every write is a temp file + rename: a reader never sees half a file. A backup
// left by a pack that died before postpack is restored by the next `strip` (or `restore`).
import { copyFileSync, existsSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const manifest = path.join(root, "package.json");
const backup = path.join(root, ".package.json.pack-backup");

function fail(message) {
  process.stderr.write(`breakpoint pack: ${message}\n`);
  process.exit(1);
}

function restore() {
  if (existsSync(backup)) renameSync(backup, manifest);
}

/** The manifest to ship, from the repo's; throws if it still needs the registry or the workspace. */
function shippedManifest(pkg) {
  const { scripts: _scripts, devDependencies: _devDependencies, ...rest } = pkg;
  const exports = Object.fromEntries(
    Object.entries(pkg.exports ?? {}).filter(([, target]) => !JSON.stringify(target).includes("./src/")),
  );
  const shipped = {
    ...rest,
    exports: { ...exports, "./package.json": "./package.json" },
    peerDependencies: { vitest: ">=3.2.0" },
    peerDependenciesMeta: { vitest: { optional: true } },
  };
  if (Object.keys(shipped.dependencies ?? {}).length > 0) {
    throw new Error("package.json has dependencies: the bundles must carry everything (move them to devDependencies)");
  }
  if (JSON.stringify(shipped).includes("workspace:"))
    throw new Error("the shipped package.json names workspace: packages");
  return shipped;
}

function strip() {
  restore();
  const text = readFileSync(manifest, "utf8");
  const shipped = shippedManifest(JSON.parse(text));
  const { atime, mtime } = statSync(manifest);
  copyFileSync(manifest, backup);
  utimesSync(backup, atime, mtime);
  const tmp = `${manifest}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(shipped, null, 2)}\n`);
  renameSync(tmp, manifest);
}

const command = process.argv[2];
try {
  if (command === "strip") strip();
  else if (command === "restore") restore();
  else fail(`usage: node scripts/pack-manifest.mjs strip|restore (got ${JSON.stringify(command ?? "")})`);
} catch (err) {
  restore();
  fail(err instanceof Error ? err.message : String(err));
}
