// Distribution: the bundle is rebuilt only when its sources change (scripts/ensure-built.mjs), and
// `npm pack` makes a tarball that installs offline into an empty folder outside the repository
// and works there: the `breakpoint` bin with its exit codes, and the vitest matcher, typed.
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync } from "node:fs";
import path from "node:path";
import { GATE_PRESETS, ZGateMode } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFixture, makeTempDir, PACKAGE_DIR, runCli, SEED, writeFile } from "./helpers";

const REPO = path.resolve(PACKAGE_DIR, "..", "..");
const PKG = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")) as {
  name: string;
  version: string;
};
const TARBALL = `solserver-breakpoint-${PKG.version}.tgz`;

/** This environment without npm's/pnpm's own variables (a `pnpm exec` parent sets npm_config_*). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_)/i.test(key)) env[key] = value;
  }
  // The bins' `#!/usr/bin/env node` must find this node.
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ""}`;
  return { ...env, CI: "", GITHUB_ACTIONS: "", NO_COLOR: "1", ...extra };
}

function run(command: string, args: string[], cwd: string, env = cleanEnv()): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env });
  if (result.error) throw result.error;
  return result;
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  if (result.status !== 0) throw new Error(`${what} exited ${result.status}: ${result.stderr}${result.stdout}`);
  return result.stdout;
}

/** The string literals of `export type <name> = "a" | "b";` in the hand-written dist types. */
function shippedUnion(name: string): string[] {
  const source = readFileSync(path.join(PACKAGE_DIR, "scripts", "vitest.d.ts"), "utf8");
  const union = new RegExp(`export type ${name} = ([^;]+);`).exec(source)?.[1] ?? "";
  return [...union.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string).sort();
}

