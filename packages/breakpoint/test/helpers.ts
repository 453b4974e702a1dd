import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { main } from "../src/main";

export const PACKAGE_DIR = path.resolve(import.meta.dirname, "..");
export const BIN = path.join(PACKAGE_DIR, "bin", "breakpoint.mjs");
const FIXTURES = path.join(PACKAGE_DIR, "test", "fixtures");

/** The seed's records (test/fixtures): one baseline and a candidate per decision. */
export const SEED = {
  baseline: path.join(FIXTURES, "baseline.json"),
  allow: path.join(FIXTURES, "candidate_allow.json"),
  warn: path.join(FIXTURES, "candidate_warn.json"),
  block: path.join(FIXTURES, "candidate_block.json"),
} as const;

/**
 * Build dist/ when it is missing or older than its sources (scripts/ensure-built.mjs: CI runs
 * vitest on a fresh clone with no prior build; locally an unchanged tree skips the build). The
 * build writes temp files and renames them, so test files building at the same time are safe.
 */
export function buildCli(): void {
  const result = spawnSync(process.execPath, [path.join(PACKAGE_DIR, "scripts", "ensure-built.mjs")], {
    cwd: PACKAGE_DIR,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`build failed (${result.status}): ${result.stderr}${result.stdout}`);
}

export interface TCliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stderr split into its non-empty lines. */
  errLines: string[];
}

/** CI variables cleared, so a run's metadata does not depend on where the tests run. */
const NO_CI = { CI: "", GITHUB_ACTIONS: "", GITHUB_REPOSITORY: "", BREAKPOINT_PROJECT: "", BREAKPOINT_CI_PROVIDER: "" };

/**
 * Run the CLI and collect its output: in this process through `main` (what the bin calls), or,
 * given `bin` or `cwd`, the built program in its own Node process (the package as installed).
 */
export function runCli(
  args: readonly string[],
  options: { bin?: string; cwd?: string; env?: Record<string, string> } = {},
): TCliRun {
  const env = { ...process.env, NO_COLOR: "1", BREAKPOINT_DEBUG: "", ...NO_CI, ...options.env };
  if (!options.bin && !options.cwd) {
    const out: string[] = [];
    const err: string[] = [];
    const code = main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env });
    const stderr = err.join("");
    return { code, stdout: out.join(""), stderr, errLines: lines(stderr) };
  }
  const result: SpawnSyncReturns<string> = spawnSync(process.execPath, [options.bin ?? BIN, ...args], {
    cwd: options.cwd ?? PACKAGE_DIR,
    encoding: "utf8",
    env,
  });
  if (result.error) throw result.error;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, errLines: lines(result.stderr) };
}

const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");

/** A fresh temp directory, removed by the returned cleanup. */
export function makeTempDir(prefix = "breakpoint-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Write `content` (JSON-encoded unless a string) to dir/name, creating parent directories. */
export function writeFile(dir: string, name: string, content: unknown): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, typeof content === "string" ? content : `${JSON.stringify(content, null, 2)}\n`);
  return file;
}

/** Copy a seed fixture to dir/name. */
export function copyFixture(from: string, dir: string, name: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  copyFileSync(from, file);
  return file;
}
