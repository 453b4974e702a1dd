// Semantic matching: the embeddings provider (the embedded sentence model by default, or an
// OpenAI-compatible server) and the stored vectors of the CFBs, kept in step with them. Every CFB
// write is followed by sync() (the services call it after their transaction commits); sync embeds
// what is pending in the background, in small batches that yield to turns, and what a failed or
// killed sync left pending is picked up by the next one: the next write's, the one every scheduler
// tick starts (the web server ticks each minute; cron can run `pnpm workflow tick`), or
// `pnpm embeddings` (a crash loses nothing: pending is "no vector for the CFB's current version").
// Queries never wait for the backfill: a CFB without a vector yet is still found lexically.

import { randomUUID } from "node:crypto";
import type { TPendingEmbedding, TRepositories, TVectorStore } from "@solserver/db";
import { SEMANTIC_SCALE, type TSemanticScale } from "@solserver/resolve";
import { LRUCache } from "lru-cache";
import type { TEmbeddingsProvider } from "../embeddings/openai-embeddings";
import { proposalText } from "./resolve-candidates";
import type { TSemanticSearch } from "./semantic";

/** Messages whose vectors are kept for the same turn's next use. */
const RECENT_MESSAGES = 64;
/** CFBs embedded per request: small, so a turn's message waits for one batch at most. */
const BATCH = 16;
/** A backfill says how far it is this often. */
const PROGRESS_EVERY_MS = 5000;
/** Vectors sampled to calibrate the scale, and the fewest worth calibrating on. */
const CALIBRATION_SAMPLE = 400;
const MIN_CALIBRATION = 30;
/** `full` sits this share of the way from `none` to a perfect 1. */
const FULL_SHARE = 0.75;

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

/** Where a backfill stands: what is done of what was pending when it started, and how fast. */
type TBackfill = {
  running: boolean;
  done: number;
  total: number;
  /** CFBs embedded per second so far (null before the first batch). */
  perSecond: number | null;
  /** Seconds left at that rate (null while unknown). */
  secondsLeft: number | null;
};

export type TSemanticStatus = {
  model: string;
  dims: number;
  embedded: number;
  pending: number;
  scale: TSemanticScale;
  lastError: string | null;
  backfill: TBackfill;
};

