// The one place the breakpoint CLI reads its environment. What it reads: BREAKPOINT_CONFIG,
// BREAKPOINT_PRESET, BREAKPOINT_ENV and BREAKPOINT_NOW (config-options.ts), BREAKPOINT_PROJECT,
// BREAKPOINT_CI_PROVIDER, BREAKPOINT_COMMIT, BREAKPOINT_REF and the CI's own (GITHUB_*, CI) for
// the run's metadata (run-metadata.ts), GITHUB_ACTOR or USER for who accepted a baseline, and
// BREAKPOINT_DEBUG for stack traces (main.ts). Everything else gets it passed in.

export type TEnv = Readonly<Record<string, string | undefined>>;

/** The process's environment, handed to the CLI by its entry. */
export function processEnv(): TEnv {
  return process.env;
}
