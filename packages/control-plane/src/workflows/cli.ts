import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import {
  CheckpointError,
  decide,
  loadWorkflow,
  secretEnvProblems,
  startRun,
  type TRunState,
  type TWorkflow,
  toPlainData,
  UMBRA_BEAT_YAML,
} from "@solserver/checkpoint";
import { isDomainError, SHIPPED_WORKFLOWS, type TWorkflowRun } from "@solserver/contracts";
import { Command, CommanderError } from "commander";
import { openControlPlaneFromEnv } from "../control-plane";
import { loadServerEnv } from "../env";
import type { TServiceContext } from "../services/context";
import { decideWorkflow, startWorkflow } from "../services/workflows";
import { CommandInterrupted, commandStep, readWorkspaceFile, type TArtifact } from "./command-step";
import { driveRun } from "./driver";
import { runsCommand } from "./runs-command";
import { tickCommand } from "./tick-command";
import { umbraBeatSteps } from "./umbra-beat";

// `pnpm workflow`: run a checkpoint workflow from a terminal or a CI job. A definition whose
// phases run server steps (the Umbra beat) runs through the control plane on the database, as a
// stored run the dashboard shows; any other runs here, in memory, its `command` steps as real
// processes in the workspace (command-step.ts). Webhook and worker steps run on the server only,
// and a step name nobody runs is refused, never "recorded as done". Checkpoints are asked in the
// terminal (arrow keys), or answered up front with --answer for non-interactive use.
// `tick` starts the scheduled workflows that are due (tick-command.ts), for cron.

export const WORKFLOW_EXIT = {
  /** The run finished. */
  DONE: 0,
  /** A phase repeated past max_iterations, or a step failed. */
  STOPPED: 1,
  /** A person chose abort (the seed's exit code). */
  ABORTED: 2,
  /** The definition or the arguments are wrong; nothing ran. */
  INVALID: 3,
  /** A bug, or the database could not be opened. */
  INTERNAL: 4,
  /** A checkpoint is waiting for a decision nobody gave (not interactive, no --answer). */
  PAUSED: 5,
  /** Ctrl-C (or SIGTERM) while a command step ran: its processes were stopped, the run dropped. */
  INTERRUPTED: 130,
} as const;

export type TAsk = {
  choose: (prompt: string, labels: string[]) => Promise<string>;
  text: (prompt: string) => Promise<string>;
};

export type TCliIo = {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Where relative paths start (the directory the person ran the command in). */
  cwd: string;
  /** Asks in the terminal; absent when not interactive. */
  ask?: TAsk | undefined;
  /** The process's environment, handed over by the entry script (read once, by env.ts parsers). */
  env: Record<string, string | undefined>;
};

type TCheckpointView = NonNullable<TWorkflowRun["checkpoint"]>;
/** A file a checkpoint shows; `note` says why an in-memory run does not show it (default "not found"). */
type TViewFile = TCheckpointView["files"][number] & { note?: string };
/**
 * The view both kinds of run give the terminal: where the run stands, and what of its checkpoint
 * the terminal shows (a stored run's view has more; an in-memory run gives just this).
 */
type TView = Pick<TWorkflowRun, "status" | "log" | "exit_code" | "error"> & {
  run_id: string | null;
  checkpoint: (Pick<TCheckpointView, "phase_id" | "prompt" | "options"> & { files: TViewFile[] }) | null;
};
type TRunner = { view: TView; decide: (label: string, feedback: string | undefined) => Promise<TView> };

export class UsageError extends Error {}

/** "review=Skip promotion:not this week" → phase, label, feedback (the first ":" ends the label). */
function parseAnswer(text: string): { phase: string; label: string; feedback?: string } {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new UsageError(`--answer "${text}": write it as <phase>=<label>[:feedback]`);
  const phase = text.slice(0, eq).trim();
  const rest = text.slice(eq + 1);
  const colon = rest.indexOf(":");
  const label = (colon < 0 ? rest : rest.slice(0, colon)).trim();
  if (!label) throw new UsageError(`--answer "${text}": the label is empty`);
  return colon < 0 ? { phase, label } : { phase, label, feedback: rest.slice(colon + 1).trim() };
}

