// The GitHub Action (action.yml at the repo root): its declared inputs and outputs agree with
// what its steps and action/run.mjs use, the example workflow calls it with real inputs, and
// run.mjs itself, run the way the composite step runs it (INPUT_* variables, GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY files), gates real records with the real CLI.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildCli, copyFixture, makeTempDir, PACKAGE_DIR, SEED, writeFile } from "./helpers";

const REPO = path.resolve(PACKAGE_DIR, "..", "..");
const RUN_SCRIPT = path.join(PACKAGE_DIR, "action", "run.mjs");

type TStep = {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
  "working-directory"?: string;
};
type TAction = {
  name: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: TStep[] };
};

const action = parse(readFileSync(path.join(REPO, "action.yml"), "utf8")) as TAction;
const workflow = parse(readFileSync(path.join(REPO, "examples", "ci", "breakpoint-gate.yml"), "utf8")) as {
  jobs: Record<string, { steps: TStep[] }>;
};
const declared = Object.keys(action.inputs).sort();

/** Every string in a parsed YAML value. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** The names `<context>.<name>` refers to inside `${{ }}` expressions. */
function referenced(texts: string[], context: RegExp): string[] {
  const names = new Set<string>();
  for (const text of texts) {
    for (const [, expression] of text.matchAll(/\$\{\{(.*?)\}\}/gs)) {
      for (const m of (expression ?? "").matchAll(context)) names.add(m[1] as string);
    }
  }
  return [...names].sort();
}

const envName = (input: string) => `INPUT_${input.toUpperCase().replaceAll("-", "_")}`;

describe("action.yml", () => {
  it("is a composite action whose run steps all name a shell", () => {
    expect(action.runs.using).toBe("composite");
    for (const step of action.runs.steps) {
      if (step.run !== undefined) expect(step.shell, `step ${step.name}`).toBe("bash");
    }
  });

  it("declares every input its steps use, and uses every input it declares", () => {
    const used = referenced(strings(action.runs.steps), /\binputs\.([A-Za-z0-9_-]+)/g);
    expect(used).toEqual(declared);
    for (const [name, spec] of Object.entries(action.inputs)) {
      expect(spec.description, name).toBeTruthy();
      expect(spec.required ?? false, `${name}: one of several ways to give the records, none required`).toBe(false);
    }
  });

  it("hands each input to run.mjs as INPUT_<NAME>", () => {
    // That run.mjs acts on each of them is shown by the runs below (the stub CLI's arguments).
    const gate = action.runs.steps.find((s) => s.id === "gate");
    expect(gate?.run).toBe(`node "\${{ github.action_path }}/packages/breakpoint/action/run.mjs"`);
    expect(gate?.env).toEqual(Object.fromEntries(declared.map((name) => [envName(name), `\${{ inputs.${name} }}`])));
  });

  it("maps its outputs to the run step's, and every file its steps run exists", () => {
    const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
    for (const [name, spec] of Object.entries(action.outputs)) {
      const m = /^\$\{\{ steps\.([a-z-]+)\.outputs\.([a-z-]+) \}\}$/.exec(spec.value);
      expect(m, name).not.toBeNull();
      expect(ids.has(m?.[1])).toBe(true);
      expect(m?.[2]).toBe(name);
    }
    expect(Object.keys(action.outputs).sort()).toEqual(["exit-code", "report", "status"]);
    const runs = action.runs.steps.flatMap((s) => (s.run ? [s.run] : []));
    const files = runs.flatMap((run) => [
      ...[...run.matchAll(/\$\{\{ github\.action_path \}\}\/(\S+?)"/g)].map((m) => m[1] as string),
      ...[...run.matchAll(/\bnode (packages\/\S+)/g)].map((m) => m[1] as string),
    ]);
    expect(files.sort()).toEqual([
      "packages/breakpoint/action/run.mjs",
      "packages/breakpoint/scripts/ensure-built.mjs",
    ]);
    for (const file of files) expect(existsSync(path.join(REPO, file)), file).toBe(true);
  });

  it("sets up Node only when the runner's is older than the CLI needs", () => {
    const check = action.runs.steps.find((s) => s.id === "node");
    const setup = action.runs.steps.find((s) => s.uses?.startsWith("actions/setup-node@"));
    expect(setup?.if).toBe("steps.node.outputs.setup == 'true'");
    // The check's node one-liner, run here (Node >= 20.19 runs the tests): exit 0 = no setup.
    const script = /node -e '([^']+)'/.exec(check?.run ?? "")?.[1] ?? "";
    expect(script).not.toBe("");
    expect(spawnSync(process.execPath, ["-e", script]).status).toBe(0);
    const pkg = JSON.parse(readFileSync(path.join(PACKAGE_DIR, "package.json"), "utf8"));
    expect(pkg.engines.node).toBe(">=20.19");
  });
});

