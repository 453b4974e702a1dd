// Bundle the CLI into one self-contained ES module, dist/breakpoint.mjs: commander, yaml, zod
// and the workspace packages (@solserver/gate, @solserver/contracts) are all inside, so the bin
// runs with no node_modules (e.g. after `npm install ./solserver-breakpoint-0.1.0.tgz`). A second
// bundle, dist/vitest.mjs (+ dist/vitest.d.ts, copied from scripts/vitest.d.ts), is the gate's
// vitest matcher for `@solserver/breakpoint/vitest`.
// Quiet on success; `--verbose` prints the output sizes. Each file is written to a temp file then
// renamed, so concurrent builds (parallel test files) never leave a half-written bundle.
import { mkdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** What a build writes (ensure-built.mjs checks them all). */
export const OUTPUTS = ["dist/breakpoint.mjs", "dist/vitest.mjs", "dist/vitest.d.ts"];

/**
 * Write `file` via a temp file and a rename, stamped with the time the build started: a source
 * saved while esbuild ran is then newer than the output, and ensure-built.mjs rebuilds.
 */
function writeAtomically(file, contents, startedAt) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, contents);
    utimesSync(tmp, startedAt, startedAt);
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * The gate's and contracts' modules only define values, so esbuild may drop the ones the CLI
 * never uses (most of contracts: --version went from 0.19 s to 0.13 s). Declared here rather than
 * as `sideEffects` in their package.json: Next's bundler then dropped contracts' zod-config.ts
 * (zod's jitless switch) from the dashboard, and zod probed eval under the page's CSP.
 */
const WORKSPACE_SRC = ["gate", "contracts"].map((name) => path.join(PACKAGE_ROOT, "..", name, "src") + path.sep);
const pureWorkspaceModules = {
  name: "pure-workspace-modules",
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === "pure" || args.kind !== "import-statement") return undefined;
      const result = await build.resolve(args.path, {
        importer: args.importer,
        resolveDir: args.resolveDir,
        kind: args.kind,
        pluginData: "pure",
      });
      if (result.errors.length > 0) return undefined;
      const pure = WORKSPACE_SRC.some((dir) => result.path.startsWith(dir)) && !result.path.endsWith("zod-config.ts");
      return pure ? { ...result, sideEffects: false } : undefined;
    });
  },
};

/** Build every output; returns their sizes in bytes by path (relative to the package). */
export async function buildAll() {
  const startedAt = new Date();
  const root = PACKAGE_ROOT;
  const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  // Loaded here, not at the top: ensure-built.mjs imports this module on every `pnpm breakpoint`
  // run and should not pay for esbuild when nothing needs building.
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: root,
    entryPoints: {
      breakpoint: path.join(root, "src", "bin.ts"),
      // The matcher lives with the gate (it is `@solserver/gate/vitest` in the workspace).
      vitest: path.join(root, "..", "gate", "src", "vitest-matcher.ts"),
    },
    outdir: path.join(root, "dist"),
    outExtension: { ".js": ".mjs" },
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "bundle",
    legalComments: "none",
    logLevel: "warning",
    define: { __BREAKPOINT_VERSION__: JSON.stringify(pkg.version) },
    plugins: [pureWorkspaceModules],
    // Some bundled CommonJS code may call require() for Node built-ins.
    banner: {
      js: 'import { createRequire as __bpCreateRequire } from "node:module";\nconst require = __bpCreateRequire(import.meta.url);',
    },
  });
  mkdirSync(path.join(root, "dist"), { recursive: true });
  const sizes = {};
  for (const file of result.outputFiles) {
    writeAtomically(file.path, file.contents, startedAt);
    sizes[path.relative(root, file.path)] = file.contents.byteLength;
  }
  const types = readFileSync(path.join(root, "scripts", "vitest.d.ts"));
  writeAtomically(path.join(root, "dist", "vitest.d.ts"), types, startedAt);
  sizes["dist/vitest.d.ts"] = types.byteLength;
  return sizes;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    const sizes = await buildAll();
    if (process.argv.includes("--verbose")) {
      for (const [file, bytes] of Object.entries(sizes))
        console.log(`built ${file} (${(bytes / 1024).toFixed(0)} KiB)`);
    }
  } catch (err) {
    console.error(`breakpoint build failed: ${err instanceof Error ? err.message : err}`);
    process.exit(1);
  }
}
