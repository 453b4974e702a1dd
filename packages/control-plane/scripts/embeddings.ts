// `pnpm embeddings`: embeds every CFB that has no vector for its current version yet (an existing
// or imported knowledge base, or what a crash left), with progress: done of total, rate, time
// left. Safe to stop and run again: it continues where it stopped. `--status` only counts.
// docs/resolve.md#semantic-matching.
import { runEmbeddingsCli } from "../src/embeddings/cli";

process.exitCode = await runEmbeddingsCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
});
