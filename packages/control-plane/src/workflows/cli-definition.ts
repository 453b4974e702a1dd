import { readFile } from "node:fs/promises";
import path from "node:path";
import { secretEnvProblems, type TWorkflow, UMBRA_BEAT_YAML } from "@solserver/checkpoint";
import { SHIPPED_WORKFLOWS } from "@solserver/contracts";
import { UsageError } from "./cli";
import { umbraBeatSteps } from "./umbra-beat";

// The definition `workflow validate` and `workflow run` name (cli.ts): read from a file or the
// shipped one, and refused where the server would refuse it.

export async function readDefinition(arg: string, cwd: string): Promise<{ yaml: string }> {
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
export function definitionProblems(workflow: TWorkflow): string[] {
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
export function serverOnlyPhases(workflow: TWorkflow): string[] {
  return workflow.phases.flatMap((p) =>
    p.executor && p.executor.kind !== "command" ? [`${p.id} (${p.executor.kind})`] : [],
  );
}
