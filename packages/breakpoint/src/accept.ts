import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseGateRecord } from "@solserver/gate";
import { gateErrorRule, InputError, isGateInputError, readRecordFile, readTextFile } from "./read-input";

// `breakpoint accept <baseline> <candidate>`: the change is intended, so the candidate becomes
// the baseline. Nothing is lost: every version that was ever the baseline is kept beside it, in
// `<baseline>.history/`, numbered (0001.json, 0002.json ...), with one line per version in
// `log.jsonl` (when, by whom, from which file, why, its sha256). A rollback is an accept of an
// older version: `breakpoint accept baseline.json baseline.json.history/0002.json`.
//
// Crash safety: the new version is stored in the history first (created exclusively, so two
// accepts at once take different numbers), then the baseline is replaced by a rename (never
// half-written), then the log line is appended. A crash leaves the old baseline or the new one.

export interface THistoryEntry {
  version: number;
  file: string;
  sha256: string;
  accepted_at: string;
  /** Where this version came from: the candidate's path, or "existing baseline". */
  source: string;
  by: string | null;
  reason: string | null;
}

export interface TAcceptResult {
  baseline: string;
  changed: boolean;
  /** The version the baseline now is (null when unchanged and never accepted before). */
  version: number | null;
  history_dir: string;
}

function historyDir(baselineFile: string): string {
  return `${baselineFile}.history`;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

const VERSION_FILE = /^(\d{4,})\.json$/;

function versionFile(n: number): string {
  return `${String(n).padStart(4, "0")}.json`;
}

function latestVersion(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const name of readdirSync(dir)) {
    const m = VERSION_FILE.exec(name);
    if (m?.[1] !== undefined) latest = Math.max(latest, Number(m[1]));
  }
  return latest;
}

/** Store `text` as the next version; `wx` refuses a number another accept already took. */
function storeVersion(dir: string, text: string): { version: number; file: string } {
  for (let attempt = 0; attempt < 100; attempt++) {
    const version = latestVersion(dir) + 1;
    const file = path.join(dir, versionFile(version));
    try {
      writeFileSync(file, text, { flag: "wx" });
      return { version, file };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  throw new InputError(dir, "cannot store a new version: the history is being written by other accepts");
}

function logLine(dir: string, entry: THistoryEntry): void {
  appendFileSync(path.join(dir, "log.jsonl"), `${JSON.stringify(entry)}\n`);
}

export interface TAcceptInput {
  baselineFile: string;
  candidateFile: string;
  reason?: string | undefined;
  by?: string | null;
  now?: Date;
}

export function acceptCandidate(input: TAcceptInput): TAcceptResult {
  const { baselineFile, candidateFile } = input;
  // The candidate must be a record the gate can judge, or the next run would fail on it.
  const record = readRecordFile(candidateFile, "candidate");
  try {
    parseGateRecord("candidate", record);
  } catch (err) {
    if (isGateInputError(err)) throw new InputError(candidateFile, `${gateErrorRule(err)} (field ${err.field})`);
    throw err;
  }
  const text = readTextFile(candidateFile);
  const dir = historyDir(baselineFile);
  const current = existsSync(baselineFile) ? readTextFile(baselineFile) : null;
  const latest = latestVersion(dir);
  if (current !== null && sha256(current) === sha256(text)) {
    return { baseline: baselineFile, changed: false, version: latest === 0 ? null : latest, history_dir: dir };
  }
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw new InputError(dir, `cannot create the history folder: ${(err as NodeJS.ErrnoException).code ?? err}`);
  }
  const at = (input.now ?? new Date()).toISOString();
  const by = input.by ?? null;
  // The first accept also keeps the baseline it replaces, so the history starts complete.
  if (current !== null && latest === 0) {
    const first = storeVersion(dir, current);
    logLine(dir, {
      version: first.version,
      file: path.basename(first.file),
      sha256: sha256(current),
      accepted_at: at,
      source: "existing baseline",
      by: null,
      reason: null,
    });
  }
  const stored = storeVersion(dir, text);
  const tmp = `${baselineFile}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, baselineFile);
  logLine(dir, {
    version: stored.version,
    file: path.basename(stored.file),
    sha256: sha256(text),
    accepted_at: at,
    source: candidateFile,
    by,
    reason: input.reason?.trim() || null,
  });
  return { baseline: baselineFile, changed: true, version: stored.version, history_dir: dir };
}

/** The baseline's versions, oldest first (an empty list when it was never accepted). */
export function readHistory(baselineFile: string): THistoryEntry[] {
  const log = path.join(historyDir(baselineFile), "log.jsonl");
  if (!existsSync(log)) return [];
  const entries: THistoryEntry[] = [];
  readFileSync(log, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        entries.push(JSON.parse(line) as THistoryEntry);
      } catch {
        throw new InputError(log, `line ${i + 1} is not valid JSON (the log was edited or cut short)`);
      }
    });
  return entries.sort((a, b) => a.version - b.version);
}

export function renderHistoryText(baselineFile: string, entries: readonly THistoryEntry[]): string {
  if (entries.length === 0) return `${baselineFile}: no accepted versions yet (history: ${historyDir(baselineFile)})\n`;
  const current = existsSync(baselineFile) ? sha256(readTextFile(baselineFile)) : null;
  const lines = [`History of ${baselineFile} (${historyDir(baselineFile)}):`, ""];
  const rows = entries.map((e) => [
    `${e.sha256 === current ? "*" : " "} ${String(e.version).padStart(4, "0")}`,
    e.accepted_at,
    e.by ?? "-",
    e.source,
    e.reason ?? "",
  ]);
  const header = ["  VER ", "ACCEPTED AT", "BY", "FROM", "REASON"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  for (const row of [header, ...rows])
    lines.push(
      row
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    );
  lines.push("", "* = the current baseline");
  return `${lines.join("\n")}\n`;
}
