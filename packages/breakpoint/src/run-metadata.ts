import { createHash } from "node:crypto";
import type { TEnv } from "./env";

// What a stored decision needs to be found and compared later (`metrics`, dashboards): the
// report's schema version, a run id, the project and the CI run. Deterministic: the run id is a
// hash of what was judged (records, mode, options, config), never a clock or a random number,
// so identical input gives byte-identical output; the CI fields come from the environment the
// CLI runs in (GitHub Actions' variables, or BREAKPOINT_* set by any CI).

/** Bumped when a field of the JSON report changes meaning or disappears (adding one does not). */
export const SCHEMA_VERSION = "1";

export type TRunMetadata = {
  run_id: string;
  project: string | null;
  ci: { provider: string; commit: string | null; ref: string | null; run_url: string | null } | null;
  /** The preset and environment the config was resolved with (evaluate only). */
  preset?: string | null;
  environment?: string | null;
};

export function runMetadata(judged: unknown, env: TEnv): TRunMetadata {
  const runId = createHash("sha256").update(JSON.stringify(judged)).digest("hex").slice(0, 16);
  const project = env.BREAKPOINT_PROJECT?.trim() || env.GITHUB_REPOSITORY?.trim() || null;
  const github = env.GITHUB_ACTIONS === "true";
  const provider = github ? "github-actions" : env.BREAKPOINT_CI_PROVIDER?.trim() || (env.CI ? "ci" : null);
  const ci =
    provider === null
      ? null
      : {
          provider,
          commit: env.GITHUB_SHA ?? env.BREAKPOINT_COMMIT ?? null,
          ref: env.GITHUB_REF ?? env.BREAKPOINT_REF ?? null,
          run_url:
            github && env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID
              ? `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`
              : (env.BREAKPOINT_RUN_URL ?? null),
        };
  return { run_id: runId, project, ci };
}
