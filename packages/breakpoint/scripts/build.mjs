// Bundle the CLI into one self-contained ES module, dist/breakpoint.mjs: commander, yaml, zod
// and the workspace packages (@solserver/gate, @solserver/contracts) are all inside, so the bin
// runs with no node_modules (e.g. after `npm install -g ./packages/breakpoint`).
// Quiet on success; `--verbose` prints the output size. Written to a temp file then renamed, so
// concurrent builds (parallel test files) never leave a half-written bundle.
import { readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const outfile = path.join(root, "dist", "breakpoint.mjs");
const tmp = `${outfile}.${process.pid}.tmp`;

try {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, "src", "bin.ts")],
    outfile: tmp,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "bundle",
    legalComments: "none",
    logLevel: "warning",
    metafile: true,
    define: { __BREAKPOINT_VERSION__: JSON.stringify(pkg.version) },
    // Some bundled CommonJS code may call require() for Node built-ins.
    banner: {
      js: 'import { createRequire as __bpCreateRequire } from "node:module";\nconst require = __bpCreateRequire(import.meta.url);',
    },
  });
  renameSync(tmp, outfile);
  if (process.argv.includes("--verbose")) {
    const bytes = result.metafile.outputs[path.relative(root, tmp)]?.bytes ?? 0;
    console.log(`built ${path.relative(process.cwd(), outfile)} (${(bytes / 1024).toFixed(0)} KiB)`);
  }
} catch (err) {
  rmSync(tmp, { force: true });
  console.error(`breakpoint build failed: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
