// `pnpm token create|list|revoke`: see src/auth/token-cli.ts and the README's "API tokens".
import { runTokenCli } from "../src/auth/token-cli";

process.exitCode = await runTokenCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
});