/** --context '{"feature": {"flags": ["production"]}}': data the conditions read (in-memory runs). */
function parseContext(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--context: not JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError("--context: must be a JSON object");
  }
  // The rule the runner applies to the data conditions read (plain JSON data, no prototype keys
  // at any depth), checked here so that breaking it is a usage error (exit 3), not an internal one.
  try {
    return toPlainData(value, "--context") as Record<string, unknown>;
  } catch (error) {
    if (error instanceof CheckpointError) throw new UsageError(error.message);
    throw error;
  }
}

function parseVar(text: string): [string, string] {
  const eq = text.indexOf("=");
  if (eq <= 0) throw new UsageError(`--var "${text}": write it as <name>=<value>`);
  return [text.slice(0, eq).trim(), text.slice(eq + 1)];
}

async function readDefinition(arg: string, cwd: string): Promise<{ yaml: string }> {
  if ((SHIPPED_WORKFLOWS as readonly string[]).includes(arg)) return { yaml: UMBRA_BEAT_YAML };
  const file = path.resolve(cwd, arg);
  try {
    return { yaml: await readFile(file, "utf8") };
  } catch (error) {
    throw new UsageError(`cannot read ${arg}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** The server's named steps (the closures are only listed here, never called). */
function serverStepNames(): string[] {
  return Object.keys(umbraBeatSteps(undefined as never, undefined as never));
}

/**
 * What `validate` and `run` refuse in a loaded definition, as the server does: a signing key
 * outside SOLSERVER_WEBHOOK_SECRET_*, and steps nobody runs (a `run:` name that is neither a
 * server step nor an executor), listing what is known.
 */
function definitionProblems(workflow: TWorkflow): string[] {
  return [...secretEnvProblems(workflow), ...unknownStepProblems(workflow)];
}

function unknownStepProblems(workflow: TWorkflow): string[] {
  const known = serverStepNames();
  const unknown = workflow.phases.flatMap((p) =>
    p.run !== undefined && p.executor === undefined && !known.includes(p.run)
      ? [`phases.${p.id}.run: unknown step "${p.run}"`]
      : [],
  );
  if (unknown.length === 0) return unknown;
  return [
    ...unknown,
    `known steps: ${known.join(", ")}; or an executor: { command: [program, ...args] } (runs here, in the CLI), { webhook: url } or { worker: queue } (run on the server)`,
  ];
}

/** Phases whose executor only the server runs (webhook, worker), as "style_check (webhook)". */
function serverOnlyPhases(workflow: TWorkflow): string[] {
  return workflow.phases.flatMap((p) =>
    p.executor && p.executor.kind !== "command" ? [`${p.id} (${p.executor.kind})`] : [],
  );
}

/** --workspace (default: where the command was run), as a real, existing folder. */
async function workspaceOf(given: string | undefined, cwd: string): Promise<string> {
  const dir = path.resolve(cwd, given ?? ".");
  try {
    const real = await realpath(dir);
    if ((await stat(real)).isDirectory()) return real;
  } catch {
    // reported below
  }
  throw new UsageError(`--workspace ${given ?? dir}: no such folder`);
}

/** A path as artifacts are keyed: "./out//a.md" and "out/a.md" are one file. */
const artifactKey = (p: string) =>
  p
    .split("/")
    .filter((s) => s !== "" && s !== ".")
    .join("/");

/**
 * A run here, in memory, of a definition without server steps. `command` phases run as real
 * processes in the workspace; checkpoints show the files the phases collected as artifacts, else
 * the workspace's file (the same rules: inside the workspace, regular text, at most 1 MB).
 */
async function memoryRunner(
  workflow: TWorkflow,
  variables: Record<string, string>,
  context: Record<string, unknown>,
  opts: {
    workspace: string;
    env: Record<string, string | undefined>;
    /** Output lines of the commands, as they come. */
    onLine: (line: string) => void;
    /** The run's log so far, after every phase (before the next one starts). */
    onState: (state: TRunState) => void;
  },
): Promise<TRunner> {
  const now = () => new Date();
  const steps = {
    command: commandStep({ workspace: opts.workspace, onLine: opts.onLine, baseEnv: opts.env, interruptible: true }),
  };
  const artifacts = new Map<string, string>();
  const keep = (files: TArtifact[] | undefined) => {
    for (const file of files ?? []) artifacts.set(artifactKey(file.path), file.content);
  };
  const files = async (paths: string[]): Promise<TViewFile[]> =>
    Promise.all(
      paths.map(async (p): Promise<TViewFile> => {
        const kept = artifacts.get(artifactKey(p));
        if (kept !== undefined) return { path: p, content: kept };
        const read = await readWorkspaceFile(opts.workspace, p);
        return "content" in read ? { path: p, content: read.content } : { path: p, content: null, note: read.problem };
      }),
    );
  const viewOf = async (state: TRunState): Promise<TView> => ({
    run_id: null,
    status: state.status,
    exit_code: state.exit_code,
    error: state.failure ? `phase ${state.failure.phase_id}: ${state.failure.error}` : null,
    log: state.log,
    checkpoint: state.pending
      ? {
          phase_id: state.pending.phase_id,
          prompt: state.pending.prompt,
          files: await files(state.pending.files),
          options: state.pending.options,
        }
      : null,
  });
  const drive = async (from: TRunState) => {
    opts.onState(from);
    return driveRun(workflow, from, {
      steps,
      now,
      onPhase: async (next, collected) => {
        keep(collected);
        opts.onState(next);
      },
    });
  };
  let state = await drive(startRun(workflow, { variables, context, now: now() }));
  const runner: TRunner = {
    view: await viewOf(state),
    decide: async (label, feedback) => {
      state = await drive(decide(workflow, state, { label, ...(feedback ? { feedback } : {}), now: now() }));
      return viewOf(state);
    },
  };
  return runner;
}

/** A run through the control plane on the database: stored, visible in the dashboard. */
async function serverRunner(
  yaml: string,
  variables: Record<string, string>,
  as: string,
  env: Record<string, string | undefined>,
): Promise<TRunner & { close: () => Promise<void> }> {
  // The server's own configuration (thresholds, gate, routing, catalog): a run started here must
  // behave as one started from the dashboard.
  const opened = await openControlPlaneFromEnv(loadServerEnv(env));
  const close = () => opened.db.$disconnect();
  try {
    const account = await opened.repos.accounts.byEmail(as);
    if (account?.role !== "jam") {
      throw new UsageError(
        `--as ${as}: ${account ? "is not a Jam editor" : "no such account"}; workflows are Jam editors' work`,
      );
    }
    const ctx: TServiceContext = {
      deps: opened.deps,
      caller: { kind: "user", userId: account.id, email: account.email, role: "jam", via: "cli" },
    };
    let run = await startWorkflow(ctx, { definition: yaml, variables }, "cli");
    return {
      view: run,
      close,
      decide: async (label, feedback) => {
        run = await decideWorkflow(ctx, {
          run_id: run.run_id,
          version: run.version,
          label,
          ...(feedback ? { feedback } : {}),
        });
        return run;
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}

const FILE_LINES = 60;

async function runCommand(
  definitionArg: string,
  opts: {
    answer: string[];
    var: string[];
    context?: string;
    as: string;
    input: boolean;
    verbose: boolean;
    workspace?: string;
  },
  io: TCliIo,
): Promise<number> {
  const answers = opts.answer.map(parseAnswer);
  const variables = Object.fromEntries(opts.var.map(parseVar));
  const { yaml } = await readDefinition(definitionArg, io.cwd);
  const loaded = loadWorkflow(yaml);
  const problems = loaded.ok ? definitionProblems(loaded.workflow) : loaded.errors;
  if (!loaded.ok || problems.length > 0) {
    io.err(`${definitionArg}: invalid workflow definition`);
    for (const line of problems) io.err(`  ${line}`);
    return WORKFLOW_EXIT.INVALID;
  }
  const workflow = loaded.workflow;
  const remote = serverOnlyPhases(workflow);
  if (remote.length > 0) {
    io.err(
      `${definitionArg}: webhook and worker steps run on the server, not in the CLI (phases ${remote.join(", ")}): start this workflow from the dashboard (/workflows) or over the API`,
    );
    return WORKFLOW_EXIT.INVALID;
  }
  const context = parseContext(opts.context);
  // The server's steps (umbra.*) run on the database as a stored run; anything else runs here.
  const usesSteps = workflow.phases.some((p) => p.run?.startsWith("umbra."));
  const commands = workflow.phases.filter((p) => p.executor?.kind === "command");
  if (usesSteps && commands.length > 0) {
    io.err(
      `${definitionArg}: umbra.* steps run as a stored run on the database and command steps run here; put them in separate workflows`,
    );
    return WORKFLOW_EXIT.INVALID;
  }
  const workspace = usesSteps ? null : await workspaceOf(opts.workspace, io.cwd);
  const env = io.env;
  let printed = 0;
  const progress = (log: TView["log"]) => {
    for (const entry of log.slice(printed)) {
      if (entry.level === "debug" && !opts.verbose) continue;
      const mark = entry.level === "error" ? "✗" : entry.level === "warn" ? "!" : "·";
      io.out(`${mark} ${entry.message}`);
    }
    printed = log.length;
  };
  const server = usesSteps ? await serverRunner(yaml, variables, opts.as, env) : null;
  io.out(`workflow ${workflow.name}: ${workflow.phases.length} phases${usesSteps ? ", a stored run" : ""}`);
  if (workspace !== null && commands.length > 0) io.out(`commands run in ${workspace}`);
  if (!usesSteps && workflow.notify) io.out(`notify: not sent from the CLI (a stored run on the server sends it)`);
  const runner =
    server ??
    (await memoryRunner(workflow, variables, context, {
      workspace: workspace ?? io.cwd,
      env,
      onLine: io.out,
      onState: (state) => progress(state.log),
    }));
  try {
    let view = runner.view;
    if (view.run_id) io.out(`run ${view.run_id}`);
    progress(view.log);
    while (view.status === "awaiting_decision" && view.checkpoint) {
      const cp = view.checkpoint;
      io.out("");
      io.out(`? ${cp.prompt}`);
      for (const file of cp.files) {
        if (file.content === null) {
          io.out(`  ── ${file.path} (${file.note ?? "not found"})`);
          continue;
        }
        io.out(`  ── ${file.path}`);
        const lines = file.content.replace(/\n$/, "").split("\n");
        for (const line of lines.slice(0, FILE_LINES)) io.out(`  │ ${line}`);
        if (lines.length > FILE_LINES) io.out(`  │ … ${lines.length - FILE_LINES} more lines`);
      }
      const labels = cp.options.map((o) => o.label);
      const index = answers.findIndex((a) => a.phase === cp.phase_id);
      let label: string;
      let feedback: string | undefined;
      if (index >= 0) {
        const [given] = answers.splice(index, 1);
        label = given?.label ?? "";
        feedback = given?.feedback;
        if (!labels.includes(label)) {
          throw new UsageError(`--answer ${cp.phase_id}=${label}: no such option (options: ${labels.join(", ")})`);
        }
        io.out(`  → ${label}${feedback ? ` (feedback: ${feedback})` : ""}`);
      } else if (opts.input && io.ask) {
        label = await io.ask.choose(cp.prompt, labels);
        if (cp.options.find((o) => o.label === label)?.with_feedback) {
          feedback = (await io.ask.text("Feedback (optional):")).trim() || undefined;
        }
      } else {
        io.err(
          `checkpoint ${cp.phase_id} waits for a decision (options: ${labels.join(", ")}); pass --answer "${cp.phase_id}=<label>"${
            view.run_id ? `, or decide ${view.run_id} in the dashboard at /workflows` : ""
          }`,
        );
        return WORKFLOW_EXIT.PAUSED;
      }
      const option = cp.options.find((o) => o.label === label);
      if (feedback && !option?.with_feedback) {
        throw new UsageError(`--answer ${cp.phase_id}=${label}: this option takes no feedback`);
      }
      view = await runner.decide(label, feedback);
      progress(view.log);
    }
    if (view.status === "failed") {
      io.err(`run failed: ${view.error ?? "unknown error"}`);
      return WORKFLOW_EXIT.STOPPED;
    }
    const code = view.exit_code ?? WORKFLOW_EXIT.DONE;
    io.out(code === 0 ? "done" : code === 2 ? "aborted (exit 2)" : `stopped (exit ${code})`);
    return code;
  } finally {
    if ("close" in runner) await (runner as { close: () => Promise<void> }).close();
  }
}

/** The whole CLI: arguments in, exit code out (never calls process.exit, so tests can run it). */
export async function runWorkflowCli(argv: readonly string[], io: TCliIo): Promise<number> {
  let code: number = WORKFLOW_EXIT.DONE;
  const program = new Command("workflow")
    .description("Run checkpoint workflows (seed 003): phases that pause for a person's decision.")
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });
  const collect = (value: string, previous: string[]) => [...previous, value];
  program
    .command("run")
    .description("run a definition (a YAML file, or the shipped umbra-beat)")
    .argument("<definition>", "workflow YAML file, or umbra-beat")
    .option(
      "-a, --answer <phase=label[:feedback]>",
      "decision for a checkpoint (repeatable, used in order)",
      collect,
      [],
    )
    .option("--var <name=value>", "a value for one of the definition's variables (repeatable)", collect, [])
    .option("--context <json>", "data the checkpoint conditions read, as a JSON object (in-memory runs)")
    .option(
      "--as <email>",
      "the Jam editor a stored run acts as",
      io.env?.SOLSERVER_WORKFLOW_AS ?? "jam@solserver.local",
    )
    .option("--no-input", "never prompt: a checkpoint without an --answer ends with exit code 5")
    .option(
      "-w, --workspace <dir>",
      "where command steps run and files are read; their cwd and artifacts are relative to it (default: the current directory)",
    )
    .option("-v, --verbose", "also print debug lines", false)
    .action(async (definition: string, opts) => {
      code = await runCommand(definition, opts, io);
    });
  program
    .command("validate")
    .description("check a definition without running it (exit 0 valid, 3 invalid)")
    .argument("<definition>", "workflow YAML file, or umbra-beat")
    .action(async (definition: string) => {
      const { yaml } = await readDefinition(definition, io.cwd);
      const loaded = loadWorkflow(yaml);
      const problems = loaded.ok ? definitionProblems(loaded.workflow) : loaded.errors;
      if (loaded.ok && problems.length === 0) {
        io.out(`${definition}: valid (${loaded.workflow.name}, ${loaded.workflow.phases.length} phases)`);
        const remote = serverOnlyPhases(loaded.workflow);
        if (remote.length > 0) {
          io.out(
            `  phases ${remote.join(", ")} run on the server: start it from the dashboard (/workflows) or over the API, not with \`workflow run\``,
          );
        }
        code = WORKFLOW_EXIT.DONE;
      } else {
        io.err(`${definition}: invalid workflow definition`);
        for (const line of problems) io.err(`  ${line}`);
        code = WORKFLOW_EXIT.INVALID;
      }
    });
  program
    .command("runs")
    .description("the recent runs: what each waits for (a webhook delivery, a worker, a decision) or how it ended")
    .option(
      "--status <status>",
      "only runs with this status (running, awaiting_worker, awaiting_decision, done, failed, …)",
    )
    .option("--limit <n>", "how many, newest first (at most 100)", "25")
    .option("--as <email>", "the Jam editor who reads them", io.env?.SOLSERVER_WORKFLOW_AS ?? "jam@solserver.local")
    .action(async (opts) => {
      code = await runsCommand(io, opts);
    });
  program
    .command("tick")
    .description("start every scheduled workflow that is due, once (for cron; the web server also ticks by itself)")
    .action(async () => {
      code = await tickCommand(io);
    });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 ? WORKFLOW_EXIT.DONE : WORKFLOW_EXIT.INVALID;
    }
    if (error instanceof UsageError) {
      io.err(error.message);
      return WORKFLOW_EXIT.INVALID;
    }
    if (error instanceof CommandInterrupted) {
      io.err(error.message);
      return WORKFLOW_EXIT.INTERRUPTED;
    }
    if (
      isDomainError(error) &&
      (error.code === "BAD_INPUT" || error.code === "CONFLICT" || error.code === "FORBIDDEN")
    ) {
      io.err(error.message);
      return WORKFLOW_EXIT.INVALID;
    }
    io.err(`internal error: ${error instanceof Error ? error.message : String(error)}`);
    return WORKFLOW_EXIT.INTERNAL;
  }
}
