// The GitHub Action's run step (action.yml at the repo root): turns the action's inputs into a
// `breakpoint evaluate` or `breakpoint batch` command, runs it, and hands the result to GitHub:
// step outputs (status, exit-code, report) in $GITHUB_OUTPUT, the text report in
// $GITHUB_STEP_SUMMARY, an annotation for WARN / BLOCK / errors, and the CLI's exit code as the
// step's (so fail-on decides whether the job fails).
// Composite actions get no INPUT_* variables for free: action.yml maps each input to
// INPUT_<NAME> (upper case, "-" as "_") in this step's env, which also lets tests run this file
// with a plain environment.
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const env = process.env;

/** The CLI; BREAKPOINT_BIN points elsewhere only in tests (a stub that records its arguments). */
const BIN =
  env.BREAKPOINT_BIN || path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "breakpoint.mjs");

const EXIT_INPUT_ERROR = 3;

class ActionInputError extends Error {}

function input(name) {
  return (env[`INPUT_${name.toUpperCase().replaceAll("-", "_")}`] ?? "").trim();
}

/** Workflow command data needs %, CR and LF escaped (the one property, the title, is fixed). */
function escapeData(text) {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

function annotate(level, message) {
  process.stdout.write(`::${level} title=BreakPoint::${escapeData(message)}\n`);
}

function setOutputs(outputs) {
  if (!env.GITHUB_OUTPUT) return;
  let text = "";
  for (const [name, value] of Object.entries(outputs)) {
    if (/[\r\n]/.test(value)) throw new ActionInputError(`output ${name} would span lines: ${JSON.stringify(value)}`);
    text += `${name}=${value}\n`;
  }
  appendFileSync(env.GITHUB_OUTPUT, text);
}

function summarize(markdown) {
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdown);
}

/** A code fence longer than any run of backticks in `text`, so the report cannot close it. */
function fenced(text, info) {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text.replace(/\n*$/, "\n")}${fence}\n`;
}

/** The CLI arguments (without --json) the inputs ask for. */
function cliArguments() {
  const baseline = input("baseline");
  const candidate = input("candidate");
  const combined = input("input");
  const batch = input("batch");
  const given = [baseline || candidate ? "baseline/candidate" : "", combined ? "input" : "", batch ? "batch" : ""];
  const ways = given.filter(Boolean);
  if (ways.length !== 1) {
    throw new ActionInputError(
      ways.length === 0
        ? "nothing to gate: set baseline and candidate, or input (one file holding both), or batch (a directory or manifest)"
        : `set only one of baseline/candidate, input and batch (got ${ways.join(", ")})`,
    );
  }
  let args;
  if (batch) args = ["batch", batch];
  else if (combined) args = ["evaluate", combined];
  else if (!baseline || !candidate) throw new ActionInputError("baseline and candidate go together: set both");
  else args = ["evaluate", baseline, candidate];

  const strict = input("strict").toLowerCase();
  if (!["", "true", "false"].includes(strict)) {
    throw new ActionInputError(`strict must be true or false (got ${JSON.stringify(input("strict"))})`);
  }
  // Values (mode, fail-on, preset, policy names) are the CLI's to check: its errors are one line.
  const valued = [
    ["mode", "--mode"],
    ["fail-on", "--fail-on"],
    ["config", "--config"],
    ["preset", "--preset"],
    ["env", "--env"],
  ];
  for (const [name, flag] of valued) if (input(name)) args.push(flag, input(name));
  if (strict === "true") args.push("--strict");
  for (const policy of input("accept-risk")
    .split(/[\s,]+/)
    .filter(Boolean))
    args.push("--accept-risk", policy);
  return args;
}

function runCli(args, runEnv) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: "utf8",
    env: runEnv,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { code: result.status ?? 4, stdout: result.stdout, stderr: result.stderr };
}

/** ALLOW / WARN / BLOCK from the JSON report, or ERROR when the gate did not decide. */
function statusOf(report, code) {
  if (code === 3 || code === 4 || report === null) return "ERROR";
  if (report.counts) return report.counts.ERROR > 0 ? "ERROR" : (report.worst ?? "ERROR");
  return report.status ?? "ERROR";
}

function reportPath() {
  const given = input("json-out");
  if (given) return path.resolve(given);
  return path.join(mkdtempSync(path.join(env.RUNNER_TEMP || tmpdir(), "breakpoint-")), "breakpoint-report.json");
}

function main() {
  let args;
  try {
    args = cliArguments();
  } catch (err) {
    if (!(err instanceof ActionInputError)) throw err;
    annotate("error", `input error: ${err.message}`);
    setOutputs({ status: "ERROR", "exit-code": String(EXIT_INPUT_ERROR), report: "" });
    summarize(`### BreakPoint: input error\n\n${err.message}\n`);
    return EXIT_INPUT_ERROR;
  }
  process.stdout.write(`breakpoint ${args.join(" ")}\n`);

  // Both runs judge at the same instant, so a waiver cannot expire between them.
  const runEnv = { ...env, BREAKPOINT_NOW: env.BREAKPOINT_NOW || new Date().toISOString() };
  const json = runCli([...args, "--json"], runEnv);
  const text = runCli(args, runEnv);
  process.stdout.write(text.stdout);
  process.stderr.write(text.stderr);

  let report = null;
  try {
    report = json.stdout.trim() === "" ? null : JSON.parse(json.stdout);
  } catch {
    report = null;
  }
  const code = json.code;
  const status = statusOf(report, code);
  let file = "";
  if (report !== null) {
    file = reportPath();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, json.stdout);
  }
  setOutputs({ status, "exit-code": String(code), report: file });

  const errors = text.stderr.split("\n").filter((line) => line.trim() !== "");
  let markdown = `### BreakPoint: ${status} (exit ${code})\n\n`;
  if (text.stdout.trim() !== "") markdown += fenced(text.stdout, "text");
  if (errors.length > 0) markdown += `\n${errors.map((line) => `- ${line}`).join("\n")}\n`;
  if (file) markdown += `\nJSON report: \`${file}\`\n`;
  summarize(markdown);

  const reasons = report?.reasons?.length ? `: ${report.reasons.join(" ")}` : "";
  if (code !== 0) annotate("error", status === "ERROR" ? (errors[0] ?? `exit ${code}`) : `${status}${reasons}`);
  else if (status === "WARN") annotate("warning", `WARN (not failing: fail-on block)${reasons}`);
  return code;
}

try {
  process.exitCode = main();
} catch (err) {
  annotate("error", `internal error: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 4;
}