export type TSemanticMatching = {
  search: TSemanticSearch;
  /** Embeds what is pending (every CFB written since the last sync); returns how many. */
  sync(progress?: (line: string) => void): Promise<number>;
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

/** The lease of the backfill: one process embeds the knowledge base for all of them. */
const BACKFILL_LEASE = "embedding-backfill";
/** How long the lease holds without renewal: every batch renews it, so a holder that died frees it this soon. */
const BACKFILL_LEASE_MS = 60_000;

export async function openSemanticSearch(
  repos: Pick<TRepositories, "cfbs" | "workLeases">,
  provider: TEmbeddingsProvider,
  now: () => Date = () => new Date(),
): Promise<TSemanticMatching> {
  // The dimension is the model's: learned from one embedding.
  const [probe] = await provider.embed(["dimension probe"]);
  if (!probe) throw new Error("the embeddings provider returned no vector");
  const store: TVectorStore = await repos.cfbs.openVectors(provider.model, probe.length);
  let scale = calibrateScale(await store.sample(CALIBRATION_SAMPLE));
  let lastError: string | null = null;
  let running: Promise<number> | null = null;
  let again = false;
  /** Who hears the progress of the sync under way (a caller joining it is heard too). */
  const reporters = new Set<(line: string) => void>();
  const report = (line: string) => {
    for (const r of reporters) r(line);
  };
  const backfill: TBackfill = { running: false, done: 0, total: 0, perSecond: null, secondsLeft: null };
  // Several processes on one database: the one holding the lease embeds, the others leave it to it
  // (each would otherwise embed every CFB too, on its own cores, slowing its own turns).
  const owner = `process ${process.pid} (${randomUUID().slice(0, 8)})`;
  const holdBackfill = () => {
    const at = now();
    return repos.workLeases.acquire(BACKFILL_LEASE, owner, at, new Date(at.getTime() + BACKFILL_LEASE_MS));
  };

  /** Embeds the next batch after `cursor.afterId` and moves the cursor past it. */
  async function syncBatch(cursor: { afterId: string }): Promise<number> {
    const pending = await store.pending(BATCH, cursor.afterId);
    if (pending.length === 0) return 0;
    cursor.afterId = (pending[pending.length - 1] as TPendingEmbedding).cfbId;
    const vectors = await provider.embed(
      pending.map((p) => proposalText({ title: p.title, delta_summary: p.summary })),
      { background: true },
    );
    await store.write(
      pending.map((p, i) => ({ cfbId: p.cfbId, version: p.version, vector: vectors[i] as Float32Array })),
    );
    return pending.length;
  }

  /**
   * One sync at a time per process. A caller arriving while one runs (a CFB written meanwhile)
   * shares it and makes it look for pending CFBs once more before it ends, so nothing written
   * during a sync waits for the next one.
   */
  function sync(progress?: (line: string) => void): Promise<number> {
    if (progress) reporters.add(progress);
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      if (!(await holdBackfill())) {
        const holder = await repos.workLeases.holder(BACKFILL_LEASE);
        report(
          `${holder ? holder.owner : "another process"} is embedding the knowledge base (its lease runs to ${holder?.expiresAt.toISOString() ?? "?"}); this one leaves it to it`,
        );
        return 0;
      }
      try {
        const { pending } = await store.counts();
        Object.assign(backfill, { running: true, done: 0, total: pending, perSecond: null, secondsLeft: null });
        if (pending > 0) report(`embedding ${pending.toLocaleString("en-US")} CFBs with ${provider.model}`);
        const started = performance.now();
        let reported = started;
        do {
          again = false;
          const cursor = { afterId: "" };
          const next = async () => ((await holdBackfill()) ? syncBatch(cursor) : 0);
          for (let n = await next(); n > 0; n = await next()) {
            total += n;
            const seconds = (performance.now() - started) / 1000;
            backfill.done = total;
            backfill.total = Math.max(backfill.total, total);
            backfill.perSecond = seconds > 0 ? total / seconds : null;
            backfill.secondsLeft = backfill.perSecond ? (backfill.total - total) / backfill.perSecond : null;
            if (performance.now() - reported >= PROGRESS_EVERY_MS) {
              reported = performance.now();
              report(progressLine(backfill));
            }
          }
        } while (again);
        if (total > 0) scale = calibrateScale(await store.sample(CALIBRATION_SAMPLE));
        report(
          `${total.toLocaleString("en-US")} embedded; scale for ${provider.model}: unrelated ≤ ${scale.none.toFixed(3)}, ` +
            `restatement ≥ ${scale.full.toFixed(3)}`,
        );
        lastError = null;
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
        throw error;
      } finally {
        backfill.running = false;
        await repos.workLeases.release(BACKFILL_LEASE, owner);
      }
      return total;
    })().finally(() => {
      running = null;
      reporters.clear();
      // A write that arrived after the last look (while the scale was recalibrated) was promised
      // a look: it gets one now. Without this its CFB waited for the next write, or for ever.
      if (again) {
        again = false;
        sync().catch(() => {});
      }
    });
    return running;
  }

  const checked = (vector: Float32Array | undefined): Float32Array => {
    if (!vector) throw new Error("the embeddings provider returned no vector");
    if (vector.length !== store.dims)
      throw new Error(`the embeddings provider returned ${vector.length} numbers, the store holds ${store.dims}`);
    return vector;
  };
  // A turn's message is embedded by the router, then by retrieval: the second asks the first.
  const recent = new LRUCache<string, Promise<Float32Array>>({ max: RECENT_MESSAGES });
  return {
    search: {
      model: provider.model,
      scale: () => scale,
      embed(text) {
        let vector = recent.get(text);
        if (!vector) {
          vector = provider.embed([text]).then(([v]) => checked(v));
          recent.set(text, vector);
          vector.catch(() => recent.delete(text));
        }
        return vector;
      },
      async embedMany(texts) {
        return (await provider.embed(texts, { background: true })).map(checked);
      },
      nearest: (vector, k, opts = {}) => store.nearest(vector, k, opts),
      similarities: (vector, ids) => store.similarities(vector, ids),
    },
    sync,
    async status() {
      const counts = await store.counts();
      return { model: provider.model, dims: store.dims, ...counts, scale, lastError, backfill: { ...backfill } };
    },
  };
}

