import { type ChildProcess, spawn } from "node:child_process";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { StringDecoder } from "node:string_decoder";
import { relativePathProblem, type TCommandExecutor } from "@solserver/checkpoint";
import { collectArtifacts, isInside } from "./command-artifacts";
import { commandEnv } from "./command-env";
import { displayArgv, lastLine, tail } from "./command-output";
import { StepFailure, type TStep, type TStepResult } from "./driver";
import { groupGone, groupRuns, liveGroups, signalGroup, trackGroup } from "./process-group";

// The workspace rules live with the artifacts; importable from here as before.
export * from "./command-artifacts";

// The `command` executor (issue 25): a phase's argv run as a real local process. Decisions:
//
// - **Workspace**: the folder the host names (the CLI: the directory the person ran it in, or
//   --workspace). `cwd` and `artifacts` are relative to it; neither may leave it, symlinks
//   included (both are compared after realpath).
// - **No shell**: spawn(argv[0], argv.slice(1), { shell: false }); "$(x)", ";" and globs are
//   literal arguments.
// - **Environment**: not the host's whole environment (it holds DATABASE_URL, API keys, tokens),
//   only INHERITED_ENV (PATH, HOME, locale, temp dirs, ...) plus the phase's declared `env`, which
//   wins. A secret a command needs is declared: `env: { TOKEN: "{{token}}" }` with `--var token=...`.
// - **Process tree**: the command leads its own process group (detached). On timeout, interrupt,
//   or when the command exits but left processes behind, the group gets SIGTERM, then SIGKILL
//   after the grace period (KILL_GRACE_MS). A step's processes end with the step.
// - **Output**: every line is streamed, prefixed with the phase id, to `onLine`; the last
//   OUTPUT_TAIL_CHARS of stdout and stderr (interleaved) are kept for the failure message.
// - **Result**: exit code 0 is success. Anything else (non-zero, a signal, the timeout, a program
//   that cannot start) fails the phase with a one-line reason (StepFailure → phaseFailed).
// - **Artifacts**, after success only: each pattern (a path or a `*` / `?` glob) is matched
//   against the workspace's files. Kept: regular UTF-8 text files of at most MAX_ARTIFACT_BYTES,
//   at most MAX_ARTIFACTS per phase. Anything else (missing, binary, too big, a folder, outside the
//   workspace through a symlink) is left out with a warning line; the step still succeeds.
// - **Context data**: `commands.<phase_id> = { exit_code, duration_ms, stdout_tail, artifacts }`
//   (stdout_tail: the last DATA_TAIL_CHARS of stdout; artifacts: the paths collected), merged into
//   the run's earlier `commands`, so conditions read `context.commands.test.stdout_tail`.
//   Under its own key, not the phase id, because phase ids such as "phases" are reserved there.

/** Between SIGTERM and SIGKILL for the command's process group. */
const KILL_GRACE_MS = 5_000;
/** Output kept for the failure message (characters, stdout and stderr interleaved). */
const OUTPUT_TAIL_CHARS = 64 * 1024;
/** The end of stdout kept in the context (commands.<phase>.stdout_tail). */
const DATA_TAIL_CHARS = 4_000;
/** A streamed line longer than this is cut (a minified bundle, a progress bar without newlines). */
const MAX_LINE_CHARS = 2_000;

export type TCommandOptions = {
  /** Absolute path of the workspace: cwd and artifacts are relative to it. */
  workspace: string;
  /** Progress lines (the command line, its output prefixed with the phase id, the outcome). */
  onLine?: (line: string) => void;
  /** The environment INHERITED_ENV is taken from: the CLI's own, handed over by its entry script. */
  baseEnv: Record<string, string | undefined>;
  graceMs?: number;
  /**
   * Ctrl-C / SIGTERM / SIGHUP to this process while a command runs stop the command's process
   * group (it is detached, so the terminal's signal does not reach it) and the step throws
   * CommandInterrupted. For a CLI; a server stops its runs its own way.
   */
  interruptible?: boolean;
};

export type TCommandOutcome = {
  ok: boolean;
  /** One line: "exit code 3; last output: …", "timed out after 5m", "command not found: x". */
  reason: string | null;
  exit_code: number | null;
  signal: NodeJS.Signals | null;
  timed_out: boolean;
  duration_ms: number;
  /** The last OUTPUT_TAIL_CHARS of stdout and stderr, interleaved. */
  output_tail: string;
  stdout_tail: string;
};

