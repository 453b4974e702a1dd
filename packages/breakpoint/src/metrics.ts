import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { TGateStatus } from "@solserver/contracts";
import { InputError, readDocument } from "./read-input";
import { boxHeader, footerRule } from "./report-text";
import { SCHEMA_VERSION } from "./run-metadata";

// `breakpoint metrics <paths...>`: what the gate decided over time, from the decisions a CI kept
// (`evaluate --json` reports, and `batch --json` reports, whose pairs count one by one). Counts
// by decision, how often each reason code fired and how much of the blocking it accounts for,
// waivers and accepted risks, and a trend by day. The day is the file's modification time
// (UTC): decisions carry no clock of their own, so identical input stays byte-identical.

const STATUSES: readonly TGateStatus[] = ["ALLOW", "WARN", "BLOCK"];

interface TCodeStat {
  code: string;
  /** Decisions in which the code fired. */
  decisions: number;
  /** Share of all decisions (0..1). */
  share: number;
  /** BLOCK decisions in which it fired. */
  in_blocks: number;
  /** Share of all BLOCK decisions (0..1): how much of the blocking this code accounts for. */
  block_share: number;
}

interface TTrendDay {
  day: string;
  decisions: number;
  ALLOW: number;
  WARN: number;
  BLOCK: number;
  block_rate: number;
}

export interface TMetricsSummary {
  schema_version: string;
  files: number;
  decisions: number;
  status: Record<TGateStatus, number>;
  block_rate: number;
  warn_rate: number;
  codes: TCodeStat[];
  policies: Record<string, { WARN: number; BLOCK: number }>;
  modes: Record<string, number>;
  projects: Record<string, number>;
  waivers_applied: Record<string, number>;
  accepted_risks: Record<string, number>;
  trend: TTrendDay[];
  /** Files under a directory that hold JSON but no decision (e.g. baselines), not counted. */
  skipped: string[];
  /** Files that could not be read or, named explicitly, hold no decision: one line each. */
  errors: string[];
}

interface TDecisionLike {
  status: TGateStatus;
  reason_codes: string[];
  metadata?: { mode?: unknown };
  policies?: { policy?: unknown; status?: unknown }[];
  waivers?: { applied?: { matched?: unknown }[] };
  accepted_risks?: { policy?: unknown }[];
  run?: { project?: unknown };
}

function isDecision(value: unknown): value is TDecisionLike {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.status === "string" &&
    (STATUSES as readonly string[]).includes(v.status) &&
    Array.isArray(v.reason_codes) &&
    v.reason_codes.every((c) => typeof c === "string")
  );
}

/** The decisions a document holds: itself, or a batch report's evaluated pairs. Null: none. */
function decisionsIn(doc: unknown): TDecisionLike[] | null {
  if (isDecision(doc)) return [doc];
  if (typeof doc === "object" && doc !== null && Array.isArray((doc as { results?: unknown }).results)) {
    const results = (doc as { results: { decision?: unknown }[] }).results;
    const found = results.map((r) => r?.decision).filter(isDecision);
    const project = (doc as { run?: { project?: unknown } }).run?.project;
    return found.map((d) => (d.run === undefined && project !== undefined ? { ...d, run: { project } } : d));
  }
  return null;
}

/** Every *.json under the paths (directories recursively, sorted; history folders skipped). */
function expand(paths: readonly string[]): { file: string; explicit: boolean }[] {
  const out: { file: string; explicit: boolean }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.endsWith(".history") && entry.name !== "node_modules") walk(full);
      } else if (entry.name.endsWith(".json")) out.push({ file: full, explicit: false });
    }
  };
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new InputError(p, code === "ENOENT" ? "no such file or directory" : `cannot read: ${code ?? err}`);
    }
    if (isDir) walk(p);
    else out.push({ file: p, explicit: true });
  }
  return out;
}

/** Keys come from the files read: a null-prototype object makes "__proto__" just a key. */
const dict = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;
const ratio = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 10000) / 10000);
const bump = (map: Record<string, number>, key: string) => {
  map[key] = (map[key] ?? 0) + 1;
};