describe("examples/ci/breakpoint-gate.yml", () => {
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
  const gateSteps = steps.filter((s) => s.uses === "./");

  it("uses this repository's action with declared inputs, one way of giving the records", () => {
    expect(gateSteps).toHaveLength(1);
    const inputs = Object.keys(gateSteps[0]?.with ?? {});
    expect(inputs.length).toBeGreaterThan(0);
    for (const name of inputs) expect(declared, name).toContain(name);
    const ways = ["batch", "input", "baseline"].filter((w) => inputs.includes(w));
    expect(ways).toHaveLength(1);
  });

  it("reads only outputs the action declares, and uploads the JSON decision", () => {
    const id = gateSteps[0]?.id as string;
    const used = referenced(strings(steps), new RegExp(`\\bsteps\\.${id}\\.outputs\\.([A-Za-z0-9_-]+)`, "g"));
    expect(used).toEqual(["exit-code", "report", "status"]);
    const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    expect(upload?.with?.path).toBe(`\${{ steps.${id}.outputs.report }}`);
    expect(upload?.if).toContain("always()");
  });
});

type TActionRun = {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
};

let tmp: ReturnType<typeof makeTempDir>;
let runs = 0;

beforeAll(() => {
  buildCli();
  tmp = makeTempDir("breakpoint-action-");
});
afterAll(() => tmp.cleanup());

/**
 * Run action/run.mjs as the composite step does: the inputs as INPUT_* (all of them, empty when
 * not given, as action.yml's defaults make them), in a workspace directory, with fresh output
 * and summary files. Nothing from this process's environment leaks in (no CI variables).
 */
function runAction(inputs: Record<string, string>, extraEnv: Record<string, string> = {}): TActionRun {
  runs += 1;
  const dir = path.join(tmp.dir, `run-${runs}`);
  const outputFile = writeFile(dir, "github/output", "");
  const summaryFile = writeFile(dir, "github/summary", "");
  const defaults: Record<string, string> = { mode: "lite", strict: "false", "fail-on": "warn" };
  const env: Record<string, string> = {
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: path.join(dir, "runner-temp"),
    NO_COLOR: "1",
    ...extraEnv,
  };
  for (const name of declared) env[envName(name)] = inputs[name] ?? defaults[name] ?? "";
  writeFile(dir, "runner-temp/.keep", "");
  const result = spawnSync(process.execPath, [RUN_SCRIPT], { cwd: tmp.dir, encoding: "utf8", env });
  const outputs: Record<string, string> = {};
  for (const line of readFileSync(outputFile, "utf8").split("\n").filter(Boolean)) {
    const at = line.indexOf("=");
    outputs[line.slice(0, at)] = line.slice(at + 1);
  }
  return {
    code: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    outputs,
    summary: readFileSync(summaryFile, "utf8"),
  };
}

