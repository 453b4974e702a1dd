// `pnpm workflow`: exit codes, answers given up front or asked in the terminal, progress per
// phase, and the Umbra beat as a stored run on a real SQLite file. One test spawns the real
// command, so the package script, the argument parsing and process.exitCode are covered too.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ZWorkflowRunListRequest } from "@solserver/contracts";
import { repositoryRoot } from "@solserver/db";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getWorkflowRun, listWorkflowRuns, parseInput, startWorkflow } from "../src/index";
import { openTestControlPlane, type TTestActor } from "../src/testing";
import { runWorkflowCli, type TAsk, WORKFLOW_EXIT } from "../src/workflows/cli";

const ROOT = repositoryRoot();
const EXAMPLES = path.join(ROOT, "packages/checkpoint/examples");
const dir = mkdtempSync(path.join(tmpdir(), "workflow-cli-"));

function cli(argv: string[], opts: { ask?: TAsk; env?: Record<string, string | undefined> } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const done = runWorkflowCli(argv, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    cwd: EXAMPLES,
    ask: opts.ask,
    env: opts.env ?? {},
  });
  return done.then((code) => ({ code, out: out.join("\n"), err: err.join("\n") }));
}

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
}

/**
 * A seed example the CLI can run: its `agent.*` steps (which nothing here runs: the CLI refuses
 * them) become command steps that succeed at once, so the checkpoints are what is exercised.
 */
function runnable(example: string): string {
  const yaml = readFileSync(path.join(EXAMPLES, example), "utf8");
  return file(
    example,
    yaml.replace(/run: agent\.\w+/g, `run: { command: [${JSON.stringify(process.execPath)}, -e, "0"] }`),
  );
}

