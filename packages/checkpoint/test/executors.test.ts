// The runner's side of executors: `next.executor` substituted with the run's variables when the
// phase starts, defaults applied, string steps untouched, and the helpers hosts use to refuse kinds.

import { describe, expect, it } from "vitest";
import {
  executorKinds,
  loadWorkflowOrThrow,
  phaseCompleted,
  startRun,
  type TExecutor,
  UMBRA_BEAT_YAML,
  unsupportedExecutors,
} from "../src";
import { resolveExecutor } from "../src/executors";
import { at, drive } from "./drive";

const PIPELINE = loadWorkflowOrThrow(`
name: pipeline
variables: { dir: web, version: "1.0", host: hooks.example.com, target: { name: prod } }
phases:
  - id: build
    run:
      command: [make, "release-{{version}}", "--target={{target.name}}"]
      cwd: "{{dir}}"
      env: { VERSION: "{{version}}", CI: "true" }
      artifacts: [out/*.tgz]
  - id: notify
    run: { webhook: "https://{{host}}/built/{{version}}", secret_env: SOLSERVER_WEBHOOK_SECRET_HOOK, retries: 1 }
  - id: review
    run: { worker: agents.review, lease: 1h }
  - id: file
    run: agent.file
`);

describe("next.executor", () => {
  it("a command: templates substituted with the run's variables, defaults applied, ms alongside", () => {
    const state = startRun(PIPELINE, { now: at(0), variables: { version: "2.1" } });
    expect(state.next).toEqual({
      kind: "run_phase",
      phase_id: "build",
      run: "command",
      executor: {
        kind: "command",
        command: ["make", "release-2.1", "--target=prod"],
        cwd: "web",
        env: { VERSION: "2.1", CI: "true" },
        timeout: "10m",
        timeout_ms: 600_000,
        artifacts: ["out/*.tgz"],
      },
      iteration: 1,
      attempt: 1,
    });
    // The definition keeps its templates: the next run substitutes its own values.
    expect(PIPELINE.phases[0]?.executor).toMatchObject({
      command: ["make", "release-{{version}}", "--target={{target.name}}"],
    });
  });

  it("a webhook and a worker; variables a step returns are used by the next phase", () => {
    const { steps } = drive(PIPELINE, {
      host: (phase) => (phase === "build" ? { variables: { version: "1.0.1" } } : undefined),
    });
    expect(steps.map((step) => step.run)).toEqual(["command", "webhook", "worker", "agent.file"]);
    expect(steps[1]?.executor).toEqual({
      kind: "webhook",
      webhook: "https://hooks.example.com/built/1.0.1",
      secret_env: "SOLSERVER_WEBHOOK_SECRET_HOOK",
      timeout: "10s",
      timeout_ms: 10_000,
      retries: 1,
    });
    expect(steps[2]?.executor).toEqual({ kind: "worker", worker: "agents.review", lease: "1h", lease_ms: 3_600_000 });
  });

  it("a string step's next is exactly as before: no executor key", () => {
    const umbra = loadWorkflowOrThrow(UMBRA_BEAT_YAML);
    const state = startRun(umbra, { now: at(0) });
    expect(state.next).toEqual({
      kind: "run_phase",
      phase_id: "collect_triggers",
      run: "umbra.collect_triggers",
      iteration: 1,
      attempt: 1,
    });
    expect(Object.keys(state.next)).not.toContain("executor");
  });

  it("phase.run in a condition is the kind", () => {
    const workflow = loadWorkflowOrThrow(`
name: t
phases:
  - id: a
    run: { worker: q }
    checkpoint:
      condition: "phase.run === 'worker'"
      prompt: Ok?
      options: [{ label: Go, on_select: { action: continue } }]
`);
    const state = phaseCompleted(workflow, startRun(workflow, { now: at(0) }), { now: at(1) });
    expect(state.status).toBe("awaiting_decision");
  });

  it.each([
    [
      "a cwd that climbs out",
      { dir: "../../etc" },
      'run.cwd: "../../etc" climbs out with ".."; stay inside the workspace',
    ],
    ["an absolute cwd", { dir: "/etc" }, 'run.cwd: "/etc" is absolute; write a path relative to the workspace'],
    ["a variable that lost its shape", { target: "flat" }, 'run.command[2]: unknown variable "target.name"'],
  ])("run variables that no longer fit (%s) fail the run instead of running it", (_name, variables, message) => {
    const state = startRun(PIPELINE, { now: at(0), variables });
    expect(state).toMatchObject({
      status: "failed",
      exit_code: 1,
      next: { kind: "finished", exit_code: 1 },
      failure: { phase_id: "build", error: `cannot start build: ${message}` },
    });
  });

  it("a webhook variable that turns the address into another scheme fails the run", () => {
    const workflow = loadWorkflowOrThrow(`
name: t
variables: { url: "https://x.example/h" }
phases: [{ id: a, run: { webhook: "{{url}}" } }]
`);
    expect(startRun(workflow, { now: at(0) }).next).toMatchObject({ executor: { webhook: "https://x.example/h" } });
    const state = startRun(workflow, { now: at(0), variables: { url: "file:///etc/passwd" } });
    expect(state.failure).toEqual({
      phase_id: "a",
      error: "cannot start a: run.webhook: must be an http or https URL, not file:",
    });
  });

  it("an argument that renders empty fails the run", () => {
    const workflow = loadWorkflowOrThrow(`
name: t
variables: { tool: make }
phases: [{ id: a, run: { command: ["{{tool}}"] } }]
`);
    expect(startRun(workflow, { now: at(0), variables: { tool: "" } }).failure?.error).toBe(
      "cannot start a: run.command[0]: is empty once the variables are substituted",
    );
  });

  it("resolveExecutor never mutates the definition's executor", () => {
    const executor = PIPELINE.phases[0]?.executor as TExecutor;
    const copy = structuredClone(executor);
    resolveExecutor(executor, { dir: "x", version: "9", target: { name: "t" } });
    expect(executor).toEqual(copy);
  });
});

describe("executorKinds / unsupportedExecutors", () => {
  it("lists each kind once, in a fixed order; step names are not kinds", () => {
    expect(executorKinds(PIPELINE)).toEqual(["command", "webhook", "worker"]);
    expect(executorKinds(loadWorkflowOrThrow(UMBRA_BEAT_YAML))).toEqual([]);
    const twice = loadWorkflowOrThrow(
      "name: t\nphases: [{ id: a, run: { worker: q } }, { id: b, run: { worker: r } }]\n",
    );
    expect(executorKinds(twice)).toEqual(["worker"]);
  });

  it("names each phase a host cannot run", () => {
    expect(unsupportedExecutors(PIPELINE, ["webhook", "worker"])).toEqual([
      "phases.build.run: command executors are not run here (this host runs: webhook, worker)",
    ]);
    expect(unsupportedExecutors(PIPELINE, new Set(["command", "webhook", "worker"] as const))).toEqual([]);
    expect(unsupportedExecutors(PIPELINE, [])).toHaveLength(3);
    expect(unsupportedExecutors(PIPELINE, [])[2]).toBe(
      "phases.review.run: worker executors are not run here (this host runs: none)",
    );
  });
});
