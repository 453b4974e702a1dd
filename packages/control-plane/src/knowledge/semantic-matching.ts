// Semantic matching switched on: the embeddings provider and the database's vector index, kept in
// step with the CFBs. Every CFB write is followed by sync() (the services call it after their
// transaction commits); what a failed call leaves pending is embedded by the next sync: the next
// write's, or the one every scheduler tick starts (the web server ticks each minute; cron can run
// `pnpm workflow tick`). Queries never wait for the embedder to catch
// up: a CFB without a vector yet is still found lexically.
import { type TRepositories, type TVectorStore, visibleTo } from "@solserver/db";
import { SEMANTIC_SCALE, type TSemanticScale } from "@solserver/resolve";
import type { TEmbeddingsProvider } from "../embeddings/openai-embeddings";
import { proposalText } from "./resolve-candidates";
import type { TSemanticSearch } from "./semantic";

/** CFBs embedded per request to the embeddings server. */
const BATCH = 32;
/** Vectors sampled to calibrate the scale, and the fewest worth calibrating on. */
const CALIBRATION_SAMPLE = 400;
const MIN_CALIBRATION = 30;
/** `full` sits this share of the way from `none` to a perfect 1. */
const FULL_SHARE = 0.75;
/**
 * The most neighbours a search reads while skipping other users' private CFBs: it asks for k,
 * then 4k, 16k … until k are visible (the vector index holds every CFB; visibility is the Cfb row's).
 */
const MAX_NEAREST = 1024;

/**
 * The semantic scale for this model, from the knowledge base itself: `none` is the cosine that
 * 99% of pairs of different CFBs stay under (what unrelated knowledge reaches with this model),
 * `full` three quarters of the way from there to 1. Too few CFBs: the default scale.
 */
export function calibrateScale(vectors: readonly Float32Array[]): TSemanticScale {
  if (vectors.length < MIN_CALIBRATION) return SEMANTIC_SCALE;
  const pairs: number[] = [];
  for (let i = 0; i < vectors.length; i++)
    for (let j = i + 1; j < vectors.length; j++)
      pairs.push(cosine(vectors[i] as Float32Array, vectors[j] as Float32Array));
  pairs.sort((a, b) => a - b);
  const none = pairs[Math.floor(pairs.length * 0.99)] as number;
  return { none, full: none + FULL_SHARE * (1 - none) };
}

export type TSemanticStatus = {
  model: string;
  dims: number;
  embedded: number;
  pending: number;
  scale: TSemanticScale;
  lastError: string | null;
};

export type TSemanticMatching = {
  search: TSemanticSearch;
  /** Embeds what is pending (every CFB written since the last sync); returns how many. */
  sync(): Promise<number>;
  /** sync() until nothing is pending, reporting progress (first start on a large knowledge base). */
  syncAll(progress?: (line: string) => void): Promise<number>;
  status(): Promise<TSemanticStatus>;
};

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  // Clamped: rounding can put a vector's similarity with itself a hair above 1.
  return na === 0 || nb === 0 ? 0 : Math.max(-1, Math.min(1, dot / Math.sqrt(na * nb)));
}