/** The person (or the host's supervisor) stopped the CLI while a command ran: not the phase's failure. */
export class CommandInterrupted extends Error {
  constructor(
    readonly signal: NodeJS.Signals,
    readonly phaseId: string,
  ) {
    super(`interrupted (${signal}) while phase ${phaseId} ran; its processes were stopped`);
    this.name = "CommandInterrupted";
  }
}

/** The working directory inside the workspace, or why not. */
async function workingDirectory(workspace: string, cwd: string | null): Promise<string> {
  if (cwd === null) return workspace;
  const problem = relativePathProblem(cwd);
  if (problem !== undefined) throw new StepFailure(`cwd ${problem}`);
  let real: string;
  try {
    real = await realpath(path.resolve(workspace, cwd));
  } catch {
    throw new StepFailure(`cwd ${cwd}: no such folder in the workspace`);
  }
  if (!isInside(workspace, real)) throw new StepFailure(`cwd ${cwd}: leads outside the workspace`);
  if (!(await stat(real)).isDirectory()) throw new StepFailure(`cwd ${cwd}: is not a folder`);
  return real;
}

/**
 * Runs one command executor to its end and says how it went; never throws for the command's own
 * failure (a bad cwd is a StepFailure, an interrupt CommandInterrupted).
 */
export async function runCommand(
  executor: TCommandExecutor,
  phaseId: string,
  options: TCommandOptions,
): Promise<TCommandOutcome> {
  const graceMs = options.graceMs ?? KILL_GRACE_MS;
  const emit = options.onLine ?? (() => {});
  const cwd = await workingDirectory(options.workspace, executor.cwd);
  const [program, ...args] = executor.command;
  if (program === undefined) throw new StepFailure("the command is empty");
  emit(`  ${phaseId} $ ${displayArgv(executor.command)}${executor.cwd ? `   (in ${executor.cwd})` : ""}`);

  const started = performance.now();
  let output = "";
  let stdout = "";
  const partial: Record<"out" | "err", string> = { out: "", err: "" };
  const flushLines = (which: "out" | "err", text: string, final: boolean) => {
    const lines = (partial[which] + text).split("\n");
    partial[which] = final ? "" : (lines.pop() ?? "");
    for (const line of lines) {
      if (final && line === "") continue;
      const shown = line.endsWith("\r") ? line.slice(0, -1) : line;
      emit(`  ${phaseId} │ ${shown.length > MAX_LINE_CHARS ? `${shown.slice(0, MAX_LINE_CHARS)}…` : shown}`);
    }
  };

  let child: ChildProcess;
  try {
    child = spawn(program, args, {
      shell: false,
      cwd,
      env: commandEnv(executor.env, options.baseEnv),
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so the timeout can stop everything it started.
      detached: process.platform !== "win32",
      windowsHide: true,
    });
  } catch (error) {
    return failedToStart(error, program, started);
  }

  const pid = child.pid;
  let timedOut = false;
  let interrupted: NodeJS.Signals | null = null;
  let killTimer: NodeJS.Timeout | undefined;
  let terminating = false;
  /** SIGTERM to the group now, SIGKILL after the grace period; once. */
  const terminate = () => {
    if (terminating || pid === undefined) return;
    terminating = true;
    signalGroup(pid, "SIGTERM");
    killTimer = setTimeout(() => signalGroup(pid, "SIGKILL"), graceMs);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    emit(`  ${phaseId} ✗ timed out after ${executor.timeout}: stopping it`);
    terminate();
  }, executor.timeout_ms);
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted ??= signal;
    terminate();
  };
  const signals: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
  if (options.interruptible) for (const signal of signals) process.on(signal, onSignal);
  if (pid !== undefined) trackGroup(pid);

  const decoders = { out: new StringDecoder("utf8"), err: new StringDecoder("utf8") };
  const keep = (which: "out" | "err", text: string) => {
    output = tail(output + text, OUTPUT_TAIL_CHARS);
    if (which === "out") stdout = tail(stdout + text, OUTPUT_TAIL_CHARS);
    flushLines(which, text, false);
  };
  child.stdout?.on("data", (chunk: Buffer) => keep("out", decoders.out.write(chunk)));
  child.stderr?.on("data", (chunk: Buffer) => keep("err", decoders.err.write(chunk)));

  try {
    const exit = await new Promise<
      { code: number | null; signal: NodeJS.Signals | null } | { error: NodeJS.ErrnoException }
    >((resolve) => {
      let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
      child.once("error", (error) => resolve({ error }));
      child.once("exit", (code, signal) => {
        exited = { code, signal };
        // The command is done; whatever it left running in its group is stopped now.
        if (pid !== undefined) {
          void groupRuns(pid).then((runs) => {
            if (runs) terminate();
          });
        }
        // A process that escaped the group may hold the pipes open: do not wait for it forever.
        setTimeout(() => {
          child.stdout?.destroy();
          child.stderr?.destroy();
          resolve({ code, signal });
        }, graceMs + 1_000).unref();
      });
      child.once("close", () => {
        if (exited) resolve(exited);
      });
    });
    // Nothing of the group runs on (it was sent SIGKILL at the latest) when the step returns.
    if (pid !== undefined && (terminating || (await groupRuns(pid)))) {
      terminate();
      await groupGone(pid, graceMs + 500);
    }
    const rest = { out: decoders.out.end(), err: decoders.err.end() };
    for (const which of ["out", "err"] as const) {
      if (rest[which]) keep(which, rest[which]);
      flushLines(which, "", true);
    }
    if ("error" in exit) return failedToStart(exit.error, program, started);
    const duration = Math.round(performance.now() - started);
    if (interrupted) throw new CommandInterrupted(interrupted, phaseId);
    const base = {
      exit_code: exit.code,
      signal: exit.signal,
      timed_out: timedOut,
      duration_ms: duration,
      output_tail: output,
      stdout_tail: stdout,
    };
    if (timedOut)
      return { ...base, ok: false, reason: `timed out after ${executor.timeout}; its processes were stopped` };
    if (exit.code === 0) return { ...base, ok: true, reason: null };
    const last = lastLine(output);
    const why = exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
    return { ...base, ok: false, reason: last ? `${why}; last output: ${last}` : why };
  } finally {
    clearTimeout(timer);
    if (killTimer) clearTimeout(killTimer);
    if (pid !== undefined) liveGroups.delete(pid);
    if (options.interruptible) for (const signal of signals) process.off(signal, onSignal);
  }
}

