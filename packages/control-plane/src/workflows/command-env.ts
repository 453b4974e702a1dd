// A command's environment (command-step.ts): not the host's whole environment, which holds
// DATABASE_URL, API keys and tokens, only the variables a program needs to start.

/** Variables a command gets from the host's environment (and every LC_* locale variable). */
const INHERITED_ENV: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  "TMPDIR",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
  // Windows needs these to start most programs at all.
  "SYSTEMROOT",
  "COMSPEC",
  "PATHEXT",
  "WINDIR",
  "TEMP",
  "TMP",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
];

/** The command's environment: INHERITED_ENV from `base`, then the declared variables. */
export function commandEnv(
  declared: Record<string, string>,
  base: Record<string, string | undefined>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && (INHERITED_ENV.includes(name) || name.startsWith("LC_"))) env[name] = value;
  }
  return { ...env, ...declared };
}
