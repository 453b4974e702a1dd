// The router as a server process holds it: trained on the routing config's examples and on the
// examples people filed under a domain since (RoutingExample), retrained when those change. Every
// turn asks `current()`; at most every CHECK_EVERY_MS it reads the examples' version, so a
// correction made in any process is used by every process within seconds, without a restart.
// When the sentence model is loaded, the examples are embedded in the background and the
// classifier's nearest-examples vote joins (docs/routing.md).
import type { TRoutingConfig } from "@solserver/contracts";
import type { TRepositories } from "@solserver/db";
import { buildRouter, type TRouter } from "@solserver/engine";
import type { TSemanticHandle } from "../knowledge/semantic-matching";

/** How often a process looks for examples another process filed. */
export const CHECK_EVERY_MS = 2000;

export type TRoutingHandle = {
  readonly config: TRoutingConfig;
  /** The router with the examples filed up to CHECK_EVERY_MS ago (and every one this process filed). */
  current(): Promise<TRouter>;
  /** Reads the filed examples now (after this process filed or removed one). */
  refresh(): Promise<TRouter>;
  /**
   * Trained on the filed examples at least once, with their meaning vote when the sentence model
   * is there (or known to be unavailable): the warm-up at start does it and /readyz waits for it,
   * so the first turns do not queue behind the examples' embedding.
   */
  trained(): boolean;
};

export function routingHandle(
  config: TRoutingConfig,
  repos: Pick<TRepositories, "routingExamples">,
  semantic: TSemanticHandle | undefined,
  clock: () => number = () => performance.now(),
  log: (message: string) => void = (m) => console.warn(m),
): TRoutingHandle {
  let router = buildRouter(config);
  let version: string | null = null;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<TRouter> | null = null;
  /** Sentence vectors of example texts, kept across retraining. */
  const vectors = new Map<string, Float32Array>();
  let embedding: Promise<void> | null = null;
  /** The examples' first embedding is over (done, failed, or no sentence model). */
  let meaningSettled = semantic === undefined;

  /** The router with the meaning vote, once every example has a vector (embedded in the background). */
  function withMeaning(trained: TRouter): TRouter {
    const texts = trained.model.examples.map((e) => e.text);
    const missing = [...new Set(texts.filter((t) => !vectors.has(t)))];
    if (missing.length === 0)
      return { ...trained, model: trained.model.withVectors(texts.map((t) => vectors.get(t) as Float32Array)) };
    if (embedding === null)
      embedding = embedMissing(missing).finally(() => {
        embedding = null;
      });
    return trained;
  }

  async function embedMissing(texts: string[]): Promise<void> {
    const s = await semantic?.get().catch(() => null);
    if (!s) {
      meaningSettled = true;
      return;
    }
    try {
      for (let i = 0; i < texts.length; i += EMBED_BATCH) {
        const batch = texts.slice(i, i + EMBED_BATCH);
        (await s.search.embedMany(batch)).forEach((v, j) => {
          vectors.set(batch[j] as string, v);
        });
      }
      if (router.model.examples.every((e) => vectors.has(e.text))) router = withMeaning(router);
    } catch (error) {
      log(`routing: embedding the examples failed, words only: ${(error as Error).message}`);
    } finally {
      meaningSettled = true;
    }
  }

  async function read(): Promise<TRouter> {
    checkedAt = clock();
    const now = await repos.routingExamples.version();
    if (now !== version) {
      const learned = await repos.routingExamples.list();
      router = buildRouter(config, learned);
      version = now;
    }
    // Only a router without the vote yet looks for vectors: a version check that finds nothing
    // new does no work over the examples.
    if (semantic && !router.model.meaning) router = withMeaning(router);
    return router;
  }

  const refresh = () => {
    reading ??= read().finally(() => {
      reading = null;
    });
    return reading;
  };

  return {
    config,
    current: () => (clock() - checkedAt >= CHECK_EVERY_MS ? refresh() : Promise.resolve(router)),
    refresh,
    trained: () => version !== null && meaningSettled,
  };
}

/** Example texts embedded per request (background work: a turn's message goes first). */
const EMBED_BATCH = 32;
