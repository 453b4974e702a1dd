import { decide, startRun, type TRunState, type TWorkflow } from "@solserver/checkpoint";
import type { TWorkflowRun } from "@solserver/contracts";
import { openControlPlaneFromEnv } from "../control-plane";
import { loadServerEnv } from "../env";
import type { TServiceContext } from "../services/context";
import { decideWorkflow, startWorkflow } from "../services/workflows";
import { UsageError } from "./cli";
import { commandStep, readWorkspaceFile, type TArtifact } from "./command-step";
import { driveRun } from "./driver";

// The two kinds of run `workflow run` drives (run-command.ts), behind one view: in memory here,
// or stored through the control plane on the database.

type TCheckpointView = NonNullable<TWorkflowRun["checkpoint"]>;
/** A file a checkpoint shows; `note` says why an in-memory run does not show it (default "not found"). */
type TViewFile = TCheckpointView["files"][number] & { note?: string };
/**
 * The view both kinds of run give the terminal: where the run stands, and what of its checkpoint
 * the terminal shows (a stored run's view has more; an in-memory run gives just this).
 */
export type TView = Pick<TWorkflowRun, "status" | "log" | "exit_code" | "error"> & {
  run_id: string | null;
  checkpoint: (Pick<TCheckpointView, "phase_id" | "prompt" | "options"> & { files: TViewFile[] }) | null;
};
type TRunner = { view: TView; decide: (label: string, feedback: string | undefined) => Promise<TView> };

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
export async function memoryRunner(
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
export async function serverRunner(
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
