import { loadWorkflow } from "@solserver/checkpoint";
import { isDomainError } from "@solserver/contracts";
import { Command, CommanderError } from "commander";
import { definitionProblems, readDefinition, serverOnlyPhases } from "./cli-definition";
import { CommandInterrupted } from "./command-step";
import { runCommand } from "./run-command";
import { runsCommand } from "./runs-command";
import { tickCommand } from "./tick-command";

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

export class UsageError extends Error {}

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
