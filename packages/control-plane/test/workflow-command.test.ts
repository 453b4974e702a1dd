// Command steps (issue 25): a phase's `run: { command: [...] }` runs as a real local process,
// never through a shell, in the workspace, with only the environment it is given. Real processes
// throughout (no mocked child_process): what a person sees through `pnpm workflow run`, the
// failure path through phaseFailed (gap-check retry), the timeout stopping a whole process tree,
// and the workspace boundary for cwd, artifacts and the files a checkpoint shows.
import { execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { TCommandExecutor } from "@solserver/checkpoint";
import { repositoryRoot } from "@solserver/db";
import { describe, expect, it } from "vitest";
import { runWorkflowCli, WORKFLOW_EXIT } from "../src/workflows/cli";
import { commandEnv } from "../src/workflows/command-env";
import { displayArgv } from "../src/workflows/command-output";
import { collectArtifacts, MAX_ARTIFACT_BYTES, readWorkspaceFile, runCommand } from "../src/workflows/command-step";

const ROOT = repositoryRoot();
const NODE = process.execPath;
/** A YAML flow sequence item: JSON strings are valid YAML. */
const q = (text: string) => JSON.stringify(text);

/** A fresh workspace (realpath: macOS's /tmp is a symlink) with the given files. */
function workspace(files: Record<string, string> = {}): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "workflow-command-")));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

/** The CLI in this process, run from `cwd` (the workspace), with this test's environment. */
async function cli(argv: string[], cwd: string, env: Record<string, string | undefined> = process.env) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runWorkflowCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), cwd, env });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

function executor(command: string[], extra: Partial<TCommandExecutor> = {}): TCommandExecutor {
  return { kind: "command", command, cwd: null, env: {}, timeout: "1m", timeout_ms: 60_000, artifacts: [], ...extra };
}

/** Whether a process still runs (a zombie waiting for its new parent to reap it runs no more). */
function runs(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !["Z", "X"].includes(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0] ?? "");
  } catch {
    return false;
  }
}

/**
 * The file's text once the process under test wrote it. No deadline of its own (a busy machine
 * starts processes slowly; the test's timeout bounds the wait): it fails when `ended` settles first.
 */
