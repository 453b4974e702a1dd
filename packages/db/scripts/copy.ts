// `pnpm db:copy --to <url> [--from <url>]`: every row of one Solserver database into another,
// empty one, in one transaction (src/copy/ holds the logic; `--help` says what it does).
// Exit codes: 0 copied and verified, 1 failed (the target holds no copied rows), 2 refused
// arguments, 3 the target already holds rows.
import { COPY_USAGE, CopyRefusal, copyDatabase, parseCopyArgs } from "../src/copy";

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

async function main(): Promise<number> {
  const args = parseCopyArgs(process.argv.slice(2), process.env);
  if (args.help) {
    console.log(COPY_USAGE);
    return 0;
  }
  const result = await copyDatabase({ from: args.from, to: args.to, log: (line) => console.log(line) });
  console.log(
    `copied ${result.rows.toLocaleString("en-US")} rows in ${result.tables.length} tables in ${seconds(result.ms)}`,
  );
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (error instanceof CopyRefusal) {
    console.error(`db:copy: ${error.message}`);
    process.exitCode = error.exitCode;
  } else {
    const message = (error as Error).message.replace(/\s+/g, " ").trim();
    console.error(`db:copy failed: ${message}`);
    console.error("the copy ran in one transaction: the target holds none of the copied rows");
    process.exitCode = 1;
  }
}