describe("action/run.mjs with the real CLI", () => {
  it("ALLOW: exit 0, outputs, the JSON decision at json-out, the text report in the summary", () => {
    const run = runAction({ baseline: SEED.baseline, candidate: SEED.allow, "json-out": "out/decision.json" });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = path.join(tmp.dir, "out", "decision.json");
    expect(run.outputs).toEqual({ status: "ALLOW", "exit-code": "0", report });
    const decision = JSON.parse(readFileSync(report, "utf8"));
    expect(decision).toMatchObject({ status: "ALLOW", exit_code: 0 });
    expect(run.summary).toMatch(/^### BreakPoint: ALLOW \(exit 0\)\n\n```text\n╔═+╗\n/);
    expect(run.summary).toContain("\nFinal Decision: ALLOW\n");
    expect(run.summary).toContain("Exit Code: 0 (ALLOW: safe to deploy)");
    expect(run.summary).toContain(`JSON report: \`${report}\``);
    expect(run.stdout).toContain(`breakpoint evaluate ${SEED.baseline} ${SEED.allow} --mode lite --fail-on warn\n`);
    expect(run.stdout).toContain("Final Decision: ALLOW");
    expect(run.stdout).not.toContain("::error");
  });

  it("BLOCK: exit 2 fails the step, an error annotation with the reasons, default report path", () => {
    const run = runAction({ baseline: SEED.baseline, candidate: SEED.block });
    expect(run.code).toBe(2);
    expect(run.outputs.status).toBe("BLOCK");
    expect(run.outputs["exit-code"]).toBe("2");
    // No json-out: a new file under RUNNER_TEMP.
    expect(run.outputs.report).toMatch(/runner-temp\/breakpoint-[^/]+\/breakpoint-report\.json$/);
    expect(JSON.parse(readFileSync(run.outputs.report as string, "utf8")).reason_codes).toEqual([
      "COST_BLOCK_INCREASE",
      "PII_BLOCK_EMAIL",
    ]);
    expect(run.stdout).toContain(
      "::error title=BreakPoint::BLOCK: Cost increased by 40.0%25 (>=40%25). PII detected: EMAIL(1). Total matches: 1.\n",
    );
    expect(run.summary).toContain("### BreakPoint: BLOCK (exit 2)");
    expect(run.summary).toContain("Final Decision: BLOCK");
  });

  it("WARN with fail-on block: exit 0 and a warning annotation; strict makes it a failing BLOCK", () => {
    const let_through = runAction({ baseline: SEED.baseline, candidate: SEED.warn, "fail-on": "block" });
    expect(let_through.code).toBe(0);
    expect(let_through.outputs.status).toBe("WARN");
    expect(let_through.outputs["exit-code"]).toBe("0");
    expect(let_through.stdout).toContain(
      "::warning title=BreakPoint::WARN (not failing: fail-on block): Cost increased",
    );

    const strict = runAction({ baseline: SEED.baseline, candidate: SEED.warn, "fail-on": "block", strict: "true" });
    expect(strict.code).toBe(2);
    expect(strict.outputs.status).toBe("BLOCK");
  });

  it("a combined input file, and preset / accept-risk passed through to the CLI", () => {
    const pair = writeFile(tmp.dir, "pair.json", {
      baseline: JSON.parse(readFileSync(SEED.baseline, "utf8")),
      candidate: JSON.parse(readFileSync(SEED.warn, "utf8")),
    });
    expect(runAction({ input: pair }).outputs.status).toBe("WARN");
    // The chatbot preset's WARN lines sit above this candidate's cost and length changes.
    const preset = runAction({ input: pair, preset: "chatbot" });
    expect(preset.code).toBe(0);
    expect(preset.outputs.status).toBe("ALLOW");
    const accepted = runAction({ baseline: SEED.baseline, candidate: SEED.block, "accept-risk": "cost, pii" });
    expect(accepted.outputs.status).toBe("ALLOW");
    expect(JSON.parse(readFileSync(accepted.outputs.report as string, "utf8")).accepted_risks).toHaveLength(2);
  });

  it("batch: the worst pair decides, the table goes to the summary", () => {
    const evals = path.join(tmp.dir, "evals");
    copyFixture(SEED.baseline, evals, "greeting.baseline.json");
    copyFixture(SEED.allow, evals, "greeting.candidate.json");
    copyFixture(SEED.baseline, evals, "support.baseline.json");
    copyFixture(SEED.block, evals, "support.candidate.json");
    const run = runAction({ batch: "evals", "json-out": "batch.json" });
    expect(run.code).toBe(2);
    expect(run.outputs).toMatchObject({ status: "BLOCK", "exit-code": "2" });
    expect(JSON.parse(readFileSync(path.join(tmp.dir, "batch.json"), "utf8")).counts).toEqual({
      ALLOW: 1,
      WARN: 0,
      BLOCK: 1,
      ERROR: 0,
    });
    expect(run.summary).toContain("BreakPoint Batch");
    expect(run.summary).toMatch(/\ngreeting +ALLOW/);
    expect(run.summary).toMatch(/\nsupport +BLOCK/);
  });

  it("an input the CLI rejects: exit 3, status ERROR, no report, its error line in the summary", () => {
    const broken = writeFile(tmp.dir, "broken.json", { text: "no output field" });
    const run = runAction({ baseline: SEED.baseline, candidate: broken });
    expect(run.code).toBe(3);
    expect(run.outputs).toEqual({ status: "ERROR", "exit-code": "3", report: "" });
    expect(run.stderr).toContain("(field candidate.output)");
    expect(run.summary).toContain("### BreakPoint: ERROR (exit 3)");
    expect(run.summary).toContain("(field candidate.output)");
    expect(run.stdout).toMatch(/::error title=BreakPoint::breakpoint: error: .*broken\.json/);

    const badMode = runAction({ baseline: SEED.baseline, candidate: SEED.allow, mode: "fast" });
    expect(badMode.code).toBe(3);
    expect(badMode.outputs.status).toBe("ERROR");
  });
});

describe("action/run.mjs: inputs that do not fit together", () => {
  it.each([
    [{}, "nothing to gate: set baseline and candidate, or input"],
    [{ baseline: "b.json" }, "baseline and candidate go together: set both"],
    [
      { batch: "evals", baseline: "b.json", candidate: "c.json" },
      "set only one of baseline/candidate, input and batch",
    ],
    [{ baseline: "b.json", candidate: "c.json", strict: "yes" }, 'strict must be true or false (got "yes")'],
  ])("%j: exit 3 with one error annotation", (inputs, message) => {
    const run = runAction(inputs as Record<string, string>);
    expect(run.code).toBe(3);
    expect(run.outputs).toEqual({ status: "ERROR", "exit-code": "3", report: "" });
    const annotations = run.stdout.split("\n").filter((l) => l.startsWith("::"));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toContain(`::error title=BreakPoint::input error: ${message}`);
    expect(run.summary).toContain(message);
  });
});

describe("action/run.mjs: the CLI command it builds", () => {
  let stub: string;
  beforeAll(() => {
    // A stand-in CLI that records its arguments and answers like the real one would.
    stub = writeFile(
      tmp.dir,
      "stub-cli.mjs",
      [
        'import { appendFileSync } from "node:fs";',
        "const args = process.argv.slice(2);",
        "appendFileSync(process.env.STUB_LOG, JSON.stringify(args) + '\\n');",
        'process.stdout.write(args.includes("--json") ? JSON.stringify({ status: "ALLOW", reasons: [] }) : "stub report\\n");',
      ].join("\n"),
    );
  });

  it("passes every option through, one --accept-risk per policy, --json for the report run", () => {
    const log = path.join(tmp.dir, "stub-argv.jsonl");
    const run = runAction(
      {
        baseline: "b.json",
        candidate: "c.json",
        mode: "full",
        strict: "true",
        "fail-on": "block",
        config: "ci/gate.yaml",
        preset: "support",
        env: "ci",
        "accept-risk": "cost,\npii drift",
      },
      { BREAKPOINT_BIN: stub, STUB_LOG: log },
    );
    expect(run.code).toBe(0);
    const calls = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const expected = [
      ...["evaluate", "b.json", "c.json", "--mode", "full", "--fail-on", "block", "--config", "ci/gate.yaml"],
      ...["--preset", "support", "--env", "ci", "--strict"],
      ...["--accept-risk", "cost", "--accept-risk", "pii", "--accept-risk", "drift"],
    ];
    expect(calls).toEqual([[...expected, "--json"], expected]);
    expect(run.summary).toContain("```text\nstub report\n```");
  });

  it("runs batch for a batch input, evaluate with one file for a combined input", () => {
    const log = path.join(tmp.dir, "stub-argv-2.jsonl");
    runAction({ batch: "evals/manifest.yaml", mode: "", "fail-on": "" }, { BREAKPOINT_BIN: stub, STUB_LOG: log });
    runAction({ input: "pair.json" }, { BREAKPOINT_BIN: stub, STUB_LOG: log });
    const calls = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(calls[1]).toEqual(["batch", "evals/manifest.yaml"]);
    expect(calls[3]).toEqual(["evaluate", "pair.json", "--mode", "lite", "--fail-on", "warn"]);
  });

  it("keeps a report with backticks inside its summary fence", () => {
    const stub = writeFile(
      tmp.dir,
      "stub-fence.mjs",
      'process.stdout.write(process.argv.includes("--json") ? "{\\"status\\":\\"ALLOW\\"}" : "a ``` b\\n");',
    );
    const run = runAction({ input: "pair.json" }, { BREAKPOINT_BIN: stub });
    expect(run.summary).toContain("````text\na ``` b\n````\n");
  });
});
