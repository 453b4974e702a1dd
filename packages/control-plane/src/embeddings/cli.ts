import { createPrismaClient, createRepositories, databaseLabel } from "@solserver/db";
import { embeddingsProvider } from "../control-plane";
import { loadServerEnv } from "../env";
import { openSemanticSearch } from "../knowledge/semantic-matching";

// `pnpm embeddings [--status]`: the backfill of semantic matching's vectors, outside the web
// server (which also runs it in the background at start-up and after every CFB write). Exit codes:
// 0 done, 3 bad arguments or semantic matching off, 4 the model or the database failed.

export const EMBEDDINGS_EXIT = { DONE: 0, INVALID: 3, FAILED: 4 } as const;

export async function runEmbeddingsCli(
  args: readonly string[],
  io: { out: (line: string) => void; err: (line: string) => void; env?: Record<string, string | undefined> },
): Promise<number> {
  const unknown = args.filter((a) => a !== "--status");
  if (unknown.length > 0) {
    io.err(`error: unknown argument ${unknown[0]} (usage: pnpm embeddings [--status])`);
    return EMBEDDINGS_EXIT.INVALID;
  }
  let env: ReturnType<typeof loadServerEnv>;
  try {
    env = loadServerEnv(io.env);
  } catch (error) {
    io.err((error as Error).message);
    return EMBEDDINGS_EXIT.INVALID;
  }
  if (!env.embeddings) {
    io.err("semantic matching is off (SOLSERVER_EMBEDDINGS=off): nothing to embed");
    return EMBEDDINGS_EXIT.INVALID;
  }
  const provider = embeddingsProvider(env.embeddings);
  const db = await createPrismaClient(env.DATABASE_URL);
  try {
    let semantic: Awaited<ReturnType<typeof openSemanticSearch>>;
    try {
      semantic = await openSemanticSearch(createRepositories(db), provider);
    } catch (error) {
      io.err(`the embeddings model is unavailable: ${(error as Error).message}`);
      return EMBEDDINGS_EXIT.FAILED;
    }
    const before = await semantic.status();
    io.out(
      `${databaseLabel(env.DATABASE_URL)}: ${before.embedded.toLocaleString("en-US")} CFBs embedded with ${before.model}, ` +
        `${before.pending.toLocaleString("en-US")} pending`,
    );
    if (args.includes("--status") || before.pending === 0) return EMBEDDINGS_EXIT.DONE;
    const done = await semantic.sync((line) => io.out(line));
    const after = await semantic.status();
    io.out(`done: ${done.toLocaleString("en-US")} embedded, ${after.pending.toLocaleString("en-US")} pending`);
    return EMBEDDINGS_EXIT.DONE;
  } catch (error) {
    io.err(`embedding stopped: ${(error as Error).message} (run it again to continue)`);
    return EMBEDDINGS_EXIT.FAILED;
  } finally {
    await db.$disconnect();
    await provider.close?.();
  }
}
