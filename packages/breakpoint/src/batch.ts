import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { TGateConfig, TGateDecision, TGateMode, TGateStatus } from "@solserver/contracts";
import { z } from "zod";
import { evaluateFiles } from "./evaluate-files";
import { describeOutcome, EXIT, exitCodeForStatus, type TExitCode, type TFailOn, worseStatus } from "./exit-codes";
import { InputError, oneLine, readDocument } from "./read-input";
import { boxHeader, footerRule, strictLine } from "./report-text";

export const BASELINE_SUFFIX = ".baseline.json";
export const CANDIDATE_SUFFIX = ".candidate.json";

/** One comparison of a batch. `error` is set when the pair is broken before evaluation (a side is missing). */
export interface TBatchPair {
  name: string;
  baseline: string;
  candidate: string;
  error?: string;
}

interface TBatchSource {
  kind: "directory" | "manifest";
  path: string;
}

export type TBatchStatus = TGateStatus | "ERROR";

export interface TBatchResult {
  name: string;
  baseline: string;
  candidate: string;
  status: TBatchStatus;
  exit_code: TExitCode;
  /** The one-line input error (file: rule (field ...)) when status is ERROR. */
  error: string | null;
  decision: TGateDecision | null;
}

export interface TBatchReport {
  source: TBatchSource;
  mode: TGateMode;
  strict: boolean;
  results: TBatchResult[];
  counts: Record<TBatchStatus, number>;
  /** The worst decision among the pairs that were evaluated (null if none was). */
  worst: TGateStatus | null;
  /** 3 when any pair is broken; otherwise the worst decision's code (0 / 1 / 2). */
  exit_code: TExitCode;
}

/**
 * A directory: every `<name>.baseline.json` with its `<name>.candidate.json`, sorted by name.
 * Other files and subdirectories are ignored; a name with only one side is a broken pair.
 */
