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

/** Background texts per request: a turn's text waits behind at most this many (about 130 ms at 240 characters). */
const BACKGROUND_SLICE = 4;

export function openSentenceModel() {
  const worker = new Worker(new URL("./worker.mjs", import.meta.url));
  worker.unref();
  // Every request goes to the worker at once; the worker decides the order (worker.mjs).
  const waiting = new Map();
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
    for (const job of waiting.values()) job.reject(error);
    waiting.clear();
  };

  worker.on("message", (message) => {
    if (message.type === "ready") return settleReady.resolve();
    if (message.type === "failed") return fail(new Error(`sentence model: ${message.message}`));
    const job = waiting.get(message.id);
    waiting.delete(message.id);
    // Held while a request waits, so a turn waits for the model only when it asked for something.
    if (waiting.size === 0) worker.unref();
    if (message.type === "vectors") job?.resolve(message.vectors);
    else job?.reject(new Error(`sentence model: ${message.message}`));
  });
  worker.on("error", (error) => fail(error));
  worker.on("exit", (code) => {
    if (!failure) fail(new Error(`sentence model: the worker stopped (exit code ${code})`));
  });

  const request = (texts, background) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, texts, background });
    });

  return {
    model: MODEL,
    dims: DIMS,
    ready,
    async embed(texts, opts = {}) {
      if (failure) throw failure;
      const background = opts.background === true;
      const cut = texts.map((t) => modelText(t, background ? MAX_CHARS.background : MAX_CHARS.interactive));
      if (!background) return cut.length === 0 ? [] : request(cut, false);
      const slices = [];
      for (let i = 0; i < cut.length; i += BACKGROUND_SLICE)
        slices.push(request(cut.slice(i, i + BACKGROUND_SLICE), true));
      return (await Promise.all(slices)).flat();
    },
    async close() {
      if (!failure) failure = new Error("sentence model: closed");
      await worker.terminate();
    },
  };
}
