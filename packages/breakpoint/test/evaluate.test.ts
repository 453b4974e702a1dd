import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { ZGateDecision } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, makeTempDir, PACKAGE_DIR, runCli, SEED, writeFile } from "./helpers";

let tmp: ReturnType<typeof makeTempDir>;

beforeAll(() => {
  buildCli();
  tmp = makeTempDir();
});
afterAll(() => tmp.cleanup());

describe("breakpoint evaluate: the seed's three cases through the real binary", () => {
  it("Test 1: ALLOW exits 0 with every policy ✓", () => {
    const run = runCli(["evaluate", SEED.baseline, SEED.allow]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^╔═+╗$/);
    expect(lines[1]).toMatch(/^║\s+BreakPoint Evaluation\s+║$/);
    expect(lines[2]).toMatch(/^╚═+╝$/);
    expect(lines).toContain("Mode: lite");
    expect(lines).toContain("Strict: no");
    expect(lines).toContain("Final Decision: ALLOW");
    const policyLines = lines.filter((l) => /^[✓!✗] /.test(l));
    expect(policyLines).toHaveLength(3);
    for (const line of policyLines) expect(line.startsWith("✓ ")).toBe(true);
    expect(lines).toContain("- All policies passed.");
    expect(lines).toContain("Exit Code: 0 (ALLOW: safe to deploy)");
    expect(lines.at(-2)).toMatch(/^═+$/);
  });

  it("Test 2: WARN exits 1, WARN policies marked !", () => {
    const run = runCli(["evaluate", SEED.baseline, SEED.warn]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("Final Decision: WARN");
    expect(run.stdout).toContain("! Cost: Delta +25.00%.");
    expect(run.stdout).toMatch(/^! Output drift: .+$/m);
    expect(run.stdout).toMatch(/^✓ No PII detected/m);
    expect(run.stdout).toContain("Exit Code: 1 (WARN: review recommended)");
  });

  it("Test 3: BLOCK exits 2 with the seed's report lines", () => {
    const run = runCli(["evaluate", SEED.baseline, SEED.block]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(2);
    const out = run.stdout;
    expect(out).toContain("Final Decision: BLOCK");
    expect(out).toContain("Policy Results:\n");
    expect(out).toContain("✗ No PII detected: Detected 1 match(es).\n");
    expect(out).toContain("✗ Cost: Delta +40.00%.\n");
    expect(out).toContain("✓ Output drift: No issues.\n");
    // The summary lists the decision's reasons in the gate's report order.
    const summary = out.slice(out.indexOf("Summary:\n"), out.indexOf("\nExit Code:")).trim().split("\n");
    expect(summary[0]).toBe("Summary:");
    expect(summary.slice(1).sort()).toEqual([
      "- Cost increased by 40.0% (>=40%).",
      "- PII detected: EMAIL(1). Total matches: 1.",
    ]);
    expect(out).toContain("Exit Code: 2 (BLOCK: do not deploy)");
    expect(out).toContain(`Baseline: ${SEED.baseline} (gpt-4.1-mini)`);
  });

  it("--json prints only the decision (valid ZGateDecision) plus exit_code", () => {
    const run = runCli(["evaluate", SEED.baseline, SEED.block, "--json"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("");
    const parsed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(parsed.exit_code).toBe(2);
    const decision = ZGateDecision.parse(parsed);
    expect(decision.status).toBe("BLOCK");
    expect([...decision.reasons].sort()).toEqual([
      "Cost increased by 40.0% (>=40%).",
      "PII detected: EMAIL(1). Total matches: 1.",
    ]);
    expect(decision.reason_codes).toEqual(expect.arrayContaining(["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"]));
    expect(decision.metrics.cost_delta_pct).toBeCloseTo(40, 6);
    expect(decision.metadata).toMatchObject({ mode: "lite", strict: false, candidate_model: "gpt-4.1-mini" });

    const allow = runCli(["evaluate", SEED.baseline, SEED.allow, "--json"]);
    expect(allow.code).toBe(0);
    expect(JSON.parse(allow.stdout)).toMatchObject({ status: "ALLOW", exit_code: 0, reasons: [] });
  });

  it("--strict turns WARN into BLOCK (exit 2)", () => {
    const run = runCli(["evaluate", SEED.baseline, SEED.warn, "--strict"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("Strict: yes (WARN counts as BLOCK)");
    expect(run.stdout).toContain("Final Decision: BLOCK");
    expect(run.stdout).toContain("Exit Code: 2");
    const json = runCli(["evaluate", SEED.baseline, SEED.warn, "--strict", "--json"]);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: "BLOCK", exit_code: 2, metadata: { strict: true } });
    // --strict leaves ALLOW alone.
    expect(runCli(["evaluate", SEED.baseline, SEED.allow, "--strict"]).code).toBe(0);
  });

  it("runs from another working directory with relative paths", () => {
    const dir = path.join(tmp.dir, "cwd-test");
    mkdirSync(dir, { recursive: true });
    copyFileSync(SEED.baseline, path.join(dir, "a.json"));
    copyFileSync(SEED.block, path.join(dir, "b.json"));
    const run = runCli(["evaluate", "a.json", "b.json"], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("Candidate: b.json (gpt-4.1-mini)");
  });
});

describe("breakpoint evaluate --fail-on", () => {
  it("block: a WARN exits 0 and says why; a BLOCK still exits 2; warn (the default) exits 1 on a WARN", () => {
    const warn = runCli(["evaluate", SEED.baseline, SEED.warn, "--fail-on", "block"]);
    expect(warn.stderr).toBe("");
    expect(warn.code).toBe(0);
    expect(warn.stdout).toContain("Final Decision: WARN");
    expect(warn.stdout).toContain("Exit Code: 0 (WARN: review recommended, not failing (--fail-on block))");
    expect(
      JSON.parse(runCli(["evaluate", SEED.baseline, SEED.warn, "--fail-on", "block", "--json"]).stdout),
    ).toMatchObject({
      status: "WARN",
      exit_code: 0,
    });
    expect(runCli(["evaluate", SEED.baseline, SEED.block, "--fail-on", "block"]).code).toBe(2);
    expect(runCli(["evaluate", SEED.baseline, SEED.warn, "--fail-on", "warn"]).code).toBe(1);
    expect(runCli(["evaluate", SEED.baseline, SEED.warn]).code).toBe(1);
    // --strict promotes first: a WARN is a BLOCK, and fails even with --fail-on block.
    expect(runCli(["evaluate", SEED.baseline, SEED.warn, "--strict", "--fail-on", "block"]).code).toBe(2);
  });

  it("an unknown level is an input error: exit 3 with one line naming the option", () => {
    const bad = runCli(["evaluate", SEED.baseline, SEED.warn, "--fail-on", "never"]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/--fail-on/);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("breakpoint evaluate --accept-risk", () => {
  it("accepts a named policy's BLOCK for this run only, and says so in the report and the JSON", () => {
    // Test 3 blocks on cost (+40%) and PII; accepting only cost still BLOCKs on PII.
    const onlyCost = runCli(["evaluate", SEED.baseline, SEED.block, "--accept-risk", "cost"]);
    expect(onlyCost.code).toBe(2);
    expect(onlyCost.stdout).toContain(
      "- Accepted risk (--accept-risk cost): was BLOCK: Cost increased by 40.0% (>=40%).",
    );
    const both = runCli([
      "evaluate",
      SEED.baseline,
      SEED.block,
      "--accept-risk",
      "cost",
      "--accept-risk",
      "pii",
      "--json",
    ]);
    expect(both.code).toBe(0);
    const json = JSON.parse(both.stdout);
    expect(json.status).toBe("ALLOW");
    expect(json.reason_codes).toEqual([]);
    expect(json.accepted_risks.map((r: { policy: string; was: string }) => [r.policy, r.was])).toEqual([
      ["cost", "BLOCK"],
      ["pii", "BLOCK"],
    ]);
    // Nothing is remembered: the next run judges again.
    expect(runCli(["evaluate", SEED.baseline, SEED.block]).code).toBe(2);
  });

  it("an unknown policy is an input error (exit 3, one line)", () => {
    const bad = runCli(["evaluate", SEED.baseline, SEED.block, "--accept-risk", "everything"]);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/--accept-risk/);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("the JSON report's schema version and run metadata", () => {
  it("is byte-identical for identical input; the run id follows what was judged", () => {
    const a = runCli(["evaluate", SEED.baseline, SEED.warn, "--json"]);
    const b = runCli(["evaluate", SEED.baseline, SEED.warn, "--json"]);
    expect(a.stdout).toBe(b.stdout);
    const json = JSON.parse(a.stdout);
    expect(Object.keys(json)[0]).toBe("schema_version");
    expect(json.schema_version).toBe("1");
    expect(json.run).toEqual({
      run_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      project: null,
      ci: null,
      preset: null,
      environment: null,
    });
    const other = JSON.parse(runCli(["evaluate", SEED.baseline, SEED.block, "--json"]).stdout);
    expect(other.run.run_id).not.toBe(json.run.run_id);
    const strict = JSON.parse(runCli(["evaluate", SEED.baseline, SEED.warn, "--json", "--strict"]).stdout);
    expect(strict.run.run_id).not.toBe(json.run.run_id);
  });

  it("names the project and the CI run from GitHub Actions' variables", () => {
    const run = runCli(["evaluate", SEED.baseline, SEED.warn, "--json"], {
      env: {
        GITHUB_ACTIONS: "true",
        GITHUB_REPOSITORY: "acme/support-bot",
        GITHUB_SHA: "abc123",
        GITHUB_REF: "refs/pull/7/merge",
        GITHUB_SERVER_URL: "https://github.com",
        GITHUB_RUN_ID: "42",
      },
    });
    expect(JSON.parse(run.stdout).run).toMatchObject({
      project: "acme/support-bot",
      ci: {
        provider: "github-actions",
        commit: "abc123",
        ref: "refs/pull/7/merge",
        run_url: "https://github.com/acme/support-bot/actions/runs/42",
      },
    });
  });
});

describe("breakpoint config print", () => {
  it("prints the effective config: the defaults, merged with -c FILE", () => {
    const defaults = runCli(["config", "print"]);
    expect(defaults.code).toBe(0);
    const parsed = JSON.parse(defaults.stdout);
    expect(parsed.cost).toMatchObject({ enforce: "block" });
    expect(parsed.pii.types).toEqual(["EMAIL", "PHONE", "CREDIT_CARD", "SSN"]);
    const file = writeFile(tmp.dir, "print/gate.yaml", "cost:\n  block_increase_pct: 50\n");
    const merged = JSON.parse(runCli(["config", "print", "-c", file]).stdout);
    expect(merged.cost.block_increase_pct).toBe(50);
    expect(merged.pii).toEqual(parsed.pii);
  });

  it("an invalid config exits 3 with one line naming the file and the field", () => {
    const file = writeFile(tmp.dir, "print/bad.yaml", "cost:\n  block_increase_pct: -5\n");
    const bad = runCli(["config", "print", "-c", file]);
    expect(bad.code).toBe(3);
    expect(bad.errLines).toHaveLength(1);
    expect(bad.stderr).toContain("bad.yaml");
    expect(bad.stderr).toContain("block_increase_pct");
  });
});

describe("breakpoint evaluate --config", () => {
  const contractBaseline = { output: '{"ticket_summary":"Login fails after reset","severity":"medium"}', cost_usd: 1 };
  const contractCandidate = { output: '{"ticket_summary":"Login fails after a reset","sev":"medium"}', cost_usd: 1 };

  it("--mode full with a YAML config enforcing an output contract blocks a missing key", () => {
    const base = writeFile(tmp.dir, "contract/baseline.json", contractBaseline);
    const cand = writeFile(tmp.dir, "contract/candidate.json", contractCandidate);
    const config = writeFile(
      tmp.dir,
      "contract/gate.yaml",
      "# the candidate must stay a ticket object\noutput_contract:\n  json: true\n  required_keys: [ticket_summary, severity]\n  types:\n    ticket_summary: string\n",
    );
    const lite = runCli(["evaluate", base, cand]);
    expect(lite.code).toBe(0);

    const full = runCli(["evaluate", base, cand, "--mode", "full", "--config", config]);
    expect(full.stderr).toBe("");
    expect(full.code).toBe(2);
    expect(full.stdout).toContain("Mode: full");
    expect(full.stdout).toContain(`Config: ${config}`);
    expect(full.stdout).toMatch(/^✗ .*[Cc]ontract.*$/m);
    expect(full.stdout).toContain("severity");

    const json = JSON.parse(runCli(["evaluate", base, cand, "--mode=full", "-c", config, "--json"]).stdout);
    expect(json.status).toBe("BLOCK");
    expect(json.metadata.policies).toContain("output_contract");
    expect(json.policies.find((p: { policy: string }) => p.policy === "output_contract").status).toBe("BLOCK");

    // The same candidate with the key restored passes the contract.
    const fixed = writeFile(tmp.dir, "contract/fixed.json", contractBaseline);
    expect(runCli(["evaluate", base, fixed, "--mode", "full", "--config", config]).code).toBe(0);
  });

  it("--mode full without a config infers the contract from a JSON baseline (exit 2 on a lost key)", () => {
    const base = writeFile(tmp.dir, "inferred/baseline.json", contractBaseline);
    const cand = writeFile(tmp.dir, "inferred/candidate.json", contractCandidate);
    const full = runCli(["evaluate", base, cand, "--mode", "full", "--json"]);
    expect(full.code).toBe(2);
    const contract = JSON.parse(full.stdout).policies.find((p: { policy: string }) => p.policy === "output_contract");
    expect(contract).toMatchObject({ status: "BLOCK", codes: ["CONTRACT_BLOCK_MISSING_KEY"] });
    expect(contract.details).toMatchObject({ contract: "inferred from the baseline", missing_keys: ["severity"] });
    const same = writeFile(tmp.dir, "inferred/same.json", contractBaseline);
    expect(runCli(["evaluate", base, same, "--mode", "full"]).code).toBe(0);
  });

  it("a JSON config changes thresholds (PII off, cost block at 50%: Test 3 becomes WARN)", () => {
    const config = writeFile(tmp.dir, "relaxed.json", { pii: { enforce: "off" }, cost: { block_increase_pct: 50 } });
    const run = runCli(["evaluate", SEED.baseline, SEED.block, "--config", config, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(1);
    const decision = JSON.parse(run.stdout);
    expect(decision.status).toBe("WARN");
    expect(decision.metadata.policies).not.toContain("pii");
  });

  it("an empty YAML config is the default config", () => {
    const config = writeFile(tmp.dir, "empty.yaml", "# nothing\n");
    expect(runCli(["evaluate", SEED.baseline, SEED.block, "--config", config]).code).toBe(2);
  });

  it("an invalid config value exits 3 naming the file and the key path", () => {
    const config = writeFile(tmp.dir, "bad-value.yaml", "cost:\n  warn_increase_pct: -5\n");
    const run = runCli(["evaluate", SEED.baseline, SEED.block, "--config", config]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.errLines).toHaveLength(1);
    expect(run.errLines[0]).toMatch(/^breakpoint: error: /);
    expect(run.errLines[0]).toContain(config);
    expect(run.errLines[0]).toContain("cost.warn_increase_pct");
  });

  it("an unknown config key exits 3 naming it", () => {
    const config = writeFile(tmp.dir, "bad-key.yml", "drift:\n  warn_length_pct: 10\n");
    const run = runCli(["evaluate", SEED.baseline, SEED.block, "--config", config]);
    expect(run.code).toBe(3);
    expect(run.errLines).toHaveLength(1);
    expect(run.errLines[0]).toContain(config);
    expect(run.errLines[0]).toContain("warn_length_pct");
  });

  it("invalid YAML and a missing config file exit 3 with one line naming the file", () => {
    const config = writeFile(tmp.dir, "broken.yaml", "cost:\n  warn_increase_pct: [1, 2\n");
    const run = runCli(["evaluate", SEED.baseline, SEED.block, "--config", config]);
    expect(run.code).toBe(3);
    expect(run.errLines).toHaveLength(1);
    expect(run.errLines[0]).toContain(`${config}: invalid YAML`);

    const missing = path.join(tmp.dir, "nope.yaml");
    const run2 = runCli(["evaluate", SEED.baseline, SEED.block, "--config", missing]);
    expect(run2.code).toBe(3);
    expect(run2.errLines).toEqual([`breakpoint: error: ${missing}: cannot read file: no such file`]);
  });
});

describe("breakpoint evaluate: input errors exit 3 with exactly one stderr line", () => {
  const expectInputError = (args: string[], ...fragments: string[]) => {
    const run = runCli(args);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe("");
    expect(run.errLines).toHaveLength(1);
    expect(run.errLines[0]).toMatch(/^breakpoint: error: /);
    for (const fragment of fragments) expect(run.errLines[0]).toContain(fragment);
    return run.errLines[0] ?? "";
  };

  it("a missing file", () => {
    const missing = path.join(tmp.dir, "missing.json");
    const line = expectInputError(["evaluate", SEED.baseline, missing], missing);
    expect(line).toBe(`breakpoint: error: ${missing}: cannot read file: no such file`);
  });

  it("a directory instead of a file", () => {
    expectInputError(["evaluate", tmp.dir, SEED.block], tmp.dir, "is a directory");
  });

  it("invalid JSON, with its line and column", () => {
    const file = writeFile(tmp.dir, "invalid.json", '{\n  "output": "hi",\n  "cost_usd": ,\n}\n');
    expectInputError(["evaluate", SEED.baseline, file], `${file}: invalid JSON`, "line 3");
  });

  it("an empty file", () => {
    const file = writeFile(tmp.dir, "empty.json", "");
    expectInputError(["evaluate", file, SEED.block], `${file}: invalid JSON: the file is empty`);
  });

  it("a record without output", () => {
    const file = writeFile(tmp.dir, "no-output.json", { cost_usd: 1 });
    expectInputError(["evaluate", SEED.baseline, file], file, "(field candidate.output)");
  });

  it("a non-string output", () => {
    const file = writeFile(tmp.dir, "number-output.json", { output: 42 });
    const line = expectInputError(["evaluate", file, SEED.block], file, "(field baseline.output)");
    expect(line).toContain("output must be a string");
  });

  it("a JSON value that is not an object", () => {
    const file = writeFile(tmp.dir, "array.json", [{ output: "hi" }]);
    expectInputError(["evaluate", SEED.baseline, file], file, "got an array", "field candidate");
  });

  it("--json keeps stdout empty on an input error", () => {
    const file = writeFile(tmp.dir, "no-output2.json", {});
    expectInputError(["evaluate", SEED.baseline, file, "--json"], file);
  });
});

describe("breakpoint: usage", () => {
  it("unknown option, missing argument, bad --mode, extra argument, unknown or missing command exit 3 with one line", () => {
    const cases: [string[], string][] = [
      [["evaluate", SEED.baseline, SEED.block, "--frobnicate"], "unknown option '--frobnicate'"],
      // One input is a combined { baseline, candidate } file: a plain record is not one.
      [["evaluate", SEED.baseline], "a single input must hold both records"],
      [["evaluate"], "missing required argument 'baseline'"],
      [["evaluate", SEED.baseline, SEED.block, "--mode", "heavy"], "heavy"],
      [["evaluate", SEED.baseline, SEED.block, SEED.allow], "too many arguments"],
      [["evaluate", SEED.baseline, SEED.block, "--config"], "--config"],
      [["evalute", "a", "b"], "unknown command 'evalute'"],
      [[], "missing command"],
    ];
    for (const [args, fragment] of cases) {
      const run = runCli(args);
      expect(run.code, args.join(" ")).toBe(3);
      expect(run.stdout, args.join(" ")).toBe("");
      expect(run.errLines, args.join(" ")).toHaveLength(1);
      expect(run.errLines[0]).toMatch(/^breakpoint: error: /);
      expect(run.errLines[0]).toContain(fragment);
    }
  });

  it("--help and --version exit 0", () => {
    const help = runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: breakpoint");
    expect(help.stdout).toContain("evaluate");
    expect(help.stdout).toContain("batch");
    expect(help.stdout).toContain("Exit codes:");
    const evalHelp = runCli(["evaluate", "--help"]);
    expect(evalHelp.code).toBe(0);
    expect(evalHelp.stdout).toContain("--strict");
    expect(evalHelp.stdout).toContain("--config");
    const version = runCli(["--version"]);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("the launcher without a build exits 4 with one line saying how to build", () => {
    const bin = path.join(tmp.dir, "unbuilt", "bin", "breakpoint.mjs");
    mkdirSync(path.dirname(bin), { recursive: true });
    copyFileSync(path.join(PACKAGE_DIR, "bin", "breakpoint.mjs"), bin);
    const run = runCli(["--version"], { bin });
    expect(run.code).toBe(4);
    expect(run.stdout).toBe("");
    expect(run.errLines).toHaveLength(1);
    expect(run.errLines[0]).toContain("pnpm --filter @solserver/breakpoint build");
  });
});