function failedToStart(error: unknown, program: string, started: number): TCommandOutcome {
  const code = (error as NodeJS.ErrnoException).code;
  const reason =
    code === "ENOENT"
      ? `command not found: ${program}`
      : code === "EACCES"
        ? `cannot run ${program}: permission denied`
        : `cannot run ${program}: ${code ?? (error instanceof Error ? error.message : String(error))}`;
  return {
    ok: false,
    reason,
    exit_code: null,
    signal: null,
    timed_out: false,
    duration_ms: Math.round(performance.now() - started),
    output_tail: "",
    stdout_tail: "",
  };
}

/**
 * The `command` step for driveRun: runs `state.next.executor`, then collects its artifacts. A
 * failure throws StepFailure, which driveRun hands to phaseFailed (gap-check retry, else failed).
 */
export function commandStep(options: TCommandOptions): TStep {
  return async ({ state, phaseId }): Promise<TStepResult> => {
    const next = state.next;
    if (next.kind !== "run_phase" || next.executor?.kind !== "command") {
      throw new Error(`phase ${phaseId}: no command executor in the run's next step`);
    }
    const workspace = await realpath(options.workspace);
    const outcome = await runCommand(next.executor, phaseId, { ...options, workspace });
    const emit = options.onLine ?? (() => {});
    if (!outcome.ok) {
      emit(`  ${phaseId} ✗ ${outcome.reason}`);
      throw new StepFailure(outcome.reason ?? "the command failed");
    }
    emit(`  ${phaseId} ✓ exit 0 in ${(outcome.duration_ms / 1000).toFixed(1)}s`);
    const { artifacts, warnings } = await collectArtifacts(next.executor.artifacts, workspace);
    for (const warning of warnings) emit(`  ${phaseId} ! artifact ${warning}`);
    const previous = (state.context as Record<string, unknown>).commands;
    const earlier = previous && typeof previous === "object" && !Array.isArray(previous) ? previous : {};
    return {
      data: {
        commands: {
          ...earlier,
          [phaseId]: {
            exit_code: 0,
            duration_ms: outcome.duration_ms,
            stdout_tail: tail(outcome.stdout_tail, DATA_TAIL_CHARS),
            artifacts: artifacts.map((a) => a.path),
          },
        },
      },
      artifacts,
    };
  };
}
