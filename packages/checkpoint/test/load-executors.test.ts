// Load-time rules for executors in `run` and the workflow's `notify`: every problem, with its path.

import { describe, expect, it } from "vitest";
import { loadWorkflow, loadWorkflowOrThrow, secretEnvProblems } from "../src";

function errorsOf(yaml: string): string[] {
  const result = loadWorkflow(yaml);
  if (result.ok) throw new Error("expected the definition to be rejected");
  return result.errors;
}

/** A one-phase workflow whose `run` is `run` (YAML flow text), with two declared variables. */
function withRun(run: string): string {
  return `
name: t
variables: { dir: web, host: hooks.example.com, nested: { tag: v1 } }
phases:
  - { id: build, run: ${run} }
`;
}

describe("run: executors at load time", () => {
  it("a command gets its defaults; the phase's run becomes the kind, the executor sits beside it", () => {
    const workflow = loadWorkflowOrThrow(withRun("{ command: [make, '{{nested.tag}}'], cwd: '{{dir}}' }"));
    expect(workflow.phases[0]).toEqual({
      id: "build",
      run: "command",
      executor: {
        kind: "command",
        command: ["make", "{{nested.tag}}"],
        cwd: "{{dir}}",
        env: {},
        timeout: "10m",
        timeout_ms: 600_000,
        artifacts: [],
      },
    });
  });

  it("webhook and worker defaults; string steps stay as they were (no executor key)", () => {
    const webhook = loadWorkflowOrThrow(withRun("{ webhook: 'https://{{host}}/x' }")).phases[0];
    expect(webhook).toEqual({
      id: "build",
      run: "webhook",
      executor: {
        kind: "webhook",
        webhook: "https://{{host}}/x",
        secret_env: null,
        timeout: "10s",
        timeout_ms: 10_000,
        retries: 3,
      },
    });
    const worker = loadWorkflowOrThrow(withRun("{ worker: agents.drafting }")).phases[0];
    expect(worker).toEqual({
      id: "build",
      run: "worker",
      executor: { kind: "worker", worker: "agents.drafting", lease: "5m", lease_ms: 300_000 },
    });
    const step = loadWorkflowOrThrow(withRun("umbra.resolve_pending")).phases[0];
    expect(step).toEqual({ id: "build", run: "umbra.resolve_pending" });
    expect(step).not.toHaveProperty("executor");
  });

  it("explicit values replace the defaults", () => {
    const [command] = loadWorkflowOrThrow(
      withRun("{ command: [a], env: { CI: 'true', _X1: '{{dir}}' }, timeout: 2h, artifacts: [out/*.md, 'r?.txt'] }"),
    ).phases;
    expect(command?.executor).toMatchObject({
      env: { CI: "true", _X1: "{{dir}}" },
      timeout: "2h",
      timeout_ms: 7_200_000,
      artifacts: ["out/*.md", "r?.txt"],
    });
    const [webhook] = loadWorkflowOrThrow(
      withRun(
        "{ webhook: 'http://localhost:8080/h', secret_env: SOLSERVER_WEBHOOK_SECRET_HOOK, timeout: 1m, retries: 0 }",
      ),
    ).phases;
    expect(webhook?.executor).toMatchObject({
      secret_env: "SOLSERVER_WEBHOOK_SECRET_HOOK",
      timeout_ms: 60_000,
      retries: 0,
    });
  });

  it.each([
    [
      "a shell string",
      "{ command: 'npm test' }",
      ['phases[0].run.command: must be a list of arguments, e.g. ["npm", "test"] (no shell string)'],
    ],
    ["an empty argv", "{ command: [] }", ["phases[0].run.command: must name the program to run"]],
    ["an empty argument", "{ command: [npm, ''] }", ["phases[0].run.command[1]: must not be empty"]],
    ["a non-string argument", "{ command: [npm, 3] }", ["phases[0].run.command[1]: must be a string"]],
    [
      "an absolute cwd",
      "{ command: [a], cwd: /etc }",
      ['phases[0].run.cwd: "/etc" is absolute; write a path relative to the workspace'],
    ],
    [
      "a Windows cwd",
      "{ command: [a], cwd: 'C:/x' }",
      ['phases[0].run.cwd: "C:/x" is absolute; write a path relative to the workspace'],
    ],
    [
      "a cwd with ..",
      "{ command: [a], cwd: web/../.. }",
      ['phases[0].run.cwd: "web/../.." climbs out with ".."; stay inside the workspace'],
    ],
    [
      "a backslash cwd",
      "{ command: [a], cwd: 'web\\\\x' }",
      ['phases[0].run.cwd: must use "/" as its separator, not "\\"'],
    ],
    ["an empty cwd", "{ command: [a], cwd: '' }", ["phases[0].run.cwd: must not be empty"]],
    [
      "a bad env name",
      "{ command: [a], env: { lower: x } }",
      ["phases[0].run.env.lower: must be an environment variable name: A-Z, 0-9 and _, not starting with a digit"],
    ],
    [
      "an env name starting with a digit",
      "{ command: [a], env: { 1X: x } }",
      ["phases[0].run.env.1X: must be an environment variable name: A-Z, 0-9 and _, not starting with a digit"],
    ],
    [
      "a number env value",
      "{ command: [a], env: { PORT: 8080 } }",
      ["phases[0].run.env.PORT: must be a string (quote numbers and booleans)"],
    ],
    [
      "a bad duration",
      "{ command: [a], timeout: 10 }",
      ['phases[0].run.timeout: must be a duration like "30s", "10m", "2h" or "1d"'],
    ],
    [
      "a duration without a unit",
      "{ command: [a], timeout: '10' }",
      ['phases[0].run.timeout: "10" is not a duration: write a whole number and one unit (s, m, h, d), e.g. "10m"'],
    ],
    [
      "a duration too long",
      "{ command: [a], timeout: 31d }",
      ['phases[0].run.timeout: "31d" is out of range: from 1s to 30d'],
    ],
    [
      "a zero duration",
      "{ command: [a], timeout: 0s }",
      ['phases[0].run.timeout: "0s" is out of range: from 1s to 30d'],
    ],
    [
      "an artifact outside",
      "{ command: [a], artifacts: [../x.md] }",
      ['phases[0].run.artifacts[0]: "../x.md" climbs out with ".."; stay inside the workspace'],
    ],
    [
      "an absolute artifact",
      "{ command: [a], artifacts: [/tmp/x] }",
      ['phases[0].run.artifacts[0]: "/tmp/x" is absolute; write a path relative to the workspace'],
    ],
    [
      "a recursive glob",
      "{ command: [a], artifacts: ['out/**/*.md'] }",
      ['phases[0].run.artifacts[0]: "out/**/*.md": "**" is not supported; name each folder ("out/*/*.md")'],
    ],
    [
      "a bracket glob",
      "{ command: [a], artifacts: ['out/[ab].md'] }",
      ['phases[0].run.artifacts[0]: "out/[ab].md": only * and ? are supported in an artifact pattern'],
    ],
    [
      "a templated artifact",
      "{ command: [a], artifacts: ['{{dir}}/x'] }",
      ['phases[0].run.artifacts[0]: "{{dir}}/x": {{variables}} are not substituted in artifacts'],
    ],
    [
      "a folder artifact",
      "{ command: [a], artifacts: [out/] }",
      ['phases[0].run.artifacts[0]: "out/" names a folder; name its files ("out/*")'],
    ],
    ["an unknown key", "{ command: [a], shell: true }", ["phases[0].run.shell: unknown key"]],
    [
      "a webhook's key on a command",
      "{ command: [a], retries: 2 }",
      ["phases[0].run.retries: belongs to a webhook executor, not a command"],
    ],
    [
      "a command's key on a worker",
      "{ worker: q, timeout: 1m }",
      ["phases[0].run.timeout: belongs to a command or webhook executor, not a worker"],
    ],
    [
      "two kinds",
      "{ command: [a], worker: q }",
      ["phases[0].run: names command and worker; an executor is exactly one of command, webhook or worker"],
    ],
    ["no kind", "{ cwd: web }", ["phases[0].run: needs one of command, webhook or worker (or a step name as text)"]],
    [
      "no kind, other errors too",
      "{ cwd: 3 }",
      [
        "phases[0].run.cwd: Invalid input: expected string, received number",
        "phases[0].run: needs one of command, webhook or worker (or a step name as text)",
      ],
    ],
    [
      "a step named like a kind",
      "command",
      ['phases[0].run: "command" is an executor kind, not a step name; write run: { command: … }'],
    ],
    [
      "a number",
      "5",
      ["phases[0].run: must be a step name or an executor: { command: [...] }, { webhook: url } or { worker: queue }"],
    ],
    ["an empty step", "''", ["phases[0].run: must not be empty"]],
    ["a webhook that is not a URL", "{ webhook: hooks }", ['phases[0].run.webhook: "hooks" is not a URL']],
    [
      "a file: webhook",
      "{ webhook: 'file:///etc/passwd' }",
      ["phases[0].run.webhook: must be an http or https URL, not file:"],
    ],
    [
      "a webhook with credentials",
      "{ webhook: 'https://u:p@x.example/h' }",
      ["phases[0].run.webhook: must not carry credentials; name the key in secret_env"],
    ],
    [
      "a templated webhook that renders badly",
      "{ webhook: '{{dir}}/h' }",
      ['phases[0].run.webhook: "web/h" is not a URL'],
    ],
    [
      "a bad secret_env",
      "{ webhook: 'https://x.example', secret_env: my-key }",
      ["phases[0].run.secret_env: must be an environment variable name: A-Z, 0-9 and _, not starting with a digit"],
    ],
    [
      "too many retries",
      "{ webhook: 'https://x.example', retries: 11 }",
      ["phases[0].run.retries: Too big: expected number to be <=10"],
    ],
    [
      "fractional retries",
      "{ webhook: 'https://x.example', retries: 1.5 }",
      ["phases[0].run.retries: Invalid input: expected int, received number"],
    ],
    [
      "a bad queue",
      "{ worker: Agents }",
      ['phases[0].run.worker: must be a queue name: lowercase letters, digits, "_", "." or "-"'],
    ],
    [
      "a bad lease",
      "{ worker: q, lease: 1w }",
      ['phases[0].run.lease: "1w" is not a duration: write a whole number and one unit (s, m, h, d), e.g. "10m"'],
    ],
    [
      "an undeclared variable in argv",
      "{ command: [a, '{{nope}}'] }",
      ['phases[0].run.command[1]: unknown variable "nope"'],
    ],
    [
      "an undeclared variable in env",
      "{ command: [a], env: { X: '{{nope}}' } }",
      ['phases[0].run.env.X: unknown variable "nope"'],
    ],
    [
      "an undeclared variable in cwd",
      "{ command: [a], cwd: '{{nope}}' }",
      ['phases[0].run.cwd: unknown variable "nope"'],
    ],
    [
      "an undeclared variable in the webhook",
      "{ webhook: 'https://{{nope}}/h' }",
      ['phases[0].run.webhook: unknown variable "nope"'],
    ],
    ["a malformed template", "{ command: ['{{ x'] }", ['phases[0].run.command[0]: unclosed "{{" at character 0']],
    ["a reserved key", "{ command: [a], env: { __proto__: x } }", ["phases[0].run.env.__proto__: is a reserved key"]],
  ])("rejects %s", (_name, run, expected) => {
    expect(errorsOf(withRun(run))).toEqual(expected);
  });

  it("lists executor problems with every other problem at once", () => {
    const errors = errorsOf(`
name: t
phases:
  - { id: a, run: { command: 'make all', cwd: /srv } }
  - { id: b, run: { webhook: 'ftp://x', retries: -1 } }
  - { id: c, run: { worker: q, lease: 0s, artifacts: [x] } }
  - { id: c, run: worker }
`);
    expect(errors).toEqual([
      'phases[0].run.command: must be a list of arguments, e.g. ["npm", "test"] (no shell string)',
      "phases[1].run.retries: Too small: expected number to be >=0",
      'phases[2].run.lease: "0s" is out of range: from 1s to 30d',
      'phases[3].id: duplicate phase id "c" (also phases[2])',
      'phases[0].run.cwd: "/srv" is absolute; write a path relative to the workspace',
      "phases[1].run.webhook: must be an http or https URL, not ftp:",
      "phases[2].run.artifacts: belongs to a command executor, not a worker",
      'phases[3].run: "worker" is an executor kind, not a step name; write run: { worker: … }',
    ]);
  });
});