export async function openSemanticSearch(
  repos: Pick<TRepositories, "cfbs">,
  provider: TEmbeddingsProvider,
): Promise<TSemanticMatching> {
  // The dimension is the model's: learned from one embedding.
  const [probe] = await provider.embed(["dimension probe"]);
  if (!probe) throw new Error("the embeddings server returned no vector");
  const store: TVectorStore = await repos.cfbs.openVectors(provider.model, probe.length);
  let scale = calibrateScale(await store.sample(CALIBRATION_SAMPLE));
  const recalibrate = async () => {
    scale = calibrateScale(await store.sample(CALIBRATION_SAMPLE));
  };
  let lastError: string | null = null;
  let running: Promise<number> | null = null;

  async function syncBatch(): Promise<number> {
    const pending = await store.pending(BATCH);
    if (pending.length === 0) {
      await store.prune();
      return 0;
    }
    const vectors = await provider.embed(
      pending.map((p) => proposalText({ title: p.title, delta_summary: p.summary })),
    );
    await store.write(
      pending.map((p, i) => ({ cfbId: p.cfbId, version: p.version, vector: vectors[i] as Float32Array })),
    );
    return pending.length;
  }

  let again = false;
  let progress: ((line: string) => void) | undefined;

  /**
   * One sync at a time per process. A caller arriving while one runs (a CFB written meanwhile)
   * shares it and makes it look for pending CFBs once more before it ends, so nothing written
   * during a sync waits for the next one.
   */
  async function sync(report?: (line: string) => void): Promise<number> {
    if (report) progress = report;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        const { pending } = await store.counts();
        if (pending > 0) progress?.(`embedding ${pending.toLocaleString("en-US")} CFBs with ${provider.model}`);
        const started = performance.now();
        do {
          again = false;
          for (let n = await syncBatch(); n > 0; n = await syncBatch()) {
            total += n;
            if (total % (BATCH * 50) === 0)
              progress?.(
                `${total.toLocaleString("en-US")} embedded (${((performance.now() - started) / 1000).toFixed(0)} s)`,
              );
          }
        } while (again);
        if (total > 0) await recalibrate();
        progress?.(
          `${total.toLocaleString("en-US")} embedded; scale for ${provider.model}: unrelated ≤ ${scale.none.toFixed(3)}, ` +
            `restatement ≥ ${scale.full.toFixed(3)}`,
        );
        lastError = null;
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
        throw error;
      }
      return total;
    })().finally(() => {
      running = null;
      progress = undefined;
    });
    return running;
  }

  return {
    search: {
      model: provider.model,
      scale: () => scale,
      async embed(text) {
        const [vector] = await provider.embed([text]);
        if (!vector) throw new Error("the embeddings server returned no vector");
        return vector;
      },
      async nearest(vector, k, opts = {}) {
        const scope = visibleTo(opts.visibleTo ?? null);
        for (let asked = k; ; asked *= 4) {
          const rows = await store.nearest(vector, Math.min(asked, MAX_NEAREST));
          const seen = await repos.cfbs.existingIds(
            rows.map((r) => r.cfb_id),
            scope,
          );
          const visible = rows.filter((r) => seen.has(r.cfb_id));
          if (visible.length >= k || rows.length < asked || asked >= MAX_NEAREST) return visible.slice(0, k);
        }
      },
      async similarities(vector, ids) {
        const stored = await store.vectors(ids);
        return new Map([...stored].map(([id, v]) => [id, cosine(vector, v)] as const));
      },
    },
    sync: () => sync(),
    syncAll: (report) => sync(report),
    async status() {
      const counts = await store.counts();
      return { model: provider.model, dims: store.dims, ...counts, scale, lastError };
    },
  };
}

/** After a failed open, semantic matching is tried again no sooner than this. */
const RETRY_MS = 30_000;

/**
 * Semantic matching as the services hold it: opened on first use (the embeddings server may start
 * after Solserver), retried after a failure, and never in the way of a turn: `get()` resolves to
 * null while it is unavailable, and callers fall back to lexical matching.
 */
export type TSemanticHandle = {
  get(): Promise<TSemanticMatching | null>;
  /** After a CFB write: embeds what is pending, in the background (errors are logged). */
  afterWrite(): void;
  /** Embeds everything pending and waits for it (tests, the CLI). */
  syncNow(): Promise<number>;
};

export function semanticHandle(
  repos: Pick<TRepositories, "cfbs">,
  provider: TEmbeddingsProvider,
  log: (message: string) => void = (m) => console.warn(m),
): TSemanticHandle {
  let opened: TSemanticMatching | null = null;
  let opening: Promise<TSemanticMatching | null> | null = null;
  let failedAt = Number.NEGATIVE_INFINITY;
  const get = async (): Promise<TSemanticMatching | null> => {
    if (opened) return opened;
    if (opening) return opening;
    if (performance.now() - failedAt < RETRY_MS) return null;
    opening = openSemanticSearch(repos, provider)
      .then((s) => {
        opened = s;
        // First start on an existing knowledge base: embed it in the background.
        s.syncAll((line) => log(`semantic matching: ${line}`)).catch((e: unknown) =>
          log(`semantic matching: sync failed: ${(e as Error).message}`),
        );
        return s;
      })
      .catch((error: unknown) => {
        failedAt = performance.now();
        log(
          `semantic matching unavailable (lexical only, retried in ${RETRY_MS / 1000} s): ${(error as Error).message}`,
        );
        return null;
      })
      .finally(() => {
        opening = null;
      });
    return opening;
  };
  return {
    get,
    afterWrite() {
      get()
        .then((s) => s?.sync())
        .catch((error: unknown) => log(`semantic matching: sync after a write failed: ${(error as Error).message}`));
    },
    async syncNow() {
      const s = await get();
      return s ? s.sync() : 0;
    },
  };
}
