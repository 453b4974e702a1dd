// `pnpm db:prune [--dry-run] [--vacuum] [--analyze] [--trace-days N] [--gate-days N]`: see
// src/retention/cli.ts and docs/operations.md. Ctrl-C stops after the batch under way.
import { runPruneCli } from "../src/retention/cli";

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => controller.abort());
const code = await runPruneCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
  signal: controller.signal,
});
process.exitCode = code;
