// The embedded sentence model (docs/resolve.md, "Retrieval"): a worker thread running USE-lite
// (worker.mjs) and a small scheduler in front of it. Plain JavaScript; the web server's build
// bundles it, the worker as a chunk of its own (`new Worker(new URL(…))`), so a change here
// reaches `next start` only after `pnpm --filter @solserver/web build`.
import { Worker } from "node:worker_threads";

export const MODEL = "use-lite-512";
export const DIMS = 512;
/**
 * Texts are cut to this many characters, at the last space before: USE-lite's cost grows with a
 * text's length (measured: ~70 texts/s at 100 characters, ~37 at 200, ~18 at 400), so stored
 * knowledge (background work) is read to 240 characters, its title and first sentences, which
 * found as many answers on the paraphrase set as whole texts (68.6 % against 67.3 %); a message
 * or a proposal (a turn waits for it) to 1,000.
 */
export const MAX_CHARS = { background: 240, interactive: 1000 };

export function modelText(text, max = MAX_CHARS.interactive) {
  const clean = text.toWellFormed().trim();
  if (clean.length <= max) return clean.length > 0 ? clean : ".";
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return space > max * 0.6 ? cut.slice(0, space) : cut;
}

export function openSentenceModel() {
  const worker = new Worker(new URL("./worker.mjs", import.meta.url));
  worker.unref();
  const waiting = new Map();
  const queues = { interactive: [], background: [] };
  let busy = false;
  let nextId = 0;
  let failure = null;
  let settleReady;
  const ready = new Promise((resolve, reject) => {
    settleReady = { resolve, reject };
  });
  // A rejected `ready` nobody awaited yet must not crash the process.
  ready.catch(() => {});

  const fail = (error) => {
    failure = error;
    settleReady.reject(error);
    for (const job of [...queues.interactive, ...queues.background]) job.reject(error);
    for (const job of waiting.values()) job.reject(error);
    queues.interactive.length = 0;
    queues.background.length = 0;
    waiting.clear();
  };

  const pump = () => {
    if (busy || failure) return;
    const job = queues.interactive.shift() ?? queues.background.shift();
    if (!job) return;
    busy = true;
    const id = nextId++;
    waiting.set(id, job);
    worker.postMessage({ id, texts: job.texts });
  };

  worker.on("message", (message) => {
    if (message.type === "ready") return settleReady.resolve();
    if (message.type === "failed") return fail(new Error(`sentence model: ${message.message}`));
    const job = waiting.get(message.id);
    waiting.delete(message.id);
    busy = false;
    if (job) {
      if (message.type === "vectors") job.resolve(message.vectors);
      else job.reject(new Error(`sentence model: ${message.message}`));
    }
    pump();
  });
  worker.on("error", (error) => fail(error));
  worker.on("exit", (code) => {
    if (!failure) fail(new Error(`sentence model: the worker stopped (exit code ${code})`));
  });

  return {
    model: MODEL,
    dims: DIMS,
    ready,
    embed(texts, opts = {}) {
      if (failure) return Promise.reject(failure);
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        // Held while waiting, so a turn waits for the model only when nothing else is queued.
        worker.ref();
        const done = (fn) => (value) => {
          if (waiting.size === 0 && queues.interactive.length + queues.background.length === 0) worker.unref();
          fn(value);
        };
        queues[opts.background ? "background" : "interactive"].push({
          texts: texts.map((t) => modelText(t, opts.background ? MAX_CHARS.background : MAX_CHARS.interactive)),
          resolve: done(resolve),
          reject: done(reject),
        });
        pump();
      });
    },
    async close() {
      if (!failure) failure = new Error("sentence model: closed");
      await worker.terminate();
    },
  };
}
