import { readFile } from "node:fs/promises";
import path from "node:path";
import {
  CheckpointError,
  decide,
  loadWorkflow,
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
import { driveRun } from "./driver";
import { tickCommand } from "./tick-command";

// `pnpm workflow`: run a checkpoint workflow from a terminal or a CI job. A definition whose
// phases run server steps (the Umbra beat) runs through the control plane on the database, as a
// stored run the dashboard shows; one without steps runs here, in memory. Checkpoints are asked
// in the terminal (arrow keys), or answered up front with --answer for non-interactive use.
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
  env?: Record<string, string | undefined>;
};

/** The view both kinds of run give the terminal: where the run stands, and its checkpoint. */
type TView = Pick<TWorkflowRun, "status" | "checkpoint" | "log" | "exit_code" | "error"> & { run_id: string | null };
type TRunner = { view: TView; decide: (label: string, feedback: string | undefined) => Promise<TView> };

class UsageError extends Error {}

/** "review=Skip promotion:not this week" → phase, label, feedback (the first ":" ends the label). */
export function parseAnswer(text: string): { phase: string; label: string; feedback?: string } {
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

async function readDefinition(arg: string, cwd: string): Promise<{ yaml: string; dir: string }> {
  if ((SHIPPED_WORKFLOWS as readonly string[]).includes(arg)) return { yaml: UMBRA_BEAT_YAML, dir: cwd };
  const file = path.resolve(cwd, arg);
  try {
    return { yaml: await readFile(file, "utf8"), dir: path.dirname(file) };
  } catch (error) {
    throw new UsageError(`cannot read ${arg}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/**
 * A run here, in memory, of a definition without server steps; files are read from the
 * definition's folder. Its `run` steps (`agent.plan` …) belong to the team's own executor: the CLI
 * drives the checkpoints and records those phases as done, saying so.
 */
async function memoryRunner(
  workflow: TWorkflow,
  variables: Record<string, string>,
  context: Record<string, unknown>,
  dir: string,
): Promise<TRunner> {
  const now = () => new Date();
  const external = async () => ({});
  const steps = Object.fromEntries(workflow.phases.flatMap((p) => (p.run ? [[p.run, external]] : [])));
  const files = async (paths: string[]) =>
    Promise.all(
      paths.map(async (p) => ({
        path: p,
        content: await readFile(path.resolve(dir, p), "utf8").catch(() => null),
      })),
    );
  const viewOf = async (state: TRunState): Promise<TView> => ({
    run_id: null,
    status: state.status,
    exit_code: state.exit_code,
    error: null,
    log: state.log,
    checkpoint: state.pending
      ? {
          phase_id: state.pending.phase_id,
          prompt: state.pending.prompt,
          files: await files(state.pending.files),
          options: state.pending.options,
          // An in-memory run has no server plan to trim; the CLI decides the checkpoint whole.
          plan: null,
        }
      : null,
  });
  let state = await driveRun(workflow, startRun(workflow, { variables, context, now: now() }), { steps, now });
  const runner: TRunner = {
    view: await viewOf(state),
    decide: async (label, feedback) => {
      state = decide(workflow, state, { label, ...(feedback ? { feedback } : {}), now: now() });
      state = await driveRun(workflow, state, { steps, now });
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
  opts: { answer: string[]; var: string[]; context?: string; as: string; input: boolean; verbose: boolean },
  io: TCliIo,
): Promise<number> {
  const answers = opts.answer.map(parseAnswer);
  const variables = Object.fromEntries(opts.var.map(parseVar));
  const { yaml, dir } = await readDefinition(definitionArg, io.cwd);
  const loaded = loadWorkflow(yaml);
  if (!loaded.ok) {
    io.err(`${definitionArg}: invalid workflow definition`);
    for (const line of loaded.errors) io.err(`  ${line}`);
    return WORKFLOW_EXIT.INVALID;
  }
  const workflow = loaded.workflow;
  const context = parseContext(opts.context);
  // The server's steps (umbra.*) run on the database as a stored run; anything else runs here.
  const usesSteps = workflow.phases.some((p) => p.run?.startsWith("umbra."));
  const env = io.env ?? process.env;
  const server = usesSteps ? await serverRunner(yaml, variables, opts.as, env) : null;
  io.out(`workflow ${workflow.name}: ${workflow.phases.length} phases${usesSteps ? ", a stored run" : ""}`);
  const external = [...new Set(workflow.phases.flatMap((p) => (p.run ? [p.run] : [])))];
  if (!usesSteps && external.length > 0) {
    io.out(`steps run by your own executor, recorded here as done: ${external.join(", ")}`);
  }
  const runner = server ?? (await memoryRunner(workflow, variables, context, dir));
  let printed = 0;
  const progress = (view: TView) => {
    for (const entry of view.log.slice(printed)) {
      if (entry.level === "debug" && !opts.verbose) continue;
      const mark = entry.level === "error" ? "✗" : entry.level === "warn" ? "!" : "·";
      io.out(`${mark} ${entry.message}`);
    }
    printed = view.log.length;
  };
  try {
    let view = runner.view;
    if (view.run_id) io.out(`run ${view.run_id}`);
    progress(view);
    while (view.status === "awaiting_decision" && view.checkpoint) {
      const cp = view.checkpoint;
      io.out("");
      io.out(`? ${cp.prompt}`);
      for (const file of cp.files) {
        if (file.content === null) {
          io.out(`  ── ${file.path} (not found)`);
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
      progress(view);
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
      if (loaded.ok) {
        io.out(`${definition}: valid (${loaded.workflow.name}, ${loaded.workflow.phases.length} phases)`);
        code = WORKFLOW_EXIT.DONE;
      } else {
        io.err(`${definition}: invalid workflow definition`);
        for (const line of loaded.errors) io.err(`  ${line}`);
        code = WORKFLOW_EXIT.INVALID;
      }
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
