// `pnpm jobs list|retry|work`: see src/jobs/jobs-cli.ts and docs/operations.md#background-work.
import { once } from "node:events";
import { runJobsCli } from "../src/jobs/jobs-cli";

// (the queue's own timers do not hold a process open: `work` holds it until Ctrl-C)
const alive = setInterval(() => {}, 1 << 30);
process.exitCode = await runJobsCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  stopped: Promise.race([once(process, "SIGINT"), once(process, "SIGTERM")]),
});
clearInterval(alive);