describe("definitions", () => {
  it("validate: 0 for a valid definition, 3 with every problem on stderr for an invalid one", async () => {
    expect((await cli(["validate", "umbra-beat"])).code).toBe(WORKFLOW_EXIT.DONE);
    const bad = file(
      "bad.yaml",
      "name: bad\nphases:\n  - id: a\n    checkpoint:\n      prompt: Go?\n      options:\n        - label: Go\n          on_select: { action: jump }\n        - label: Back\n          on_select: { action: repeat_phase, target: nowhere }\n",
    );
    const res = await cli(["validate", bad]);
    expect(res.code).toBe(WORKFLOW_EXIT.INVALID);
    expect(res.err).toContain("invalid workflow definition");
    expect(res.err).toMatch(/options\[0\]\.on_select\.action/);
    expect(res.err).toMatch(/nowhere/);
  });

  it("run refuses an unreadable file and bad arguments with exit 3, running nothing", async () => {
    const missing = await cli(["run", "no-such.yaml"]);
    expect([missing.code, missing.err]).toEqual([WORKFLOW_EXIT.INVALID, "cannot read no-such.yaml: ENOENT"]);
    const answer = await cli(["run", runnable("simple-approval.yaml"), "--answer", "no-equals-sign"]);
    expect(answer.code).toBe(WORKFLOW_EXIT.INVALID);
    expect(answer.err).toContain("write it as <phase>=<label>[:feedback]");
    expect(answer.out).toBe("");
    const context = await cli(["run", runnable("simple-approval.yaml"), "--context", "[1]"]);
    expect([context.code, context.err]).toEqual([WORKFLOW_EXIT.INVALID, "--context: must be a JSON object"]);
  });

  it("--context with a prototype key at any depth is exit 3 naming the key, running nothing", async () => {
    for (const [json, path] of [
      ['{"__proto__": {"polluted": true}}', "--context.__proto__"],
      ['{"feature": {"constructor": {"prototype": {}}}}', "--context.feature.constructor"],
      ['{"feature": {"flags": [{"prototype": 1}]}}', "--context.feature.flags[0].prototype"],
    ] as const) {
      const res = await cli(["run", runnable("simple-approval.yaml"), "--context", json]);
      expect([res.code, res.err, res.out]).toEqual([WORKFLOW_EXIT.INVALID, `${path}: is a reserved property name`, ""]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("a step nobody runs (the seed examples' agent.*) is refused by validate and run, listing the known steps", async () => {
    const known =
      "  known steps: umbra.collect_triggers, umbra.resolve_pending, umbra.promote_approved, umbra.recompute_stats; or an executor: { command: [program, ...args] } (runs here, in the CLI), { webhook: url } or { worker: queue } (run on the server)";
    const expected = [
      "simple-approval.yaml: invalid workflow definition",
      '  phases.discovery.run: unknown step "agent.discover"',
      '  phases.planning.run: unknown step "agent.plan"',
      known,
    ].join("\n");
    const validate = await cli(["validate", "simple-approval.yaml"]);
    expect([validate.code, validate.err, validate.out]).toEqual([WORKFLOW_EXIT.INVALID, expected, ""]);
    // Never again "recorded as done": nothing runs, no checkpoint is asked.
    const run = await cli(["run", "simple-approval.yaml", "-a", "discovery=Continue"]);
    expect([run.code, run.err, run.out]).toEqual([WORKFLOW_EXIT.INVALID, expected, ""]);
  });
});

describe("in-memory runs (command steps run here; see workflow-command.test.ts)", () => {
  it("simple approval: Continue ends 0 with progress per phase; Abort ends 2", async () => {
    const flow = runnable("simple-approval.yaml");
    const ok = await cli(["run", flow, "--answer", "discovery=Continue"]);
    expect(ok.code).toBe(WORKFLOW_EXIT.DONE);
    expect(ok.out).toContain("? Continue with next phase?");
    expect(ok.out).toContain("· Running phase: planning (iteration 1)");
    expect(ok.out.split("\n").at(-1)).toBe("done");
    const abort = await cli(["run", flow, "-a", "discovery=Abort"]);
    expect(abort.code).toBe(WORKFLOW_EXIT.ABORTED);
    expect(abort.out).not.toContain("Running phase: planning");
  });

  it("a checkpoint with no answer and no terminal pauses with exit 5, naming the options", async () => {
    const res = await cli(["run", runnable("simple-approval.yaml"), "--no-input"]);
    expect(res.code).toBe(WORKFLOW_EXIT.PAUSED);
    expect(res.err).toBe(
      'checkpoint discovery waits for a decision (options: Continue, Abort); pass --answer "discovery=<label>"',
    );
  });

  it("an unknown label, or feedback for an option without it, is exit 3", async () => {
    const flow = runnable("simple-approval.yaml");
    const label = await cli(["run", flow, "-a", "discovery=Maybe"]);
    expect([label.code, label.err]).toEqual([
      WORKFLOW_EXIT.INVALID,
      "--answer discovery=Maybe: no such option (options: Continue, Abort)",
    ]);
    const feedback = await cli(["run", flow, "-a", "discovery=Continue:sure"]);
    expect([feedback.code, feedback.err]).toEqual([
      WORKFLOW_EXIT.INVALID,
      "--answer discovery=Continue: this option takes no feedback",
    ]);
  });

  it("asks in the terminal when interactive: the choice and the feedback, then the skip list holds", async () => {
    const asked: string[] = [];
    const ask: TAsk = {
      choose: async (prompt, labels) => {
        asked.push(`${prompt} [${labels.join("|")}]`);
        return "Skip Next 2 Phases";
      },
      text: async () => "not needed this sprint",
    };
    const res = await cli(["run", runnable("custom-checkpoint.yaml"), "--context", '{"subagents_spawned": 3}'], {
      ask,
    });
    expect(res.code).toBe(WORKFLOW_EXIT.DONE);
    expect(asked).toEqual([
      "Review outputs before proceeding? [Continue|Redo This Phase|Skip Next 2 Phases|Abort Workflow]",
    ]);
    expect(res.out).toContain("· Skipping phase: phase_3");
    expect(res.out).toContain("· Skipping phase: phase_4");
    expect(res.out).toContain("── out/plan.md (not found)");
  });

  it("the condition decides whether the checkpoint shows: without spawned subagents it runs through", async () => {
    const res = await cli([
      "run",
      runnable("custom-checkpoint.yaml"),
      "--no-input",
      "--context",
      '{"subagents_spawned": 0}',
    ]);
    expect(res.code).toBe(WORKFLOW_EXIT.DONE);
    expect(res.out).not.toContain("? Review outputs");
  });
});

describe("the Umbra beat from the CLI: a stored run on the database", () => {
  let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
  let jam: TTestActor;
  let user: TTestActor;
  beforeAll(async () => {
    opened = await openTestControlPlane({ label: "workflow-cli" });
    jam = await opened.account("jam");
    user = await opened.account("user");
  });
  afterAll(async () => opened?.close());
  const env = () => ({ DATABASE_URL: opened.database.url });

  it("runs as the named Jam editor, shows the summary, and the dashboard sees the run", async () => {
    const res = await cli(["run", "umbra-beat", "--as", jam.email, "-a", "review=Skip promotion:quiet week"], {
      env: env(),
    });
    expect(res.code).toBe(WORKFLOW_EXIT.DONE);
    expect(res.out).toMatch(/^run WR-\d{4}$/m);
    expect(res.out).toContain("? Review 0 proposals before promoting?");
    expect(res.out).toContain("  │ # Umbra beat: review before promotion");
    const runs = await listWorkflowRuns(opened.as(jam), parseInput(ZWorkflowRunListRequest, { limit: 5 }));
    const run = runs.items[0];
    expect(run?.started_via).toBe("cli");
    expect(run?.started_by).toBe(jam.email);
    expect(run?.decisions[0]).toMatchObject({ decision: "skip_phases", feedback: "quiet week" });
  });

  it("without an answer the run stays paused for the dashboard (exit 5); a user may not run it (exit 3)", async () => {
    const paused = await cli(["run", "umbra-beat", "--as", jam.email, "--no-input"], { env: env() });
    expect(paused.code).toBe(WORKFLOW_EXIT.PAUSED);
    const runId = paused.out.match(/^run (WR-\d{4})$/m)?.[1] as string;
    expect(paused.err).toContain(`or decide ${runId} in the dashboard at /workflows`);
    expect((await getWorkflowRun(opened.as(jam), { run_id: runId })).status).toBe("awaiting_decision");
    // A second beat while this one waits is refused, naming it.
    const second = await cli(["run", "umbra-beat", "--as", jam.email, "--no-input"], { env: env() });
    expect([second.code, second.err]).toEqual([
      WORKFLOW_EXIT.INVALID,
      `umbra-beat is already under way as ${runId} (awaiting decision); finish or abort it first`,
    ]);
    const refused = await cli(["run", "umbra-beat", "--as", user.email], { env: env() });
    expect([refused.code, refused.err]).toEqual([
      WORKFLOW_EXIT.INVALID,
      `--as ${user.email}: is not a Jam editor; workflows are Jam editors' work`,
    ]);
  });
});

describe("`pnpm workflow runs`: background work from a shell", () => {
  let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
  let jam: TTestActor;
  beforeAll(async () => {
    opened = await openTestControlPlane({ label: "workflow-cli-runs" });
    jam = await opened.account("jam");
  });
  afterAll(async () => opened?.close());

  it("lists each run with what it waits for, or its error; refuses a bad status or a non-editor", async () => {
    const worker = await startWorkflow(opened.as(jam), {
      definition: "name: summarize\nphases:\n  - id: draft\n    run: { worker: writers }\n",
    });
    // A webhook the server may not call (a private address): its delivery fails the run.
    const hook = await startWorkflow(opened.as(jam), {
      definition: 'name: hook\nphases:\n  - id: check\n    run: { webhook: "http://127.0.0.1:1/check", retries: 0 }\n',
    });
    await vi.waitFor(async () =>
      expect((await getWorkflowRun(opened.as(jam), { run_id: hook.run_id })).status).toBe("failed"),
    );
    const env = { DATABASE_URL: opened.database.url };
    const res = await cli(["runs", "--as", jam.email], { env });
    expect(res.code).toBe(WORKFLOW_EXIT.DONE);
    const line = (id: string) => res.out.split("\n").find((l) => l.startsWith(`${id}  `));
    expect(line(worker.run_id)).toMatch(
      / summarize {2}awaiting_worker {2}started \S+ {2}draft for queue writers: waiting$/,
    );
    expect(line(hook.run_id)).toMatch(/ hook {2}failed {2}started \S+ {2}failed: phase check: .*private/);
    expect((await cli(["runs", "--as", jam.email, "--status", "failed"], { env })).out.split("\n")).toHaveLength(1);

    const bad = await cli(["runs", "--as", jam.email, "--status", "stuck"], { env });
    expect(bad.code).toBe(WORKFLOW_EXIT.INVALID);
    expect(bad.err).toMatch(/^status: /);
    const user = await opened.account("user");
    expect(await cli(["runs", "--as", user.email], { env })).toMatchObject({
      code: WORKFLOW_EXIT.INVALID,
      err: `--as ${user.email}: is not a Jam editor`,
    });
  });
});

describe("the real command", () => {
  it("`pnpm workflow run` exits with the run's code (2 when aborted)", async () => {
    const run = promisify(execFile);
    const result = await run(
      "node_modules/.bin/tsx",
      ["packages/control-plane/scripts/workflow.ts", "run", runnable("simple-approval.yaml"), "-a", "discovery=Abort"],
      { cwd: ROOT, env: { ...process.env, INIT_CWD: EXAMPLES } },
    ).catch((e: { code: number; stdout: string }) => e);
    expect("code" in result ? result.code : 0).toBe(2);
    expect(result.stdout).toContain("aborted (exit 2)");
  });
});
