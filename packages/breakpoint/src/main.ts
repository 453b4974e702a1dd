import { readFileSync } from "node:fs";
import type { TGateMode, TGatePolicyName } from "@solserver/contracts";
import { parseGateConfig } from "@solserver/gate";
import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import { acceptRisks, RISK_POLICIES } from "./accept-risk";
import { renderBatchText, runBatch } from "./batch";
import { evaluateFiles } from "./evaluate-files";
import { EXIT, exitCodeForStatus, type TExitCode, type TFailOn } from "./exit-codes";
import { InputError, oneLine, readConfigFile } from "./read-input";
import { renderJson, toJsonReport } from "./report-json";
import { renderTextReport } from "./report-text";
import { runMetadata, SCHEMA_VERSION } from "./run-metadata";

/** Replaced by the build (scripts/build.mjs) with package.json's version. */
declare const __BREAKPOINT_VERSION__: string | undefined;
export const VERSION = typeof __BREAKPOINT_VERSION__ === "string" ? __BREAKPOINT_VERSION__ : "0.0.0-dev";

/** Where the CLI writes. Everything on stdout is the report (text or JSON); errors go to stderr. */
export interface TIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: TIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

interface TGateOptions {
  mode: TGateMode;
  failOn: TFailOn;
  acceptRisk?: TGatePolicyName[];
  strict?: boolean;
  json?: boolean;
  config?: string;
}

export const EXIT_CODES_HELP = `
Exit codes:
  0  ALLOW   safe to deploy
  1  WARN    review recommended (--strict turns WARN into BLOCK; --fail-on block exits 0)
  2  BLOCK   do not deploy
  3  input error: unreadable file, invalid JSON/YAML, missing or non-string
     "output", invalid config, bad option (one line on stderr)
  4  internal error, or the CLI is not built`;

function addGateOptions(cmd: Command): Command {
  return cmd
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
    .option("--json", "print the result as JSON on stdout (and nothing else)")
    .option("-c, --config <file>", "gate config (YAML or JSON): thresholds, PII allowlist, output contract ...")
    .addHelpText("after", EXIT_CODES_HELP);
}

function loadConfig(opts: TGateOptions) {
  return opts.config === undefined ? undefined : readConfigFile(opts.config);
}

/** The commander program; `done` receives the exit code an action decided. */
export function buildProgram(io: TIo, done: (code: TExitCode) => void, bufferErr: (text: string) => void): Command {
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
      .argument("<baseline>", "baseline record (JSON): the known-good output")
      .argument("<candidate>", "candidate record (JSON): the output to gate"),
  ).action((baselineFile: string, candidateFile: string, opts: TGateOptions) => {
    const config = loadConfig(opts);
    const decision = acceptRisks(
      evaluateFiles({
        baselineFile,
        candidateFile,
        mode: opts.mode,
        strict: opts.strict === true,
        config,
        configFile: opts.config,
      }),
      opts.acceptRisk ?? [],
    );
    const code = exitCodeForStatus(decision.status, opts.failOn);
    io.out(
      opts.json === true
        ? renderJson(
            toJsonReport(
              decision,
              code,
              runMetadata({
                baseline: readFileSync(baselineFile, "utf8"),
                candidate: readFileSync(candidateFile, "utf8"),
                mode: opts.mode,
                strict: opts.strict === true,
                fail_on: opts.failOn,
                accept_risk: opts.acceptRisk ?? [],
                config: config ?? null,
              }),
            ),
          )
        : renderTextReport(decision, { baselineFile, candidateFile, configFile: opts.config, exitCode: code }),
    );
    done(code);
  });

  addGateOptions(
    program
      .command("batch")
      .description("evaluate many pairs (a directory or a manifest) and print one summary; exits with the worst code")
      .argument(
        "<dir-or-manifest>",
        "a directory of <name>.baseline.json + <name>.candidate.json, or a YAML/JSON manifest",
      ),
  ).action((target: string, opts: TGateOptions) => {
    const config = loadConfig(opts);
    const report = runBatch({
      target,
      mode: opts.mode,
      strict: opts.strict === true,
      failOn: opts.failOn,
      config,
      configFile: opts.config,
    });
    for (const result of report.results) {
      if (result.error !== null) io.err(`breakpoint: error: ${result.name}: ${result.error}\n`);
    }
    io.out(opts.json === true ? renderJson({ schema_version: SCHEMA_VERSION, ...report }) : renderBatchText(report));
    done(report.exit_code);
  });

  const config = program.command("config").description("show the gate's configuration");
  config
    .command("print")
    .description("print the effective config (defaults merged with -c FILE) as JSON")
    .option("-c, --config <file>", "gate config (YAML or JSON) to merge over the defaults")
    .action((opts: { config?: string }) => {
      io.out(renderJson(opts.config === undefined ? parseGateConfig({}) : readConfigFile(opts.config)));
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
    if (process.env.BREAKPOINT_DEBUG && err instanceof Error && err.stack) io.err(`${err.stack}\n`);
    return EXIT.INTERNAL_ERROR;
  }
}
