import { EXIT } from "./exit-codes";
import { main } from "./main";

// The bundle's entry (dist/breakpoint.mjs): run the CLI and hand its code to the process.
// process.exitCode (not process.exit) lets a large report on a pipe finish writing.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  // `breakpoint ... | head`: the reader went away; the decision's code still stands.
  if (err.code === "EPIPE") return;
  // A failed synchronous write was already reported by main() (exit code 4).
  if (process.exitCode !== EXIT.INTERNAL_ERROR) {
    process.stderr.write(`breakpoint: internal error: cannot write the report: ${err.message}\n`);
    process.exitCode = EXIT.INTERNAL_ERROR;
  }
});
process.exitCode = main(process.argv.slice(2));