describe("notify at load time", () => {
  const base = "name: t\nphases: [{ id: a, checkpoint: { approval_required: true } }]\n";

  it("is exposed on the workflow", () => {
    const workflow = loadWorkflowOrThrow(
      `${base}notify: { webhook: 'https://hooks.example.com/x', secret_env: SOLSERVER_WEBHOOK_SECRET_NOTIFY }\n`,
    );
    expect(workflow.notify).toEqual({
      webhook: "https://hooks.example.com/x",
      secret_env: "SOLSERVER_WEBHOOK_SECRET_NOTIFY",
    });
    expect(loadWorkflowOrThrow(base).notify).toBeUndefined();
  });

  it.each([
    ["a missing webhook", "notify: { secret_env: SOLSERVER_WEBHOOK_SECRET_K }", ["notify.webhook: is required"]],
    [
      "a non-http URL",
      "notify: { webhook: 'mailto:a@b.c' }",
      ["notify.webhook: must be an http or https URL, not mailto:"],
    ],
    [
      "a template",
      "notify: { webhook: 'https://x/{{id}}' }",
      ["notify.webhook: {{variables}} are not substituted in notify.webhook; write the address"],
    ],
    [
      "a bad secret_env",
      "notify: { webhook: 'https://x.example', secret_env: key }",
      ["notify.secret_env: must be an environment variable name: A-Z, 0-9 and _, not starting with a digit"],
    ],
    ["an unknown key", "notify: { webhook: 'https://x.example', email: a@b.c }", ["notify.email: unknown key"]],
    ["a string", "notify: https://x.example", ["notify: Invalid input: expected object, received string"]],
  ])("rejects %s", (_name, notify, expected) => {
    expect(errorsOf(`${base}${notify}\n`)).toEqual(expected);
  });
});

describe("secretEnvProblems: the signing keys a new definition may name", () => {
  it("names each secret_env outside SOLSERVER_WEBHOOK_SECRET_ (it would probe the server's environment)", () => {
    const workflow = loadWorkflowOrThrow(`name: keys
notify: { webhook: 'https://hooks.example.com/x', secret_env: HOME }
phases:
  - id: a
    run: { webhook: 'https://x.example/a', secret_env: DATABASE_URL }
  - id: b
    run: { webhook: 'https://x.example/b', secret_env: SOLSERVER_WEBHOOK_SECRET_B }
`);
    expect(secretEnvProblems(workflow)).toEqual([
      "notify.secret_env: must name a variable starting with SOLSERVER_WEBHOOK_SECRET_ (A-Z, 0-9 and _): only those sign webhooks",
      "phases.a.run.secret_env: must name a variable starting with SOLSERVER_WEBHOOK_SECRET_ (A-Z, 0-9 and _): only those sign webhooks",
    ]);
  });
});
