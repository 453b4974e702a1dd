import { existsSync } from "node:fs";
import { GATE_PRESETS, type TGateMode, type TGatePolicyName } from "@solserver/contracts";
import { PRESETS } from "@solserver/gate";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { acceptCandidate, readHistory, renderHistoryText } from "./accept";
import { acceptRisks, RISK_POLICIES } from "./accept-risk";
import { renderBatchText, runBatch } from "./batch";
import { evaluationNow, loadConfig, type TConfigOptions } from "./config-options";
import { processEnv, type TEnv } from "./env";
import { evaluatePair } from "./evaluate-files";
import { EXIT, exitCodeForStatus, type TExitCode, type TFailOn } from "./exit-codes";
import { renderMetricsText, summarizeDecisions } from "./metrics";
import { readPair, readProcessStdin, type TReadStdin } from "./pair-input";
import { InputError, oneLine } from "./read-input";
import { renderJson, toJsonReport } from "./report-json";
import { renderTextReport } from "./report-text";
import { renderVerboseSections } from "./report-verbose";
import { runMetadata, SCHEMA_VERSION } from "./run-metadata";

/** Replaced by the build (scripts/build.mjs) with package.json's version. */
declare const __BREAKPOINT_VERSION__: string | undefined;
export const VERSION = typeof __BREAKPOINT_VERSION__ === "string" ? __BREAKPOINT_VERSION__ : "0.0.0-dev";

/** Where the CLI writes. Everything on stdout is the report (text or JSON); errors go to stderr. */
export interface TIo {
  out(text: string): void;
  err(text: string): void;
  /** Where the BREAKPOINT_* variables (and the CI's) are read (env.ts lists them). */
  env: TEnv;
}

export const processIo: TIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  env: processEnv(),
};

interface TGateOptions extends TConfigOptions {
  mode: TGateMode;
  failOn: TFailOn;
  acceptRisk?: TGatePolicyName[];
  strict?: boolean;
  json?: boolean;
  verbose?: boolean;
}

export const EXIT_CODES_HELP = `
Exit codes:
  0  ALLOW   safe to deploy
  1  WARN    review recommended (--strict turns WARN into BLOCK; --fail-on block exits 0)
  2  BLOCK   do not deploy
  3  input error: unreadable file, invalid JSON/YAML, missing or non-string
     "output", invalid config, bad option (one line on stderr)
  4  internal error, or the CLI is not built`;

const ENV_HELP = `
Environment: BREAKPOINT_CONFIG, BREAKPOINT_PRESET, BREAKPOINT_ENV, BREAKPOINT_NOW stand in for
-c, --preset, --env and --now when those are not given.`;

function addConfigOptions(cmd: Command): Command {
  return cmd
    .option(
      "-c, --config <file>",
      "gate config (YAML or JSON): thresholds, PII allowlist, output contract, waivers ...",
    )
    .addOption(
      new Option("--preset <name>", "built-in thresholds under the config: chatbot, extraction, support").choices([
        ...GATE_PRESETS,
      ]),
    )
    .option("--env <name>", "apply the config's environments.<name> overrides (e.g. ci, production)");
}

function addGateOptions(cmd: Command): Command {
  return addConfigOptions(
    cmd
      .addOption(
        new Option("--mode <mode>", "lite: cost, PII, drift; full: also latency, output contract, similarity")
          .choices(["lite", "full"])
          .default("lite"),
      )
      .addOption(
        new Option("--fail-on <level>", "warn: WARN and BLOCK fail the step (exit 1 / 2); block: only BLOCK does")
          .choices(["warn", "block"])
          .default("warn"),
      )
      .addOption(
        new Option(
          "--accept-risk <policy>",
          "for this run, accept a policy's WARN or BLOCK (repeatable; listed in the report)",
        )
          .choices([...RISK_POLICIES])
          .argParser((value: string, previous: string[] | undefined) => {
            if (!(RISK_POLICIES as readonly string[]).includes(value))
              throw new InvalidArgumentError(`Allowed choices are ${RISK_POLICIES.join(", ")}.`);
            return [...(previous ?? []), value];
          }),
      )
      .option("--strict", "treat WARN as BLOCK (exit 2 instead of 1)")
      .option("--json", "print the result as JSON on stdout (and nothing else)"),
  )
    .option("--now <time>", "the time waivers expire against (ISO-8601, e.g. 2026-11-27T12:00:00Z; default: now)")
    .addHelpText("after", `${EXIT_CODES_HELP}\n${ENV_HELP}`);
}