async function waitForFile(file: string, ended: Promise<unknown>): Promise<string> {
  let over = false;
  const end = () => {
    over = true;
  };
  ended.then(end, end);
  for (;;) {
    if (existsSync(file)) {
      const text = readFileSync(file, "utf8");
      if (text.trim()) return text;
    }
    if (over) throw new Error(`${file} never appeared: the process ended first`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// A parent that starts a child, writes both pids, and sleeps. With `stubborn`, both ignore SIGTERM.
const treeScript = (stubborn: boolean) => {
  const ignore = stubborn ? "process.on('SIGTERM', () => {});" : "";
  return [
    "const { spawn } = require('node:child_process');",
    `const child = spawn(process.execPath, ['-e', ${q(`${ignore} setInterval(() => {}, 1000)`)}], { stdio: 'ignore' });`,
    `${ignore} require('node:fs').writeFileSync('pids', process.pid + ' ' + child.pid);`,
    "setInterval(() => {}, 1000);",
  ].join(" ");
};

describe("through `pnpm workflow run`, as a person runs it", () => {
  it("runs the command, then shows the file it wrote at the checkpoint; the next phase runs after Ship", async () => {
    const ws = workspace({
      "release.yaml": [
        "name: report",
        "variables: { title: Weekly report }",
        "phases:",
        "  - id: write",
        "    run:",
        `      command: [node, -e, ${q("const fs = require('node:fs'); fs.mkdirSync('out', { recursive: true }); fs.writeFileSync('out/report.md', '# ' + process.argv[1] + '\\n\\nby ' + process.env.AUTHOR + '\\n'); console.log('wrote out/report.md')")}, "{{title}}"]`,
        "      env: { AUTHOR: release-bot }",
        "      artifacts: [out/*.md]",
        "    checkpoint:",
        '      prompt: "Publish {{title}}?"',
        "      show_files: [out/report.md]",
        "      options:",
        "        - { label: Ship, on_select: { action: continue } }",
        "        - { label: Hold, on_select: { action: abort } }",
        "  - id: publish",
        "    run:",
        `      command: [node, -e, ${q("require('node:fs').writeFileSync('out/published', 'yes')")}]`,
      ].join("\n"),
    });
    const run = promisify(execFile);
    const result = await run(
      "node_modules/.bin/tsx",
      ["packages/control-plane/scripts/workflow.ts", "run", "release.yaml", "-a", "write=Ship"],
      { cwd: ROOT, env: { ...process.env, INIT_CWD: ws } },
    );
    expect(result.stdout).toContain(`commands run in ${ws}`);
    expect(result.stdout).toContain("  write │ wrote out/report.md");
    expect(result.stdout).toMatch(/ {2}write ✓ exit 0 in \d+\.\ds/);
    // The checkpoint shows the artifact the phase collected, then the person's answer.
    expect(result.stdout).toContain(
      [
        "? Publish Weekly report?",
        "  ── out/report.md",
        "  │ # Weekly report",
        "  │ ",
        "  │ by release-bot",
        "  → Ship",
      ].join("\n"),
    );
    expect(result.stdout.trim().split("\n").at(-1)).toBe("done");
    expect(readFileSync(path.join(ws, "out/published"), "utf8")).toBe("yes");
  });

  it("Ctrl-C while a command runs stops its processes and ends the CLI with 130", async () => {
    const ws = workspace({
      "nap.yaml": `name: nap\nphases:\n  - id: nap\n    run:\n      command: [node, -e, ${q(treeScript(false))}]\n`,
    });
    const child = spawn("node_modules/.bin/tsx", ["packages/control-plane/scripts/workflow.ts", "run", "nap.yaml"], {
      cwd: ROOT,
      env: { ...process.env, INIT_CWD: ws },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    // ("close", not "exit": on a busy machine the stderr it wrote may still be on its way at exit)
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    const pids = (await waitForFile(path.join(ws, "pids"), exited)).split(" ").map(Number);
    expect(pids.every(runs)).toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(WORKFLOW_EXIT.INTERRUPTED);
    expect(stderr).toContain("interrupted (SIGINT) while phase nap ran; its processes were stopped");
    expect(pids.filter(runs)).toEqual([]);
  });
});

describe("failures go through phaseFailed", () => {
  it("exit 3 fails the phase; with a gap_check it is retried once, then the run fails with exit 1", async () => {
    const ws = workspace({
      "flaky.yaml": [
        "name: flaky",
        "phases:",
        "  - id: test",
        "    run:",
        // Fails on the first attempt only: the retry passes and the run goes on.
        `      command: [node, -e, ${q("const fs = require('node:fs'); if (!fs.existsSync('tried')) { fs.writeFileSync('tried', ''); console.error('1 test failed'); process.exit(3); } console.log('all passed')")}]`,
        "    gap_check: { condition: 'false', max_retries: 1 }",
        "  - id: after",
        "    run: { command: [node, -e, '0'] }",
      ].join("\n"),
      "broken.yaml": [
        "name: broken",
        "phases:",
        "  - id: test",
        "    run:",
        `      command: [node, -e, ${q("console.error('1 test failed'); process.exit(3)")}]`,
        "    gap_check: { condition: 'false', max_retries: 1 }",
        "  - id: after",
        "    run: { command: [node, -e, '0'] }",
        "  - id: strict",
        "    run: { command: [node, -e, 'process.exit(3)'] }",
      ].join("\n"),
    });
    const flaky = await cli(["run", "flaky.yaml"], ws);
    expect(flaky.code).toBe(WORKFLOW_EXIT.DONE);
    expect(flaky.out).toContain("  test ✗ exit code 3; last output: 1 test failed");
    expect(flaky.out).toContain("✗ Phase failed: test: exit code 3; last output: 1 test failed");
    expect(flaky.out).toContain("· Running test again after the failure (retry 1 of 1)");
    expect(flaky.out).toContain("  test │ all passed");
    expect(flaky.out).toContain("· Running phase: after (iteration 1)");

    const broken = await cli(["run", "broken.yaml"], ws);
    expect(broken.code).toBe(WORKFLOW_EXIT.STOPPED);
    expect(broken.out.match(/ {2}test \$ /g)).toHaveLength(2);
    expect(broken.out).toContain("! No retries left for test (1)");
    expect(broken.out).not.toContain("Running phase: after");
    expect(broken.err).toBe("run failed: phase test: exit code 3; last output: 1 test failed");
  });

  it("a program that does not exist is 'command not found', and without a gap_check the run fails at once", async () => {
    const ws = workspace({
      "missing.yaml": "name: missing\nphases:\n  - id: lint\n    run: { command: [no-such-linter-x9, --fix] }\n",
    });
    const res = await cli(["run", "missing.yaml"], ws);
    expect(res.code).toBe(WORKFLOW_EXIT.STOPPED);
    expect(res.out).toContain("  lint ✗ command not found: no-such-linter-x9");
    expect(res.err).toBe("run failed: phase lint: command not found: no-such-linter-x9");
  });

  it("a cwd that is missing, or leads out of the workspace through a symlink, fails the phase", async () => {
    const outside = workspace();
    const ws = workspace({
      "cwd.yaml":
        "name: cwd\nvariables: { dir: nowhere }\nphases:\n  - id: a\n    run: { command: [node, -e, '0'], cwd: '{{dir}}' }\n",
    });
    symlinkSync(outside, path.join(ws, "elsewhere"));
    expect((await cli(["run", "cwd.yaml"], ws)).err).toBe(
      "run failed: phase a: cwd nowhere: no such folder in the workspace",
    );
    expect((await cli(["run", "cwd.yaml", "--var", "dir=elsewhere"], ws)).err).toBe(
      "run failed: phase a: cwd elsewhere: leads outside the workspace",
    );
    // "../x" is refused by the runner itself once the variable is substituted, before anything runs.
    const climb = await cli(["run", "cwd.yaml", "--var", "dir=../x"], ws);
    expect([climb.code, climb.err]).toEqual([WORKFLOW_EXIT.STOPPED, expect.stringContaining("climbs out")]);
  });
});

describe("the process: argv, env, cwd, timeout", () => {
  it("argv is never shell-interpreted: $(…), ;, backticks, globs and spaces stay literal arguments", async () => {
    const ws = workspace({ "keep.txt": "still here" });
    const tricky = ["$(touch pwned)", "; rm -f keep.txt", "`touch pwned2`", "*", "a b", "'quoted'", "&& exit 1"];
    const script = "require('node:fs').writeFileSync('args.json', JSON.stringify(process.argv.slice(1)))";
    const outcome = await runCommand(executor([NODE, "-e", script, ...tricky]), "argv", {
      workspace: ws,
      baseEnv: process.env,
    });
    expect(outcome.ok).toBe(true);
    expect(JSON.parse(readFileSync(path.join(ws, "args.json"), "utf8"))).toEqual(tricky);
    expect(existsSync(path.join(ws, "pwned"))).toBe(false);
    expect(existsSync(path.join(ws, "pwned2"))).toBe(false);
    expect(readFileSync(path.join(ws, "keep.txt"), "utf8")).toBe("still here");
    // The progress line quotes them as a shell would read them back.
    expect(displayArgv(["echo", "$(touch pwned)", "it's", "a\nb"])).toBe(`echo '$(touch pwned)' "it's" 'a\\nb'`);
  });

  it("the declared env and the cwd reach the process; the host's other variables do not", async () => {
    const ws = workspace();
    mkdirSync(path.join(ws, "packages/app"), { recursive: true });
    const script =
      "require('node:fs').writeFileSync('seen.json', JSON.stringify({ cwd: process.cwd(), greeting: process.env.GREETING, home: process.env.HOME, secret: process.env.DATABASE_URL ?? null, token: process.env.SOLSERVER_TOKEN ?? null }))";
    const base = {
      PATH: process.env.PATH,
      HOME: "/home/someone",
      DATABASE_URL: "file:secret.db",
      SOLSERVER_TOKEN: "t0k",
    };
    const lines: string[] = [];
    const outcome = await runCommand(
      executor([NODE, "-e", script], { cwd: "packages/app", env: { GREETING: "hello", HOME: "/declared/home" } }),
      "env",
      { workspace: ws, baseEnv: base, onLine: (l) => lines.push(l) },
    );
    expect(outcome).toMatchObject({ ok: true, exit_code: 0, reason: null });
    const seen = JSON.parse(readFileSync(path.join(ws, "packages/app/seen.json"), "utf8"));
    // The declared value wins over the inherited one; secrets in the host's env stay there.
    expect(seen).toEqual({
      cwd: path.join(ws, "packages/app"),
      greeting: "hello",
      home: "/declared/home",
      secret: null,
      token: null,
    });
    expect(lines[0]).toBe(`  env $ ${NODE} -e ${displayArgv([script])}   (in packages/app)`);
    expect(
      commandEnv({ A: "1" }, { PATH: "/bin", LC_ALL: "C", AWS_SECRET_ACCESS_KEY: "x", NODE_OPTIONS: "--x" }),
    ).toEqual({
      PATH: "/bin",
      LC_ALL: "C",
      A: "1",
    });
  });

  it("output is streamed line by line with the phase id; the step's context data carries a stdout tail", async () => {
    const ws = workspace({
      "talk.yaml": [
        "name: talk",
        "phases:",
        "  - id: talk",
        "    run:",
        `      command: [node, -e, ${q("process.stdout.write('one\\ntw'); process.stdout.write('o\\n'); console.error('to stderr'); console.log('three')")}]`,
        "    checkpoint:",
        "      condition: \"context.commands.talk.stdout_tail.includes('three') && context.commands.talk.exit_code === 0\"",
        "      prompt: Heard it?",
        "      options: [{ label: Yes, on_select: { action: continue } }]",
      ].join("\n"),
    });
    const res = await cli(["run", "talk.yaml", "-a", "talk=Yes"], ws);
    expect(res.code).toBe(WORKFLOW_EXIT.DONE);
    // A line split over two writes is one line; stderr comes along. (Two pipes: the order between
    // them is the scheduler's, so only each pipe's own order is checked.)
    expect(res.out).toContain(["  talk │ one", "  talk │ two"].join("\n"));
    expect(res.out.indexOf("  talk │ three")).toBeGreaterThan(res.out.indexOf("  talk │ two"));
    expect(res.out).toContain("  talk │ to stderr\n");
    // The condition read the command's data: the checkpoint showed.
    expect(res.out).toContain("? Heard it?");
  });

  it("a timeout stops the whole tree: SIGTERM, then SIGKILL after the grace period for what ignores it", async () => {
    // 2 s: the tree must have started (and installed its SIGTERM handlers) before the timeout, even
    // on a busy machine; the executor's text is only what the messages show.
    const timeoutMs = 2_000;
    const graceMs = 700;
    for (const stubborn of [false, true]) {
      const ws = workspace();
      const run = runCommand(
        executor([NODE, "-e", treeScript(stubborn)], { timeout: "2s", timeout_ms: timeoutMs }),
        "nap",
        { workspace: ws, graceMs, baseEnv: process.env },
      );
      const pids = (await waitForFile(path.join(ws, "pids"), run)).split(" ").map(Number);
      expect(pids.every(runs)).toBe(true);
      const outcome = await run;
      expect(outcome).toMatchObject({
        ok: false,
        timed_out: true,
        reason: "timed out after 2s; its processes were stopped",
      });
      // Parent and child are gone when the step returns: at once on SIGTERM, else by SIGKILL.
      expect(pids.filter(runs)).toEqual([]);
      // A tree that ignores SIGTERM is killed once the grace period is over.
      expect(outcome.signal).toBe(stubborn ? "SIGKILL" : "SIGTERM");
    }
  });

  it("processes a successful command leaves behind are stopped with it", async () => {
    const ws = workspace();
    // The leftover keeps stdout open, so waiting for the output to end would wait for ever.
    const script =
      "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' }); require('node:fs').writeFileSync('pids', String(c.pid)); c.unref(); console.log('started');";
    const outcome = await runCommand(executor([NODE, "-e", script]), "bg", {
      workspace: ws,
      graceMs: 700,
      baseEnv: process.env,
    });
    expect(outcome).toMatchObject({ ok: true, exit_code: 0 });
    expect(outcome.output_tail).toBe("started\n");
    expect(runs(Number(readFileSync(path.join(ws, "pids"), "utf8")))).toBe(false);
  });
});

describe("artifacts and the files a checkpoint shows stay in the workspace", () => {
  it("collects matching text files; leaves out symlinks outside, binaries, oversized files and folders", async () => {
    const outside = workspace({ "secret.md": "TOP SECRET" });
    const ws = workspace({
      "out/a.md": "# a",
      "out/b.md": "# b",
      "out/notes.txt": "not matched",
      "out/sub/c.md": "one level deeper: not matched by out/*.md",
      "out/big.md": "x".repeat(MAX_ARTIFACT_BYTES + 1),
      "out/bin.md": "\u0000\u0001binary",
    });
    mkdirSync(path.join(ws, "out/dir.md"));
    symlinkSync(path.join(outside, "secret.md"), path.join(ws, "out/leak.md"));
    symlinkSync(outside, path.join(ws, "linked"));
    const { artifacts, warnings } = await collectArtifacts(
      ["out/*.md", "linked/secret.md", "out/missing.txt", "./out/a.md", "none/*.md"],
      ws,
    );
    expect(artifacts).toEqual([
      { path: "out/a.md", content: "# a" },
      { path: "out/b.md", content: "# b" },
    ]);
    expect(warnings).toEqual([
      `out/big.md: is ${MAX_ARTIFACT_BYTES + 1} bytes; the limit is ${MAX_ARTIFACT_BYTES}`,
      "out/bin.md: is binary, not text",
      "out/dir.md: is not a regular file",
      "out/leak.md: leads outside the workspace",
      "linked/secret.md: leads outside the workspace",
      "out/missing.txt: not found",
      "none/*.md: no file matches",
    ]);
    expect(JSON.stringify(artifacts)).not.toContain("TOP SECRET");
    expect(await readWorkspaceFile(ws, "../x")).toEqual({ problem: 'climbs out with ".."; stay inside the workspace' });
  });

  it("through the CLI: a symlinked artifact is not shown at the checkpoint, and patterns leaving the workspace are refused at load", async () => {
    const outside = workspace({ "secret.md": "TOP SECRET" });
    const ws = workspace({
      "leak.yaml": [
        "name: leak",
        "phases:",
        "  - id: link",
        "    run:",
        `      command: [node, -e, ${q(`const fs = require('node:fs'); fs.mkdirSync('out', { recursive: true }); fs.symlinkSync(${q(path.join(outside, "secret.md"))}, 'out/leak.md'); fs.writeFileSync('out/ok.md', 'fine')`)}]`,
        "      artifacts: [out/*.md]",
        "    checkpoint:",
        "      prompt: Look?",
        "      show_files: [out/ok.md, out/leak.md]",
        "      options: [{ label: Done, on_select: { action: continue } }]",
      ].join("\n"),
      "climb.yaml":
        "name: climb\nphases:\n  - id: a\n    run: { command: [node, -e, '0'], artifacts: [../outside.md, /etc/passwd] }\n",
    });
    const res = await cli(["run", "leak.yaml", "-a", "link=Done"], ws);
    expect(res.code).toBe(WORKFLOW_EXIT.DONE);
    expect(res.out).toContain("  link ! artifact out/leak.md: leads outside the workspace");
    expect(res.out).toContain("  ── out/ok.md\n  │ fine");
    expect(res.out).toContain("  ── out/leak.md (leads outside the workspace)");
    expect(res.out).not.toContain("TOP SECRET");

    const climb = await cli(["validate", "climb.yaml"], ws);
    expect(climb.code).toBe(WORKFLOW_EXIT.INVALID);
    expect(climb.err).toContain("phases[0].run.artifacts[0]");
    expect(climb.err).toContain("phases[0].run.artifacts[1]");
  });
});

describe("what the CLI refuses to run", () => {
  it("webhook and worker steps: one line saying they run on the server; validate accepts them with a note", async () => {
    const ws = workspace({
      "remote.yaml": [
        "name: remote",
        "phases:",
        "  - id: build",
        "    run: { command: [node, -e, '0'] }",
        "  - id: style",
        "    run: { webhook: 'https://style.example.com/check' }",
        "  - id: draft",
        "    run: { worker: agents.drafting }",
      ].join("\n"),
    });
    const res = await cli(["run", "remote.yaml"], ws);
    expect([res.code, res.out]).toEqual([WORKFLOW_EXIT.INVALID, ""]);
    expect(res.err).toBe(
      "remote.yaml: webhook and worker steps run on the server, not in the CLI (phases style (webhook), draft (worker)): start this workflow from the dashboard (/workflows) or over the API",
    );
    const valid = await cli(["validate", "remote.yaml"], ws);
    expect(valid.code).toBe(WORKFLOW_EXIT.DONE);
    expect(valid.out).toContain("remote.yaml: valid (remote, 3 phases)");
    expect(valid.out).toContain("phases style (webhook), draft (worker) run on the server");
  });

  it("umbra.* steps and command steps in one definition are refused before anything runs", async () => {
    const ws = workspace({
      "mixed.yaml":
        "name: mixed\nphases:\n  - id: a\n    run: umbra.collect_triggers\n  - id: b\n    run: { command: [node, -e, '0'] }\n",
    });
    const res = await cli(["run", "mixed.yaml"], ws, {});
    expect([res.code, res.out]).toEqual([WORKFLOW_EXIT.INVALID, ""]);
    expect(res.err).toContain("umbra.* steps run as a stored run on the database and command steps run here");
  });

  it("--workspace names where commands run; a missing folder is exit 3", async () => {
    const ws = workspace({
      "sub/flow.yaml":
        "name: w\nphases:\n  - id: a\n    run: { command: [node, -e, \"require('node:fs').writeFileSync('here', '')\"] }\n",
    });
    mkdirSync(path.join(ws, "target"));
    const res = await cli(["run", "sub/flow.yaml", "--workspace", "target"], ws);
    expect(res.code).toBe(WORKFLOW_EXIT.DONE);
    expect(existsSync(path.join(ws, "target/here"))).toBe(true);
    const missing = await cli(["run", "sub/flow.yaml", "--workspace", "nope"], ws);
    expect([missing.code, missing.err]).toEqual([WORKFLOW_EXIT.INVALID, "--workspace nope: no such folder"]);
  });
});
