import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, copyFixture, makeTempDir, runCli, SEED, writeFile } from "./helpers";

let tmp: ReturnType<typeof makeTempDir>;

/** A directory holding the seed's three pairs: allow, block, warn. */
function seedDirectory(name: string, which: readonly ("allow" | "warn" | "block")[] = ["allow", "warn", "block"]) {
  const dir = path.join(tmp.dir, name);
  for (const kind of which) {
    copyFixture(SEED.baseline, dir, `${kind}.baseline.json`);
    copyFixture(SEED[kind], dir, `${kind}.candidate.json`);
  }
  return dir;
}

/** The table row of a pair: "<name>  <DECISION>  <reasons>". */
function row(stdout: string, name: string): string {
  const line = stdout.split("\n").find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no row for ${name} in:\n${stdout}`);
  return line;
}

beforeAll(() => {
  buildCli();
  tmp = makeTempDir("breakpoint-batch-");
});
afterAll(() => tmp.cleanup());

describe("breakpoint batch <directory>", () => {
  it("lists every pair and exits with the worst code", () => {
    const dir = seedDirectory("all");
    writeFile(dir, "README.txt", "not a record");
    const run = runCli(["batch", dir]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(2);
    const out = run.stdout;
    expect(out).toMatch(/^║\s+BreakPoint Batch\s+║$/m);
    expect(out).toContain(`Source: ${dir} (directory, 3 pairs)`);
    expect(out).toMatch(/^NAME\s+DECISION\s+TOP REASONS$/m);
    expect(row(out, "allow")).toMatch(/^allow\s+ALLOW\s+-$/);
    expect(row(out, "warn")).toMatch(/^warn\s+WARN\s+Cost increased by 25\.0% \(>=20%\)\./);
    expect(row(out, "block")).toMatch(/^block\s+BLOCK\s+\S/);
    expect(row(out, "block")).toContain("Cost increased by 40.0% (>=40%).");
    expect(row(out, "block")).toContain("PII detected: EMAIL(1). Total matches: 1.");
    // Sorted by name.
    expect(out.indexOf("\nallow ")).toBeLessThan(out.indexOf("\nblock "));
    expect(out.indexOf("\nblock ")).toBeLessThan(out.indexOf("\nwarn "));
    expect(out).toContain("Totals: 1 ALLOW, 1 WARN, 1 BLOCK, 0 ERROR");
    expect(out).toContain("Exit Code: 2 (worst BLOCK: do not deploy)");
  });

  it("worst code: all ALLOW -> 0, ALLOW + WARN -> 1, --strict -> 2", () => {
    expect(runCli(["batch", seedDirectory("ok", ["allow"])]).code).toBe(0);
    const mixed = seedDirectory("mixed", ["allow", "warn"]);
    expect(runCli(["batch", mixed]).code).toBe(1);
    const strict = runCli(["batch", mixed, "--strict"]);
    expect(strict.code).toBe(2);
    expect(row(strict.stdout, "warn")).toMatch(/^warn\s+BLOCK\s/);
  });

  it("--fail-on block lets a WARN through (exit 0, said so) and still fails on a BLOCK", () => {
    const mixed = seedDirectory("fail-on", ["allow", "warn"]);
    const run = runCli(["batch", mixed, "--fail-on", "block"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Exit Code: 0 (worst WARN: review recommended, not failing (--fail-on block))");
    expect(JSON.parse(runCli(["batch", mixed, "--fail-on=block", "--json"]).stdout).exit_code).toBe(0);
    expect(runCli(["batch", seedDirectory("fail-on-block", ["warn", "block"]), "--fail-on", "block"]).code).toBe(2);
    expect(runCli(["batch", mixed, "--fail-on", "warn"]).code).toBe(1);
  });

  it("--json gives results, worst and exit_code, and nothing else on stdout", () => {
    const run = runCli(["batch", seedDirectory("json"), "--json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("");
    const report = JSON.parse(run.stdout);
    expect(report.worst).toBe("BLOCK");
    expect(report.exit_code).toBe(2);
    expect(report.counts).toEqual({ ALLOW: 1, WARN: 1, BLOCK: 1, ERROR: 0 });
    expect(report.source.kind).toBe("directory");
    expect(
      report.results.map((r: { name: string; status: string; exit_code: number }) => [r.name, r.status, r.exit_code]),
    ).toEqual([
      ["allow", "ALLOW", 0],
      ["block", "BLOCK", 2],
      ["warn", "WARN", 1],
    ]);
    const block = report.results[1];
    expect(block.error).toBeNull();
    expect(block.decision.reason_codes).toEqual(expect.arrayContaining(["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"]));
  });

  it("a broken pair exits 3 after evaluating the others, which are still reported", () => {
    const dir = seedDirectory("broken");
    writeFile(dir, "bad-json.baseline.json", { output: "Hello" });
    writeFile(dir, "bad-json.candidate.json", '{ "output": "Hi", }');
    writeFile(dir, "lonely.baseline.json", { output: "Hello" });
    writeFile(dir, "no-output.baseline.json", { output: "Hello" });
    writeFile(dir, "no-output.candidate.json", { text: "Hello" });

    const run = runCli(["batch", dir]);
    expect(run.code).toBe(3);
    expect(row(run.stdout, "allow")).toMatch(/^allow\s+ALLOW/);
    expect(row(run.stdout, "block")).toMatch(/^block\s+BLOCK/);
    expect(row(run.stdout, "warn")).toMatch(/^warn\s+WARN/);
    const badJson = path.join(dir, "bad-json.candidate.json");
    expect(row(run.stdout, "bad-json")).toContain(`ERROR     ${badJson}: invalid JSON`);
    expect(row(run.stdout, "lonely")).toContain(`${path.join(dir, "lonely.candidate.json")}: missing`);
    expect(row(run.stdout, "no-output")).toContain("(field candidate.output)");
    expect(run.stdout).toContain("Totals: 1 ALLOW, 1 WARN, 1 BLOCK, 3 ERROR");
    expect(run.stdout).toContain("Exit Code: 3 (input error: 3 pairs could not be evaluated)");
    // One stderr line per broken pair, naming the pair and the file.
    expect(run.errLines).toHaveLength(3);
    expect(run.errLines[0]).toMatch(new RegExp(`^breakpoint: error: bad-json: ${escapeRegExp(badJson)}: invalid JSON`));
    expect(run.errLines[1]).toMatch(/^breakpoint: error: lonely: .*lonely\.candidate\.json: missing/);
    expect(run.errLines[2]).toMatch(
      /^breakpoint: error: no-output: .*no-output\.candidate\.json: .*\(field candidate\.output\)$/,
    );

    const json = JSON.parse(runCli(["batch", dir, "--json"]).stdout);
    expect(json.exit_code).toBe(3);
    expect(json.worst).toBe("BLOCK");
    expect(json.counts.ERROR).toBe(3);
    const broken = json.results.find((r: { name: string }) => r.name === "bad-json");
    expect(broken).toMatchObject({ status: "ERROR", exit_code: 3, decision: null });
    expect(broken.error).toContain(badJson);
  });

  it("a directory with no pairs, or a missing path, exits 3 with one line", () => {
    const empty = path.join(tmp.dir, "empty-dir");
    writeFile(empty, "notes.txt", "nothing here");
    const run = runCli(["batch", empty]);
    expect(run.code).toBe(3);
    expect(run.errLines).toHaveLength(1);
    expect(run.errLines[0]).toContain(`${empty}: no pairs found`);
    const missing = runCli(["batch", path.join(tmp.dir, "nowhere")]);
    expect(missing.code).toBe(3);
    expect(missing.errLines).toHaveLength(1);
    expect(missing.errLines[0]).toContain("nowhere: no such file or directory");
  });

  it("--config applies to every pair", () => {
    const dir = seedDirectory("config");
    const config = writeFile(
      tmp.dir,
      "relax.yaml",
      "pii:\n  enforce: 'off'\ncost:\n  warn_increase_pct: 50\n  block_increase_pct: 60\ndrift:\n  warn_length_delta_pct: 60\n",
    );
    const run = runCli(["batch", dir, "--config", config, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).counts).toEqual({ ALLOW: 3, WARN: 0, BLOCK: 0, ERROR: 0 });
  });
});

describe("breakpoint batch <manifest>", () => {
  it("reads a YAML manifest with paths relative to it", () => {
    const dir = path.join(tmp.dir, "manifest-yaml");
    copyFixture(SEED.baseline, dir, "records/baseline.json");
    copyFixture(SEED.allow, dir, "records/v2-ok.json");
    copyFixture(SEED.warn, dir, "records/v2-wordy.json");
    const manifest = writeFile(
      dir,
      "ci/breakpoint.yaml",
      [
        "pairs:",
        "  - name: greeting",
        "    baseline: ../records/baseline.json",
        "    candidate: ../records/v2-ok.json",
        "  - name: wordy",
        "    baseline: ../records/baseline.json",
        "    candidate: ../records/v2-wordy.json",
        "",
      ].join("\n"),
    );
    const run = runCli(["batch", manifest]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`Source: ${manifest} (manifest, 2 pairs)`);
    expect(row(run.stdout, "greeting")).toMatch(/^greeting\s+ALLOW\s+-$/);
    expect(row(run.stdout, "wordy")).toMatch(/^wordy\s+WARN\s/);
    // Manifest order is kept; paths are shown resolved against the manifest.
    const json = JSON.parse(runCli(["batch", manifest, "--json"]).stdout);
    expect(json.results.map((r: { name: string }) => r.name)).toEqual(["greeting", "wordy"]);
    expect(json.results[0].candidate).toBe(path.join(dir, "records", "v2-ok.json"));
  });

  it("reads a JSON manifest; a pair pointing at a missing file is an ERROR row", () => {
    const dir = path.join(tmp.dir, "manifest-json");
    copyFixture(SEED.baseline, dir, "baseline.json");
    copyFixture(SEED.block, dir, "block.json");
    const manifest = writeFile(dir, "pairs.json", {
      pairs: [
        { name: "block", baseline: "baseline.json", candidate: "block.json" },
        { name: "ghost", baseline: "baseline.json", candidate: "ghost.json" },
      ],
    });
    const run = runCli(["batch", manifest]);
    expect(run.code).toBe(3);
    expect(row(run.stdout, "block")).toMatch(/^block\s+BLOCK/);
    expect(row(run.stdout, "ghost")).toContain(`${path.join(dir, "ghost.json")}: cannot read file: no such file`);
    expect(run.errLines).toEqual([
      `breakpoint: error: ghost: ${path.join(dir, "ghost.json")}: cannot read file: no such file`,
    ]);
  });

  it("an invalid manifest exits 3 naming the file and the key", () => {
    const dir = path.join(tmp.dir, "manifest-bad");
    const cases: [string, string][] = [
      ["pairs:\n  - name: a\n    baseline: b.json\n", "pairs[0].candidate"],
      ["pairz: []\n", "pairz"],
      ["pairs: []\n", "at least one pair"],
      [
        "pairs:\n  - { name: a, baseline: b.json, candidate: c.json }\n  - { name: a, baseline: b.json, candidate: d.json }\n",
        "pairs[1].name",
      ],
      ["pairs: [\n", "invalid YAML"],
    ];
    cases.forEach(([text, fragment], i) => {
      const manifest = writeFile(dir, `m${i}.yaml`, text);
      const run = runCli(["batch", manifest]);
      expect(run.code, text).toBe(3);
      expect(run.stdout, text).toBe("");
      expect(run.errLines, text).toHaveLength(1);
      expect(run.errLines[0]).toContain(manifest);
      expect(run.errLines[0]).toContain(fragment);
    });
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