export function summarizeDecisions(paths: readonly string[]): TMetricsSummary {
  const files = expand(paths);
  const status: Record<TGateStatus, number> = { ALLOW: 0, WARN: 0, BLOCK: 0 };
  const codeCount = new Map<string, { decisions: number; in_blocks: number }>();
  const policies: Record<string, { WARN: number; BLOCK: number }> = dict();
  const modes: Record<string, number> = dict();
  const projects: Record<string, number> = dict();
  const waivers: Record<string, number> = dict();
  const risks: Record<string, number> = dict();
  const days = new Map<string, TTrendDay>();
  const skipped: string[] = [];
  const errors: string[] = [];
  let decisions = 0;
  for (const { file, explicit } of files) {
    let found: TDecisionLike[] | null;
    try {
      found = decisionsIn(readDocument(file, "json"));
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      errors.push(err.line);
      continue;
    }
    if (found === null) {
      if (explicit)
        errors.push(`${file}: not a decision (expected the JSON of 'breakpoint evaluate --json' or 'batch --json')`);
      else skipped.push(file);
      continue;
    }
    const day = new Date(statSync(file).mtimeMs).toISOString().slice(0, 10);
    const trend = days.get(day) ?? { day, decisions: 0, ALLOW: 0, WARN: 0, BLOCK: 0, block_rate: 0 };
    days.set(day, trend);
    for (const d of found) {
      decisions += 1;
      status[d.status] += 1;
      trend.decisions += 1;
      trend[d.status] += 1;
      for (const code of new Set(d.reason_codes)) {
        const c = codeCount.get(code) ?? { decisions: 0, in_blocks: 0 };
        c.decisions += 1;
        if (d.status === "BLOCK") c.in_blocks += 1;
        codeCount.set(code, c);
      }
      for (const p of d.policies ?? []) {
        if (typeof p.policy !== "string" || (p.status !== "WARN" && p.status !== "BLOCK")) continue;
        const counts = policies[p.policy] ?? { WARN: 0, BLOCK: 0 };
        counts[p.status] += 1;
        policies[p.policy] = counts;
      }
      if (typeof d.metadata?.mode === "string") bump(modes, d.metadata.mode);
      if (typeof d.run?.project === "string") bump(projects, d.run.project);
      for (const w of d.waivers?.applied ?? []) {
        for (const code of Array.isArray(w.matched) ? w.matched : []) if (typeof code === "string") bump(waivers, code);
      }
      for (const r of d.accepted_risks ?? []) if (typeof r.policy === "string") bump(risks, r.policy);
    }
  }
  const codes = [...codeCount.entries()]
    .map(([code, c]) => ({
      code,
      decisions: c.decisions,
      share: ratio(c.decisions, decisions),
      in_blocks: c.in_blocks,
      block_share: ratio(c.in_blocks, status.BLOCK),
    }))
    .sort((a, b) => b.decisions - a.decisions || (a.code < b.code ? -1 : 1));
  const trend = [...days.values()]
    .sort((a, b) => (a.day < b.day ? -1 : 1))
    .map((t) => ({ ...t, block_rate: ratio(t.BLOCK, t.decisions) }));
  return {
    schema_version: SCHEMA_VERSION,
    files: files.length,
    decisions,
    status,
    block_rate: ratio(status.BLOCK, decisions),
    warn_rate: ratio(status.WARN, decisions),
    codes,
    policies,
    modes,
    projects,
    waivers_applied: waivers,
    accepted_risks: risks,
    trend,
    skipped,
    errors,
  };
}

const pct = (r: number) => `${(r * 100).toFixed(1)}%`;

function table(header: readonly string[], rows: readonly string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  return [header, ...rows].map((row) =>
    row
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}

/** How many trend days the text shows (the JSON has them all). */
const TREND_DAYS_SHOWN = 30;

export function renderMetricsText(s: TMetricsSummary): string {
  const lines = [...boxHeader("BreakPoint Metrics")];
  lines.push(`Files: ${s.files} (${s.skipped.length} without a decision, ${s.errors.length} with errors)`);
  lines.push(`Decisions: ${s.decisions}`);
  lines.push(
    `ALLOW ${s.status.ALLOW}  WARN ${s.status.WARN} (${pct(s.warn_rate)})  BLOCK ${s.status.BLOCK} (${pct(s.block_rate)})`,
  );
  lines.push("", "Reason codes:");
  if (s.codes.length === 0) lines.push("(none)");
  else
    lines.push(
      ...table(
        ["CODE", "DECISIONS", "% OF ALL", "% OF BLOCKS"],
        s.codes.map((c) => [c.code, String(c.decisions), pct(c.share), c.in_blocks === 0 ? "-" : pct(c.block_share)]),
      ),
    );
  const waived = Object.entries(s.waivers_applied).sort();
  if (waived.length > 0) lines.push("", `Waived: ${waived.map(([c, n]) => `${c} ${n}`).join(", ")}`);
  const risks = Object.entries(s.accepted_risks).sort();
  if (risks.length > 0) lines.push("", `Accepted risks: ${risks.map(([p, n]) => `${p} ${n}`).join(", ")}`);
  if (s.trend.length > 0) {
    const shown = s.trend.slice(-TREND_DAYS_SHOWN);
    lines.push(
      "",
      `Trend by day${shown.length < s.trend.length ? ` (last ${shown.length} of ${s.trend.length})` : ""}:`,
    );
    lines.push(
      ...table(
        ["DAY", "DECISIONS", "ALLOW", "WARN", "BLOCK", "BLOCK RATE"],
        shown.map((t) => [
          t.day,
          String(t.decisions),
          String(t.ALLOW),
          String(t.WARN),
          String(t.BLOCK),
          pct(t.block_rate),
        ]),
      ),
    );
  }
  lines.push(footerRule());
  return `${lines.join("\n")}\n`;
}
