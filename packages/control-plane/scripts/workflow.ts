// `pnpm workflow run <file.yaml>`: see src/workflows/cli.ts and the README's "Checkpoint workflows".
import { input, select } from "@inquirer/prompts";
import { runWorkflowCli, type TAsk } from "../src/workflows/cli";

const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
const ask: TAsk = {
  choose: (message, labels) => select({ message, choices: labels.map((label) => ({ name: label, value: label })) }),
  text: (message) => input({ message }),
};
const code = await runWorkflowCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  // pnpm runs scripts from the repository root; INIT_CWD is where the person typed the command.
  cwd: process.env.INIT_CWD ?? process.cwd(),
  ask: interactive ? ask : undefined,
  env: process.env,
});
process.exitCode = code;