/** `breakpoint evaluate`: one pair, its decision as text or JSON, the exit code for it. */
function evaluateCommand(
  { io, done, stdin }: { io: TIo; done: (code: TExitCode) => void; stdin: TReadStdin },
  baselineArg: string,
  candidateArg: string | undefined,
  opts: TGateOptions,
): void {
  const loaded = loadConfig(opts, io.env);
  const now = evaluationNow(opts, io.env);
  const pair = readPair(baselineArg, candidateArg, stdin);
  const decision = acceptRisks(
    evaluatePair(pair, {
      mode: opts.mode,
      strict: opts.strict === true,
      config: loaded.config,
      configFile: loaded.file ?? undefined,
      now,
    }),
    opts.acceptRisk ?? [],
  );
  const code = exitCodeForStatus(decision.status, opts.failOn);
  if (opts.json === true) {
    const judged = {
      baseline: pair.baseline.text,
      candidate: pair.combined === null ? pair.candidate.text : null,
      mode: opts.mode,
      strict: opts.strict === true,
      fail_on: opts.failOn,
      accept_risk: opts.acceptRisk ?? [],
      config: loaded.config,
    };
    const run = { ...runMetadata(judged, io.env), preset: loaded.preset, environment: loaded.environment };
    io.out(renderJson(toJsonReport(decision, code, run)));
  } else {
    io.out(
      renderTextReport(decision, {
        baselineFile: pair.combined === null ? pair.baseline.label : `${pair.combined} (baseline)`,
        candidateFile: pair.combined === null ? pair.candidate.label : `${pair.combined} (candidate)`,
        configFile: loaded.file ?? undefined,
        preset: loaded.preset,
        environment: loaded.environment,
        exitCode: code,
        ...(opts.verbose === true
          ? { verbose: renderVerboseSections(decision, pair.baseline.record, pair.candidate.record) }
          : {}),
      }),
    );
  }
  done(code);
}