/** "12,340 of 100,000 embedded · 85/s · about 17 min left" */
export function progressLine(b: TBackfill): string {
  const rate = b.perSecond === null ? "" : ` · ${Math.round(b.perSecond)}/s`;
  const left =
    b.secondsLeft === null
      ? ""
      : b.secondsLeft < 90
        ? ` · about ${Math.max(1, Math.round(b.secondsLeft))} s left`
        : ` · about ${Math.round(b.secondsLeft / 60)} min left`;
  return `${b.done.toLocaleString("en-US")} of ${b.total.toLocaleString("en-US")} embedded${rate}${left}`;
}

/** After a failed open, semantic matching is tried again no sooner than this. */
const RETRY_MS = 30_000;

/** What a turn can count on: "loading" while the model opens, "unavailable" after it failed. */
type TSemanticState =
  | { state: "off" }
  | { state: "loading"; model: string }
  | { state: "ready"; model: string }
  | { state: "unavailable"; model: string; reason: string };

/**
 * Semantic matching as the services hold it: opened on first use (or at start-up, `open()`),
 * retried after a failure, and never in the way of a turn: `get()` resolves to null while it is
 * unavailable, and callers fall back to lexical matching. A failure is logged once per reason.
 */
export type TSemanticHandle = {
  get(): Promise<TSemanticMatching | null>;
  /** Opens it now and starts embedding what is pending (the web server's start-up). */
  open(): Promise<TSemanticMatching | null>;
  state(): TSemanticState;
  /** After a CFB write: embeds what is pending, in the background (errors are logged). */
  afterWrite(): void;
  /** Embeds everything pending and waits for it (tests, the CLI), reporting progress. */
  syncNow(progress?: (line: string) => void): Promise<number>;
};

export function semanticHandle(
  repos: Pick<TRepositories, "cfbs" | "workLeases">,
  provider: TEmbeddingsProvider,
  log: (message: string) => void = (m) => console.warn(m),
): TSemanticHandle {
  let opened: TSemanticMatching | null = null;
  let opening: Promise<TSemanticMatching | null> | null = null;
  let failedAt = Number.NEGATIVE_INFINITY;
  let failure: string | null = null;
  const backgroundSync = (s: TSemanticMatching) =>
    s
      .sync((line) => log(`semantic matching: ${line}`))
      .catch((e: unknown) => log(`semantic matching: sync failed: ${(e as Error).message}`));
  const get = async (): Promise<TSemanticMatching | null> => {
    if (opened) return opened;
    if (opening) return opening;
    if (performance.now() - failedAt < RETRY_MS) return null;
    opening = openSemanticSearch(repos, provider)
      .then((s) => {
        opened = s;
        failure = null;
        // First start on an existing knowledge base: embed it in the background.
        void backgroundSync(s);
        return s;
      })
      .catch((error: unknown) => {
        failedAt = performance.now();
        const reason = (error as Error).message;
        if (reason !== failure)
          log(`semantic matching unavailable (lexical only, retried in ${RETRY_MS / 1000} s): ${reason}`);
        failure = reason;
        return null;
      })
      .finally(() => {
        opening = null;
      });
    return opening;
  };
  return {
    get,
    open: get,
    state() {
      if (opened) return { state: "ready", model: provider.model };
      if (failure !== null) return { state: "unavailable", model: provider.model, reason: failure };
      return { state: "loading", model: provider.model };
    },
    afterWrite() {
      get()
        .then((s) => s?.sync())
        .catch((error: unknown) => log(`semantic matching: sync after a write failed: ${(error as Error).message}`));
    },
    async syncNow(progress) {
      const s = await get();
      return s ? s.sync(progress) : 0;
    },
  };
}
