// The CI workflow features through the real binary: stdin and combined input, presets and
// environments, waivers, --verbose, accept with history, and metrics over stored decisions.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, buildCli, makeTempDir, runCli, SEED, writeFile } from "./helpers";

let tmp: ReturnType<typeof makeTempDir>;

beforeAll(() => {
  buildCli();
  tmp = makeTempDir();
});
afterAll(() => tmp.cleanup());

const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

/** The bin with `input` on stdin. */
function runWithStdin(args: string[], input: string) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    input,
    encoding: "utf8",
    env: { ...process.env, CI: "", GITHUB_ACTIONS: "", BREAKPOINT_PRESET: "", BREAKPOINT_ENV: "" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("combined input and stdin", () => {
  const combined = () => JSON.stringify({ baseline: read(SEED.baseline), candidate: read(SEED.block) });

  it("one file holding { baseline, candidate } decides as the two files do", () => {
    const file = writeFile(tmp.dir, "combined/pair.json", combined());
    const one = runCli(["evaluate", file, "--json"]);
    const two = runCli(["evaluate", SEED.baseline, SEED.block, "--json"]);
    expect(one.code).toBe(2);
    expect(JSON.parse(one.stdout).reason_codes).toEqual(JSON.parse(two.stdout).reason_codes);
    expect(runCli(["evaluate", file]).stdout).toContain(`Candidate: ${file} (candidate)`);
  });

  it("'-' reads the combined input, or one side, from stdin", () => {
    const all = runWithStdin(["evaluate", "-"], combined());
    expect(all.code).toBe(2);
    expect(all.stdout).toContain("Baseline: stdin (baseline)");
    const side = runWithStdin(["evaluate", SEED.baseline, "-", "--json"], readFileSync(SEED.warn, "utf8"));
    expect(side.code).toBe(1);
    expect(JSON.parse(side.stdout).status).toBe("WARN");
  });

  it("input errors name stdin or the combined file, one line, exit 3", () => {
    const half = runWithStdin(["evaluate", "-"], JSON.stringify({ baseline: read(SEED.baseline) }));
    expect(half.code).toBe(3);
    expect(half.stderr).toMatch(/^breakpoint: error: stdin: a single input must hold both records/);
    const bad = runWithStdin(
      ["evaluate", "-"],
      JSON.stringify({ baseline: { output: "a" }, candidate: { output: 3 } }),
    );
    expect(bad.code).toBe(3);
    expect(bad.stderr.trim()).toBe(
      "breakpoint: error: stdin: output must be a string (the model's text output) (field candidate.output)",
    );
    const twice = runWithStdin(["evaluate", "-", "-"], "{}");
    expect(twice.code).toBe(3);
    expect(twice.stderr).toContain("stdin (-) can hold one input");
    const broken = runWithStdin(["evaluate", SEED.baseline, "-"], "{ not json");
    expect(broken.code).toBe(3);
    expect(broken.stderr).toMatch(/stdin: invalid JSON/);
  });
});

describe("presets and environments", () => {
  it("--preset changes the thresholds (Test 2's +25% cost: WARN by default, ALLOW for chatbot)", () => {
    expect(runCli(["evaluate", SEED.baseline, SEED.warn]).code).toBe(1);
    const chatbot = runCli(["evaluate", SEED.baseline, SEED.warn, "--preset", "chatbot"]);
    expect(chatbot.code).toBe(0);
    expect(chatbot.stdout).toContain("Config: (defaults) (preset chatbot)");
    expect(runCli(["evaluate", SEED.baseline, SEED.warn], { env: { BREAKPOINT_PRESET: "chatbot" } }).code).toBe(0);
    const bad = runCli(["evaluate", SEED.baseline, SEED.warn, "--preset", "chat"]);
    expect(bad.code).toBe(3);
    expect(bad.errLines).toHaveLength(1);
    expect(bad.stderr).toContain("chatbot, extraction, support");
    const badEnv = runCli(["evaluate", SEED.baseline, SEED.warn], { env: { BREAKPOINT_PRESET: "chat" } });
    expect(badEnv.code).toBe(3);
    expect(badEnv.stderr).toContain("(option --preset or BREAKPOINT_PRESET)");
  });

  it("--env applies the config's environment; the JSON run names preset and environment", () => {
    const file = writeFile(
      tmp.dir,
      "env/gate.yaml",
      "environments:\n  ci:\n    cost:\n      warn_increase_pct: 30\n    drift:\n      warn_length_delta_pct: 60\n  strictest:\n    cost:\n      block_increase_pct: 10\n",
    );
    expect(runCli(["evaluate", SEED.baseline, SEED.warn, "-c", file]).code).toBe(1);
    expect(runCli(["evaluate", SEED.baseline, SEED.warn, "-c", file, "--env", "ci"]).code).toBe(0);
    const json = JSON.parse(
      runCli(["evaluate", SEED.baseline, SEED.warn, "-c", file, "--env", "strictest", "--json"]).stdout,
    );
    expect(json.status).toBe("BLOCK");
    expect(json.run).toMatchObject({ preset: null, environment: "strictest" });
    expect(
      runCli(["evaluate", SEED.baseline, SEED.warn], { env: { BREAKPOINT_CONFIG: file, BREAKPOINT_ENV: "ci" } }).code,
    ).toBe(0);
    const unknown = runCli(["evaluate", SEED.baseline, SEED.warn, "-c", file, "--env", "prod"]);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr.trim()).toBe(
      `breakpoint: error: ${file}: unknown environment "prod" (defined: ci, strictest) (option --env or BREAKPOINT_ENV)`,
    );
  });

  it("a typo inside an environment names the key path there, with the allowed keys", () => {
    const file = writeFile(tmp.dir, "env/typo.yaml", "environments:\n  ci:\n    cost:\n      warn_pct: 3\n");
    const r = runCli(["evaluate", SEED.baseline, SEED.warn, "-c", file]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain("unknown key (allowed: enforce, warn_increase_pct");
    expect(r.stderr).toContain("(key environments.ci.cost.warn_pct)");
  });

  it("config print resolves preset and environment; config presets lists them", () => {
    const file = writeFile(
      tmp.dir,
      "env/print.yaml",
      "environments:\n  ci:\n    latency:\n      warn_increase_pct: 1\n",
    );
    const printed = JSON.parse(runCli(["config", "print", "-c", file, "--preset", "support", "--env", "ci"]).stdout);
    expect(printed.cost.warn_increase_pct).toBe(25);
    expect(printed.latency).toMatchObject({ warn_increase_pct: 1, block_increase_pct: 80 });
    const presets = runCli(["config", "presets"]);
    expect(presets.code).toBe(0);
    expect(
      presets.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(/\s+/)[0]),
    ).toEqual(["chatbot", "extraction", "support"]);
  });
});

