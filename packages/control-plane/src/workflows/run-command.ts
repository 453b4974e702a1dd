import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { CheckpointError, loadWorkflow, toPlainData } from "@solserver/checkpoint";
import { type TCliIo, UsageError, WORKFLOW_EXIT } from "./cli";
import { definitionProblems, readDefinition, serverOnlyPhases } from "./cli-definition";
import { memoryRunner, serverRunner, type TView } from "./cli-runners";

// `workflow run` (cli.ts): its arguments, then the run to its end, asking at each checkpoint or
// taking the --answer given for it.

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

const FILE_LINES = 60;

export async function runCommand(
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