export function pairsFromDirectory(dir: string): TBatchPair[] {
  let entries: string[];
  try {
    entries = readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.isDirectory())
      .map((e) => e.name);
  } catch (err) {
    throw new InputError(dir, `cannot read directory: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const names = new Set<string>();
  for (const entry of entries) {
    for (const suffix of [BASELINE_SUFFIX, CANDIDATE_SUFFIX]) {
      if (entry.endsWith(suffix) && entry.length > suffix.length) names.add(entry.slice(0, -suffix.length));
    }
  }
  const present = new Set(entries);
  return [...names]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => {
      const baselineName = `${name}${BASELINE_SUFFIX}`;
      const candidateName = `${name}${CANDIDATE_SUFFIX}`;
      const pair: TBatchPair = {
        name,
        baseline: path.join(dir, baselineName),
        candidate: path.join(dir, candidateName),
      };
      const missing = [baselineName, candidateName].filter((f) => !present.has(f));
      if (missing.length > 0) pair.error = `${path.join(dir, missing[0] ?? "")}: missing (the pair needs both files)`;
      return pair;
    });
}

const ZManifest = z.strictObject({
  pairs: z
    .array(
      z.strictObject({
        name: z.string().trim().min(1),
        baseline: z.string().min(1),
        candidate: z.string().min(1),
      }),
    )
    .min(1, "must list at least one pair"),
});

function issuePath(p: readonly PropertyKey[]): string {
  let out = "";
  for (const key of p) out += typeof key === "number" ? `[${key}]` : `${out === "" ? "" : "."}${String(key)}`;
  return out === "" ? "(top level)" : out;
}

/**
 * A manifest (YAML or JSON): `pairs: [{ name, baseline, candidate }]`, paths relative to the
 * manifest's directory. Names must be unique.
 */
export function pairsFromManifest(file: string): TBatchPair[] {
  const parsed = ZManifest.safeParse(readDocument(file, "yaml"));
  if (!parsed.success) {
    // An unknown key is usually the typo behind a missing one: report it first.
    const issues = parsed.error.issues;
    const issue = issues.find((i) => i.code === "unrecognized_keys") ?? issues[0];
    let keyPath: PropertyKey[] = issue === undefined ? [] : [...issue.path];
    let message = oneLine(issue?.message ?? "invalid manifest");
    if (issue?.code === "unrecognized_keys") {
      keyPath = [...keyPath, issue.keys[0] ?? ""];
      message = `unknown key (allowed: ${keyPath.length === 1 ? "pairs" : "name, baseline, candidate"})`;
    } else if (issue?.code === "invalid_type" && /received undefined$/.test(message)) {
      message = `missing required key (expected ${issue.expected})`;
    }
    throw new InputError(file, `${message} (key ${issuePath(keyPath)})`);
  }
  const base = path.dirname(file);
  const seen = new Map<string, number>();
  return parsed.data.pairs.map((entry, i) => {
    const earlier = seen.get(entry.name);
    if (earlier !== undefined) {
      throw new InputError(file, `duplicate pair name "${entry.name}" (also pairs[${earlier}]) (key pairs[${i}].name)`);
    }
    seen.set(entry.name, i);
    const resolve = (p: string) => (path.isAbsolute(p) ? p : path.join(base, p));
    return { name: entry.name, baseline: resolve(entry.baseline), candidate: resolve(entry.candidate) };
  });
}

/** A directory or a manifest file, by what the path is. */
export function discoverPairs(target: string): { source: TBatchSource; pairs: TBatchPair[] } {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(target).isDirectory();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(target, code === "ENOENT" ? "no such file or directory" : `cannot read: ${code ?? err}`);
  }
  if (isDirectory) {
    const pairs = pairsFromDirectory(target);
    if (pairs.length === 0) {
      throw new InputError(target, `no pairs found (expected <name>${BASELINE_SUFFIX} + <name>${CANDIDATE_SUFFIX})`);
    }
    return { source: { kind: "directory", path: target }, pairs };
  }
  return { source: { kind: "manifest", path: target }, pairs: pairsFromManifest(target) };
}

export interface TRunBatchInput {
  target: string;
  mode: TGateMode;
  strict: boolean;
  /** What fails the batch: WARN or BLOCK (default), or BLOCK only. */
  failOn?: TFailOn;
  config?: TGateConfig | undefined;
  configFile?: string | undefined;
  /** The evaluation time waivers expire against (ISO-8601). */
  now?: string | undefined;
}

/**
 * Evaluate every pair. A broken pair (missing file, invalid JSON, bad record) is recorded with
 * its error and the rest still run; any other exception is a bug and propagates.
 */
export function runBatch(input: TRunBatchInput): TBatchReport {
  const { source, pairs } = discoverPairs(input.target);
  const counts: Record<TBatchStatus, number> = { ALLOW: 0, WARN: 0, BLOCK: 0, ERROR: 0 };
  let worst: TGateStatus | null = null;
  const results: TBatchResult[] = [];
  for (const pair of pairs) {
    const base = { name: pair.name, baseline: pair.baseline, candidate: pair.candidate };
    try {
      if (pair.error !== undefined) throw new InputError(null, pair.error);
      const decision = evaluateFiles({
        baselineFile: pair.baseline,
        candidateFile: pair.candidate,
        mode: input.mode,
        strict: input.strict,
        config: input.config,
        configFile: input.configFile,
        now: input.now,
      });
      counts[decision.status] += 1;
      worst = worseStatus(worst, decision.status);
      results.push({
        ...base,
        status: decision.status,
        exit_code: exitCodeForStatus(decision.status, input.failOn),
        error: null,
        decision,
      });
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      counts.ERROR += 1;
      results.push({ ...base, status: "ERROR", exit_code: EXIT.INPUT_ERROR, error: err.line, decision: null });
    }
  }
  const exitCode =
    counts.ERROR > 0 ? EXIT.INPUT_ERROR : worst === null ? EXIT.ALLOW : exitCodeForStatus(worst, input.failOn);
  return { source, mode: input.mode, strict: input.strict, results, counts, worst, exit_code: exitCode };
}

/** At most two reasons, then "(+N more)"; "-" when there is none. */
export function topReasons(result: TBatchResult, max = 2): string {
  if (result.error !== null) return result.error;
  const reasons = result.decision?.reasons ?? [];
  if (reasons.length === 0) return "-";
  const shown = reasons.slice(0, max).join(" | ");
  return reasons.length > max ? `${shown} (+${reasons.length - max} more)` : shown;
}

/** The batch summary: a header, one table row per pair, totals and the exit code. */
export function renderBatchText(report: TBatchReport): string {
  const lines = [...boxHeader("BreakPoint Batch")];
  const n = report.results.length;
  lines.push(`Source: ${report.source.path} (${report.source.kind}, ${n} pair${n === 1 ? "" : "s"})`);
  lines.push(`Mode: ${report.mode}`, strictLine(report.strict), "");
  const header = ["NAME", "DECISION", "TOP REASONS"] as const;
  const nameWidth = Math.max(header[0].length, ...report.results.map((r) => r.name.length));
  const statusWidth = header[1].length;
  const row = (a: string, b: string, c: string) => `${a.padEnd(nameWidth)}  ${b.padEnd(statusWidth)}  ${c}`.trimEnd();
  lines.push(row(...header));
  for (const result of report.results) lines.push(row(result.name, result.status, topReasons(result)));
  const { counts } = report;
  lines.push("", `Totals: ${counts.ALLOW} ALLOW, ${counts.WARN} WARN, ${counts.BLOCK} BLOCK, ${counts.ERROR} ERROR`);
  const why =
    counts.ERROR > 0
      ? `input error: ${counts.ERROR} pair${counts.ERROR === 1 ? "" : "s"} could not be evaluated`
      : `worst ${report.worst === null ? describeOutcome("ALLOW", report.exit_code) : describeOutcome(report.worst, report.exit_code)}`;
  lines.push(`Exit Code: ${report.exit_code} (${why})`, footerRule());
  return `${lines.join("\n")}\n`;
}