describe("waivers", () => {
  const config = (expires: string) =>
    writeFile(
      tmp.dir,
      `waivers/${expires}.yaml`,
      [
        "waivers:",
        "  - codes: [COST_BLOCK_INCREASE, PII_BLOCK_EMAIL]",
        "    reason: new model under review, see OPS-12",
        "    owner: ana@example.com",
        `    expires_at: ${expires}`,
        "    ticket: OPS-12",
      ].join("\n"),
    );

  it("an active waiver turns Test 3's BLOCK into ALLOW and the report lists it", () => {
    const r = runCli([
      "evaluate",
      SEED.baseline,
      SEED.block,
      "-c",
      config("2026-12-31"),
      "--now",
      "2026-11-27T00:00:00Z",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      "- Waived COST_BLOCK_INCREASE, PII_BLOCK_EMAIL until 2026-12-31 (owner ana@example.com, OPS-12): new model under review, see OPS-12",
    );
    const json = JSON.parse(
      runCli(["evaluate", SEED.baseline, SEED.block, "-c", config("2026-12-31"), "--json"], {
        env: { BREAKPOINT_NOW: "2026-11-27" },
      }).stdout,
    );
    expect(json.waivers.applied).toHaveLength(1);
    expect(json.waivers.applied[0].matched).toEqual(["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"]);
  });

  it("after expires_at the finding counts again and the report says the waiver expired", () => {
    const r = runCli([
      "evaluate",
      SEED.baseline,
      SEED.block,
      "-c",
      config("2026-11-01"),
      "--now",
      "2026-11-27T00:00:00Z",
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain(
      "- Waiver expired on 2026-11-01 (owner ana@example.com): COST_BLOCK_INCREASE, PII_BLOCK_EMAIL counts again",
    );
  });

  it("without --now the clock decides; a bad --now or waiver is exit 3 naming it", () => {
    expect(runCli(["evaluate", SEED.baseline, SEED.block, "-c", config("2999-01-01")]).code).toBe(0);
    const badNow = runCli(["evaluate", SEED.baseline, SEED.block, "--now", "tomorrow"]);
    expect(badNow.code).toBe(3);
    expect(badNow.stderr).toContain("(option --now or BREAKPOINT_NOW)");
    const file = writeFile(
      tmp.dir,
      "waivers/bad.yaml",
      "waivers:\n  - codes: [COST_BLOCK]\n    reason: r\n    owner: o\n    expires_at: 2026-12-31\n",
    );
    const bad = runCli(["evaluate", SEED.baseline, SEED.block, "-c", file]);
    expect(bad.code).toBe(3);
    expect(bad.errLines).toHaveLength(1);
    expect(bad.stderr).toContain('unknown reason code "COST_BLOCK"');
    expect(bad.stderr).toContain("(key waivers.0.codes.0)");
  });

  it("batch applies the same waivers to every pair", () => {
    const dir = path.join(tmp.dir, "waivers/batch");
    writeFile(dir, "a.baseline.json", read(SEED.baseline));
    writeFile(dir, "a.candidate.json", read(SEED.block));
    const r = runCli(["batch", dir, "-c", config("2026-12-31"), "--now", "2026-11-27", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).results[0].decision.waivers.applied).toHaveLength(1);
  });
});

describe("--verbose", () => {
  it("adds each policy's findings with codes and figures, and the records side by side", () => {
    const r = runCli(["evaluate", SEED.baseline, SEED.block, "--verbose"]);
    expect(r.code).toBe(2);
    const details = r.stdout.slice(r.stdout.indexOf("Details:"), r.stdout.indexOf("Summary:"));
    expect(details).toContain("✗ cost (BLOCK): Cost: Delta +40.00%.");
    expect(details).toContain("    - Cost increased by 40.0% (>=40%). [COST_BLOCK_INCREASE]");
    expect(details).toMatch(/figures: .*cost_delta_pct=40/);
    expect(details).toContain("✓ drift (ALLOW)");
    expect(details).toMatch(/Comparison:\n\s+BASELINE\s+CANDIDATE\n\s+characters\s+\d+\s+\d+/);
    expect(details).toMatch(/cost_usd\s+1\s+1\.4/);
    // Without the flag the report is the seed's, unchanged.
    expect(runCli(["evaluate", SEED.baseline, SEED.block]).stdout).not.toContain("Details:");
  });
});

describe("accept and history", () => {
  it("replaces the baseline, keeping every version and a log beside it", () => {
    const dir = path.join(tmp.dir, "accept");
    const baseline = writeFile(dir, "baseline.json", read(SEED.baseline));
    const original = readFileSync(baseline, "utf8");
    const first = runCli(["accept", baseline, SEED.warn, "--reason", "new model is intended"], {
      env: { USER: "ana" },
    });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Baseline updated: ${baseline} <- ${SEED.warn} (version 2;`);
    expect(readFileSync(baseline, "utf8")).toBe(readFileSync(SEED.warn, "utf8"));
    const history = `${baseline}.history`;
    expect(readdirSync(history).sort()).toEqual(["0001.json", "0002.json", "log.jsonl"]);
    expect(readFileSync(path.join(history, "0001.json"), "utf8")).toBe(original);
    // Accepting the same content again changes nothing.
    const again = runCli(["accept", baseline, SEED.warn]);
    expect(again.stdout).toContain("Baseline unchanged");
    expect(readdirSync(history)).toHaveLength(3);
    // The history lists both; a rollback is an accept of an old version.
    const listed = JSON.parse(runCli(["history", baseline, "--json"]).stdout);
    expect(listed.versions).toMatchObject([
      { version: 1, source: "existing baseline", reason: null },
      { version: 2, source: SEED.warn, reason: "new model is intended", by: "ana" },
    ]);
    expect(runCli(["accept", baseline, path.join(history, "0001.json"), "--reason", "rollback"]).code).toBe(0);
    expect(readFileSync(baseline, "utf8")).toBe(original);
    const text = runCli(["history", baseline]).stdout;
    expect(text).toMatch(/\* 0003 .* rollback/);
    expect(text).toMatch(/ {2}0002 /);
  });

  it("a first accept creates the baseline; an invalid candidate is refused and nothing is written", () => {
    const dir = path.join(tmp.dir, "accept-new");
    const baseline = path.join(dir, "baseline.json");
    writeFile(dir, "bad.json", { outptu: "typo" });
    const bad = runCli(["accept", baseline, path.join(dir, "bad.json")]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain("(field candidate.output)");
    expect(existsSync(baseline)).toBe(false);
    expect(existsSync(`${baseline}.history`)).toBe(false);
    const ok = runCli(["accept", baseline, SEED.allow]);
    expect(ok.code).toBe(0);
    expect(readdirSync(`${baseline}.history`).sort()).toEqual(["0001.json", "log.jsonl"]);
    expect(runCli(["history", path.join(dir, "never.json")]).stdout).toContain("no accepted versions yet");
  });
});

describe("metrics", () => {
  it("summarizes stored decisions: counts, codes and their share of blocks, trend by day", () => {
    const dir = path.join(tmp.dir, "metrics");
    const store = (name: string, args: string[], day: string) => {
      const file = writeFile(dir, name, runCli(["evaluate", ...args, "--json"]).stdout);
      const t = new Date(`${day}T12:00:00Z`);
      utimesSync(file, t, t);
    };
    store("1.json", [SEED.baseline, SEED.allow], "2026-11-25");
    store("2.json", [SEED.baseline, SEED.warn], "2026-11-25");
    store("3.json", [SEED.baseline, SEED.block], "2026-11-26");
    store("4.json", [SEED.baseline, SEED.block, "--accept-risk", "pii"], "2026-11-26");
    writeFile(dir, "baseline-copy.json", read(SEED.baseline)); // not a decision: skipped
    const s = JSON.parse(runCli(["metrics", dir, "--json"]).stdout);
    expect(s).toMatchObject({
      files: 5,
      decisions: 4,
      status: { ALLOW: 1, WARN: 1, BLOCK: 2 },
      block_rate: 0.5,
      warn_rate: 0.25,
      accepted_risks: { pii: 1 },
      errors: [],
    });
    expect(s.skipped).toEqual([path.join(dir, "baseline-copy.json")]);
    expect(s.codes.find((c: { code: string }) => c.code === "COST_BLOCK_INCREASE")).toEqual({
      code: "COST_BLOCK_INCREASE",
      decisions: 2,
      share: 0.5,
      in_blocks: 2,
      block_share: 1,
    });
    expect(s.codes.find((c: { code: string }) => c.code === "PII_BLOCK_EMAIL")).toMatchObject({
      decisions: 1,
      block_share: 0.5,
    });
    expect(s.trend).toEqual([
      { day: "2026-11-25", decisions: 2, ALLOW: 1, WARN: 1, BLOCK: 0, block_rate: 0 },
      { day: "2026-11-26", decisions: 2, ALLOW: 0, WARN: 0, BLOCK: 2, block_rate: 1 },
    ]);
    const text = runCli(["metrics", "summarize", dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/COST_BLOCK_INCREASE\s+2\s+50\.0%\s+100\.0%/);
    expect(text.stdout).toMatch(/2026-11-26\s+2\s+0\s+0\s+2\s+100\.0%/);
  });

  it("counts a batch report's pairs; a named file that is no decision is exit 3 with its line", () => {
    const dir = path.join(tmp.dir, "metrics-batch");
    writeFile(dir, "pairs/a.baseline.json", read(SEED.baseline));
    writeFile(dir, "pairs/a.candidate.json", read(SEED.block));
    writeFile(dir, "pairs/b.baseline.json", read(SEED.baseline));
    writeFile(dir, "pairs/b.candidate.json", read(SEED.allow));
    const report = writeFile(dir, "out/batch.json", runCli(["batch", path.join(dir, "pairs"), "--json"]).stdout);
    expect(JSON.parse(runCli(["metrics", report, "--json"]).stdout).status).toEqual({ ALLOW: 1, WARN: 0, BLOCK: 1 });
    const r = runCli(["metrics", report, path.join(dir, "pairs", "a.baseline.json")]);
    expect(r.code).toBe(3);
    expect(r.errLines).toEqual([expect.stringContaining("a.baseline.json: not a decision")]);
    expect(runCli(["metrics", path.join(dir, "missing")]).code).toBe(3);
  });
});