/** The commander program; `done` receives the exit code an action decided. */
function buildProgram(
  io: TIo,
  done: (code: TExitCode) => void,
  bufferErr: (text: string) => void,
  stdin: TReadStdin = readProcessStdin,
): Command {
  const program = new Command()
    .name("breakpoint")
    .description("BreakPoint: gate a candidate model output against a known-good baseline (ALLOW / WARN / BLOCK).")
    .version(VERSION, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.out(text), writeErr: bufferErr, outputError: () => {} })
    .showSuggestionAfterError(true)
    .addHelpText("after", EXIT_CODES_HELP);

  addGateOptions(
    program
      .command("evaluate")
      .description("compare one candidate output with its baseline and print the decision")
      .argument("<baseline>", "baseline record (JSON): the known-good output; '-' reads stdin")
      .argument(
        "[candidate]",
        "candidate record (JSON): the output to gate; omitted, <baseline> holds both: { baseline, candidate }",
      )
      .option("--verbose", "also show every policy's findings, codes and figures, and the records side by side"),
  ).action((baselineArg: string, candidateArg: string | undefined, opts: TGateOptions) =>
    evaluateCommand({ io, done, stdin }, baselineArg, candidateArg, opts),
  );

  addGateOptions(
    program
      .command("batch")
      .description("evaluate many pairs (a directory or a manifest) and print one summary; exits with the worst code")
      .argument(
        "<dir-or-manifest>",
        "a directory of <name>.baseline.json + <name>.candidate.json, or a YAML/JSON manifest",
      ),
  ).action((target: string, opts: TGateOptions) => {
    const loaded = loadConfig(opts, io.env);
    const report = runBatch({
      target,
      mode: opts.mode,
      strict: opts.strict === true,
      failOn: opts.failOn,
      config: loaded.config,
      configFile: loaded.file ?? undefined,
      now: evaluationNow(opts, io.env),
    });
    for (const result of report.results) {
      if (result.error !== null) io.err(`breakpoint: error: ${result.name}: ${result.error}\n`);
    }
    io.out(opts.json === true ? renderJson({ schema_version: SCHEMA_VERSION, ...report }) : renderBatchText(report));
    done(report.exit_code);
  });

  program
    .command("accept")
    .description(
      "make the candidate the new baseline (an intended change); every version is kept in <baseline>.history/",
    )
    .argument("<baseline>", "baseline record to replace (created if missing)")
    .argument("<candidate>", "the record that becomes the baseline (or an older version from the history)")
    .option("--reason <text>", "why the change is intended (kept in the history log)")
    .option("--json", "print the result as JSON")
    .action((baselineFile: string, candidateFile: string, opts: { reason?: string; json?: boolean }) => {
      const by = io.env.GITHUB_ACTOR?.trim() || io.env.USER?.trim() || null;
      const result = acceptCandidate({ baselineFile, candidateFile, reason: opts.reason, by });
      if (opts.json === true) io.out(renderJson(result));
      else if (!result.changed) io.out(`Baseline unchanged: ${baselineFile} already holds ${candidateFile}\n`);
      else
        io.out(
          `Baseline updated: ${baselineFile} <- ${candidateFile} (version ${result.version}; history in ${result.history_dir})\n`,
        );
      done(EXIT.ALLOW);
    });

  program
    .command("history")
    .description("list the versions a baseline has had (from <baseline>.history/log.jsonl)")
    .argument("<baseline>", "baseline record")
    .option("--json", "print the versions as JSON")
    .action((baselineFile: string, opts: { json?: boolean }) => {
      const entries = readHistory(baselineFile);
      io.out(
        opts.json === true
          ? renderJson({ baseline: baselineFile, versions: entries })
          : renderHistoryText(baselineFile, entries),
      );
      done(EXIT.ALLOW);
    });

  program
    .command("metrics")
    .description("summarize stored decisions (evaluate/batch --json files): counts, codes, block rates, trend by day")
    .argument("<paths...>", "decision JSON files or directories (searched recursively for *.json)")
    .option("--json", "print the summary as JSON")
    .action((paths: string[], opts: { json?: boolean }) => {
      // `metrics summarize <paths>`, the original library's spelling, reads the same.
      const given = paths[0] === "summarize" && paths.length > 1 && !existsSync("summarize") ? paths.slice(1) : paths;
      const summary = summarizeDecisions(given);
      for (const line of summary.errors) io.err(`breakpoint: error: ${line}\n`);
      io.out(opts.json === true ? renderJson(summary) : renderMetricsText(summary));
      done(summary.errors.length > 0 ? EXIT.INPUT_ERROR : EXIT.ALLOW);
    });

  const config = program.command("config").description("show the gate's configuration");
  addConfigOptions(
    config
      .command("print")
      .description("print the effective config (defaults < preset < -c FILE < --env overrides) as JSON"),
  ).action((opts: TConfigOptions) => {
    io.out(renderJson(loadConfig(opts, io.env).config));
    done(EXIT.ALLOW);
  });
  config
    .command("presets")
    .description("list the built-in presets and what they are for")
    .action(() => {
      for (const name of GATE_PRESETS) io.out(`${name.padEnd(12)}${PRESETS[name].description}\n`);
      done(EXIT.ALLOW);
    });

  return program;
}

function commanderLine(err: CommanderError): string {
  const message = oneLine(err.message).replace(/^error:\s*/i, "");
  return `breakpoint: error: ${message} (see 'breakpoint --help')`;
}

/**
 * Run the CLI on `argv` (the arguments after the program name) and return the exit code.
 * Never throws: usage and input errors are one stderr line and code 3; anything else is code 4.
 */
export function main(argv: readonly string[], io: TIo = processIo): TExitCode {
  let code: TExitCode = EXIT.INTERNAL_ERROR;
  let errBuffer = "";
  const program = buildProgram(
    io,
    (c) => {
      code = c;
    },
    (text) => {
      errBuffer += text;
    },
  );
  try {
    program.parse([...argv], { from: "user" });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help, --version, `help <command>`: commander already wrote to stdout.
      if (err.exitCode === 0) {
        if (errBuffer !== "") io.err(errBuffer);
        return EXIT.ALLOW;
      }
      if (err.code === "commander.help") {
        io.err(
          "breakpoint: error: missing command: use 'breakpoint evaluate' or 'breakpoint batch' (see 'breakpoint --help')\n",
        );
      } else {
        io.err(`${commanderLine(err)}\n`);
      }
      return EXIT.INPUT_ERROR;
    }
    if (err instanceof InputError) {
      io.err(`breakpoint: error: ${err.line}\n`);
      return EXIT.INPUT_ERROR;
    }
    const message = err instanceof Error ? err.message : String(err);
    io.err(`breakpoint: internal error: ${oneLine(message)}\n`);
    if (io.env.BREAKPOINT_DEBUG && err instanceof Error && err.stack) io.err(`${err.stack}\n`);
    return EXIT.INTERNAL_ERROR;
  }
}