describe("ensure-built: the CLI builds once", () => {
  // A copy of the three packages' build inputs (node_modules linked), so the test can add, touch
  // and delete sources without touching the working tree others are editing.
  let copy: ReturnType<typeof makeTempDir>;
  let bp: string;

  beforeAll(() => {
    copy = makeTempDir("breakpoint-ensure-built-");
    for (const name of ["breakpoint", "gate", "contracts"]) {
      const from = path.join(REPO, "packages", name);
      const to = path.join(copy.dir, "packages", name);
      cpSync(path.join(from, "src"), path.join(to, "src"), { recursive: true });
      cpSync(path.join(from, "package.json"), path.join(to, "package.json"));
      symlinkSync(path.join(from, "node_modules"), path.join(to, "node_modules"), "dir");
    }
    bp = path.join(copy.dir, "packages", "breakpoint");
    cpSync(path.join(PACKAGE_DIR, "scripts"), path.join(bp, "scripts"), { recursive: true });
    cpSync(path.join(PACKAGE_DIR, "bin"), path.join(bp, "bin"), { recursive: true });
  });
  afterAll(() => copy.cleanup());

  const ensure = () => ok(run(process.execPath, ["scripts/ensure-built.mjs", "--verbose"], bp), "ensure-built");
  const ensureSays = () => run(process.execPath, ["scripts/ensure-built.mjs", "--verbose"], bp).stderr.trim();
  const age = (file: string) => {
    const old = new Date("2020-01-01T00:00:00Z");
    utimesSync(file, old, old);
  };

  it("builds when an output is missing, then not again until a source changes", () => {
    ensure();
    expect(ensureSays()).toBe("breakpoint: build up to date");
    rmSync(path.join(bp, "dist", "vitest.d.ts"));
    expect(ensureSays()).toBe("breakpoint: built (dist/vitest.d.ts is missing)");
    for (const file of ["breakpoint.mjs", "vitest.mjs", "vitest.d.ts"]) {
      expect(existsSync(path.join(bp, "dist", file)), file).toBe(true);
    }
    expect(ensureSays()).toBe("breakpoint: build up to date");
    const version = runCli(["--version"], { bin: path.join(bp, "bin", "breakpoint.mjs") });
    expect(version.stdout.trim()).toBe(PKG.version);
  });

  it("rebuilds when a source is newer than the bundle: an edit, a new file, a deleted file", () => {
    ensure();
    const bundle = path.join(bp, "dist", "breakpoint.mjs");
    const cases: [string, () => void, RegExp][] = [
      [
        "an edited gate source",
        () => utimesSync(path.join(copy.dir, "packages/gate/src/evaluate.ts"), new Date(), new Date()),
        /gate\/src\/evaluate\.ts changed/,
      ],
      [
        "a new contracts file",
        () => writeFile(path.join(copy.dir, "packages/contracts/src"), "extra.ts", "export {};\n"),
        /contracts\/src(\/extra\.ts)? changed/,
      ],
      [
        "a deleted file",
        () => rmSync(path.join(copy.dir, "packages/contracts/src/extra.ts")),
        /contracts\/src changed/,
      ],
      [
        "an edited package.json",
        () => utimesSync(path.join(bp, "package.json"), new Date(), new Date()),
        /breakpoint\/package\.json changed/,
      ],
    ];
    for (const [what, change, reason] of cases) {
      // Outputs stamped in the past, so the change is newer whatever the clock's granularity.
      for (const file of readdirSync(path.join(bp, "dist"))) age(path.join(bp, "dist", file));
      for (const dir of ["breakpoint", "gate", "contracts"]) ageTree(path.join(copy.dir, "packages", dir));
      expect(ensureSays(), `${what}: nothing changed yet`).toBe("breakpoint: build up to date");
      change();
      expect(ensureSays(), what).toMatch(reason);
      expect(statSync(bundle).mtimeMs, what).toBeGreaterThan(new Date("2020-01-02").getTime());
      expect(ensureSays(), `${what}: once built`).toBe("breakpoint: build up to date");
    }
  });

  /** Every source file and directory of a copied package (not node_modules or dist) to 2019. */
  function ageTree(dir: string): void {
    const old = new Date("2019-01-01T00:00:00Z");
    for (const entry of readdirSync(dir)) {
      if (entry === "node_modules" || entry === "dist") continue;
      const file = path.join(dir, entry);
      if (statSync(file).isDirectory()) ageTree(file);
      utimesSync(file, old, old);
    }
  }

  it("the root `pnpm breakpoint` script runs ensure-built, then the bin, keeping stdout and the exit code", () => {
    const scripts = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")).scripts;
    expect(scripts.breakpoint).toBe(
      "node packages/breakpoint/scripts/ensure-built.mjs && node packages/breakpoint/bin/breakpoint.mjs",
    );
    const block = run("pnpm", ["-s", "breakpoint", "evaluate", SEED.baseline, SEED.block, "--json"], REPO);
    expect(block.status).toBe(2);
    expect(JSON.parse(block.stdout).status).toBe("BLOCK");
  });

  it("the hand-written dist/vitest.d.ts names the gate's modes and presets", () => {
    // It restates the gate's unions (the bundle ships no contracts types): a new preset must reach it.
    expect(shippedUnion("TGatePresetName")).toEqual([...GATE_PRESETS].sort());
    expect(shippedUnion("TGateMode")).toEqual([...ZGateMode.options].sort());
  });
});

describe("npm pack: a tarball that installs and runs on its own", () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let tarball: string;
  let consumer: string;
  let bin: string;
  const manifestBefore = readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8");

  beforeAll(() => {
    tmp = makeTempDir("breakpoint-pack-");
    // prepack builds and swaps in the shipped package.json; postpack restores the repo's.
    ok(run("npm", ["pack", "--pack-destination", tmp.dir], PACKAGE_DIR), "npm pack");
    tarball = path.join(tmp.dir, TARBALL);
    consumer = path.join(tmp.dir, "consumer");
    writeFile(consumer, "package.json", { name: "consumer", version: "1.0.0", private: true, type: "module" });
    // --offline: the tarball needs nothing from a registry (no dependencies; vitest is an optional peer).
    ok(run("npm", ["install", "--offline", "--no-audit", "--no-fund", tarball], consumer), "npm install");
    bin = path.join(consumer, "node_modules", ".bin", "breakpoint");
    copyFixture(SEED.baseline, consumer, "b.json");
    copyFixture(SEED.allow, consumer, "allow.json");
    copyFixture(SEED.warn, consumer, "warn.json");
    copyFixture(SEED.block, consumer, "block.json");
  }, 120_000);
  afterAll(() => {
    // A pack that died between prepack and postpack leaves the repo's manifest aside: put it back.
    run(process.execPath, [path.join(PACKAGE_DIR, "scripts", "pack-manifest.mjs"), "restore"], PACKAGE_DIR);
    tmp?.cleanup();
  });

  it("holds only the bin, the bundles, their types, the README and package.json", () => {
    const files = ok(run("tar", ["-tzf", tarball], tmp.dir), "tar")
      .trim()
      .split("\n")
      .sort();
    expect(files).toEqual([
      "package/README.md",
      "package/bin/breakpoint.mjs",
      "package/dist/breakpoint.mjs",
      "package/dist/vitest.d.ts",
      "package/dist/vitest.mjs",
      "package/package.json",
    ]);
    // Compressed; the bundles carry zod, commander, yaml and the gate.
    expect(statSync(tarball).size).toBeLessThan(1024 * 1024);
  });

  it("ships a package.json that needs neither the registry nor the workspace", () => {
    const installed = path.join(consumer, "node_modules", "@solserver", "breakpoint");
    const shipped = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
    expect(shipped).toMatchObject({ name: PKG.name, version: PKG.version, private: true, type: "module" });
    expect(shipped.bin).toEqual({ breakpoint: "./bin/breakpoint.mjs" });
    expect(shipped.dependencies).toBeUndefined();
    expect(shipped.devDependencies).toBeUndefined();
    expect(shipped.scripts).toBeUndefined();
    expect(JSON.stringify(shipped)).not.toContain("workspace:");
    expect(shipped.exports).toEqual({
      "./vitest": { types: "./dist/vitest.d.ts", default: "./dist/vitest.mjs" },
      "./package.json": "./package.json",
    });
    expect(shipped.peerDependenciesMeta).toEqual({ vitest: { optional: true } });
    // Nothing but the tarball got installed.
    expect(readdirSync(path.join(consumer, "node_modules")).filter((n) => !n.startsWith("."))).toEqual(["@solserver"]);
  });

  it("leaves the repository's package.json as it was", () => {
    expect(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8")).toBe(manifestBefore);
    expect(existsSync(path.join(PACKAGE_DIR, ".package.json.pack-backup"))).toBe(false);
  });

  it("the installed bin decides ALLOW 0, WARN 1, BLOCK 2 and prints its version", () => {
    const cases: [string, number, string][] = [
      ["allow.json", 0, "ALLOW"],
      ["warn.json", 1, "WARN"],
      ["block.json", 2, "BLOCK"],
    ];
    for (const [candidate, code, status] of cases) {
      const result = run(bin, ["evaluate", "b.json", candidate], consumer);
      expect(result.stderr, candidate).toBe("");
      expect(result.status, candidate).toBe(code);
      expect(result.stdout).toContain(`Final Decision: ${status}`);
    }
    const json = run(bin, ["evaluate", "b.json", "block.json", "--json"], consumer);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: "BLOCK",
      exit_code: 2,
      reason_codes: ["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"],
    });
    // As a user would run it.
    const version = run("npx", ["--offline", "--no-install", "breakpoint", "--version"], consumer);
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toBe(PKG.version);
  });

  it("the installed bin reports a bad input as exit 3 with one line", () => {
    writeFile(consumer, "bad.json", { text: "no output" });
    const result = run(bin, ["evaluate", "b.json", "bad.json"], consumer);
    expect(result.status).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "breakpoint: error: bad.json: output must be a string (the model's text output) (field candidate.output)\n",
    );
  });

  it("ships the vitest matcher: @solserver/breakpoint/vitest imports and judges", () => {
    writeFile(
      consumer,
      "check.mjs",
      [
        'import { readFileSync } from "node:fs";',
        'import { gateMatchers, toPassGate } from "@solserver/breakpoint/vitest";',
        'const read = (f) => JSON.parse(readFileSync(f, "utf8"));',
        'const b = read("b.json");',
        'const allow = gateMatchers.toPassGate.call({ isNot: false }, read("allow.json"), b);',
        'const block = toPassGate.call({ isNot: false }, read("block.json"), b);',
        'const warn = toPassGate.call({ isNot: false }, read("warn.json"), b, { failOn: "block" });',
        'const text = toPassGate.call({ isNot: false }, "Hello! How can I help you with your account today?", b.output);',
        "console.log(JSON.stringify({ allow: allow.pass, block: block.pass, warn: warn.pass, text: text.pass, message: block.message() }));",
      ].join("\n"),
    );
    const result = run(process.execPath, ["check.mjs"], consumer);
    expect(result.stderr).toBe("");
    const out = JSON.parse(result.stdout);
    expect(out).toMatchObject({ allow: true, block: false, warn: true, text: true });
    expect(out.message).toContain("but it was BLOCK:");
    expect(out.message).toContain("[PII_BLOCK_EMAIL]");
    // Only ./vitest is exported: the CLI is a bin, not a library, once installed.
    const root = run(
      process.execPath,
      ["--input-type=module", "-e", 'await import("@solserver/breakpoint")'],
      consumer,
    );
    expect(root.status).not.toBe(0);
    expect(root.stderr).toContain("ERR_PACKAGE_PATH_NOT_EXPORTED");
  });

  it("its types and expect.extend work in a TypeScript project running vitest", () => {
    // The consumer's own vitest: the workspace's, linked in (nothing is downloaded).
    symlinkSync(path.join(REPO, "node_modules", "vitest"), path.join(consumer, "node_modules", "vitest"), "dir");
    // The records inline (typed as the shipped TGateRecord), so the project needs no @types/node.
    const record = (file: string) => readFileSync(file, "utf8").trim();
    writeFile(
      consumer,
      "gate.test.ts",
      [
        'import { expect, it } from "vitest";',
        'import { gateMatchers, type TGateRecord, type TPassGateOptions } from "@solserver/breakpoint/vitest";',
        "",
        "expect.extend(gateMatchers);",
        `const baseline: TGateRecord = ${record(SEED.baseline)};`,
        `const allow: TGateRecord = ${record(SEED.allow)};`,
        `const warn: TGateRecord = ${record(SEED.warn)};`,
        `const block: TGateRecord = ${record(SEED.block)};`,
        "",
        'it("passes", () => {',
        "  expect(allow).toPassGate(baseline);",
        '  const options: TPassGateOptions = { failOn: "block", mode: "lite" };',
        "  expect(warn).toPassGate(baseline, options);",
        '  expect({ reply: "Hello! How can I help you with your account today?" }).toEqual({ reply: expect.toPassGate(baseline.output) });',
        "});",
        "",
        'it("fails with the reasons", () => {',
        "  expect(block).not.toPassGate(baseline);",
        "  expect(() => expect(block).toPassGate(baseline)).toThrow(/COST_BLOCK_INCREASE/);",
        '  // @ts-expect-error failOn is "warn" | "block"',
        '  expect(() => expect("x").toPassGate("x", { failOn: "never" })).toThrow(/failOn/);',
        "});",
        "",
      ].join("\n"),
    );
    writeFile(consumer, "tsconfig.json", {
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ["gate.test.ts"],
    });
    const tsc = run(path.join(REPO, "node_modules", ".bin", "tsc"), ["-p", "."], consumer);
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);

    const vitest = run(
      process.execPath,
      [path.join(consumer, "node_modules", "vitest", "vitest.mjs"), "run", "--root", consumer, "--reporter=dot"],
      consumer,
    );
    expect(vitest.stdout + vitest.stderr).toMatch(/Tests\s+2 passed \(2\)/);
    expect(vitest.status).toBe(0);
  });
});
