// The embeddings port and its OpenAI-compatible provider: POST {baseUrl}/embeddings with
// { model, input: [texts] }, as OpenAI, vLLM, Ollama, llama.cpp and text-embeddings-inference
// answer it (SOLSERVER_EMBEDDINGS=openai). The embedded sentence model is the other provider
// (local-embeddings.ts, the default).
import { trimEndWhile } from "@solserver/contracts";
import { z } from "zod";

export type TEmbeddingsProvider = {
  /** The model id: stored vectors are per model, so a new model re-embeds every CFB. */
  model: string;
  /**
   * One vector per text, in order; all of one length. `background` work (backfills) may wait
   * behind interactive work (a turn's message) where the provider can order them.
   */
  embed(texts: readonly string[], opts?: { background?: boolean }): Promise<Float32Array[]>;
  /** Frees what the provider holds (the embedded model's worker thread). */
  close?(): Promise<void>;
};

export type TEmbeddingsOptions = {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1 */
  baseUrl: string;
  model: string;
  apiKey?: string | undefined;
  timeoutMs?: number | undefined;
  fetch?: typeof fetch;
};

const ZEmbeddingsResponse = z.object({
  data: z.array(z.object({ index: z.number().int().min(0).optional(), embedding: z.array(z.number()).min(1) })).min(1),
});

/** The connection closed under the request (fetch's "other side closed", ECONNRESET). */
function isConnectionReset(error: unknown): boolean {
  if (!(error instanceof TypeError)) return false;
  const cause = (error as TypeError & { cause?: { code?: string; message?: string } }).cause;
  return (
    cause?.code === "ECONNRESET" || cause?.code === "UND_ERR_SOCKET" || /other side closed/i.test(cause?.message ?? "")
  );
}

/** Texts are cut to this many characters: embedders take a few thousand tokens at most. */
export const MAX_EMBEDDED_CHARS = 8000;

export function createOpenAICompatibleEmbeddings(opts: TEmbeddingsOptions): TEmbeddingsProvider {
  const url = `${trimEndWhile(opts.baseUrl, (c) => c === "/")}/embeddings`;
  const doFetch = opts.fetch ?? fetch;
  return {
    model: opts.model,
    async embed(texts) {
      if (texts.length === 0) return [];
      const request = () =>
        doFetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
          },
          body: JSON.stringify({ model: opts.model, input: texts.map((t) => t.slice(0, MAX_EMBEDDED_CHARS)) }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 30_000),
        });
      // A kept-alive connection the server closed as it was reused fails before any answer:
      // that one attempt is repeated once. A timeout or an HTTP error is not.
      let response: Response;
      try {
        response = await request();
      } catch (error) {
        if (!isConnectionReset(error)) throw error;
        response = await request();
      }
      if (!response.ok) {
        const detail = (await response.text().catch(() => "")).slice(0, 200);
        throw new Error(`embeddings server ${url} answered ${response.status}${detail ? `: ${detail}` : ""}`);
      }
      const parsed = ZEmbeddingsResponse.safeParse(await response.json().catch(() => null));
      if (!parsed.success) throw new Error(`embeddings server ${url} answered without data[].embedding`);
      const rows = parsed.data.data;
      if (rows.length !== texts.length)
        throw new Error(`embeddings server ${url} returned ${rows.length} vectors for ${texts.length} texts`);
      // With indexes, they must be exactly 0 … n−1 (any order): a duplicate or a gap would pair a
      // vector with the wrong text.
      const indexed = rows.every((r) => r.index !== undefined);
      if (indexed) {
        const seen = new Set(rows.map((r) => r.index));
        if (seen.size !== rows.length || rows.some((r) => (r.index as number) >= rows.length))
          throw new Error(`embeddings server ${url} returned indexes that are not 0..${rows.length - 1}`);
      }
      const ordered = indexed ? [...rows].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) : rows;
      const dims = ordered[0]?.embedding.length ?? 0;
      return ordered.map((r, i) => {
        if (r.embedding.length !== dims)
          throw new Error(`embeddings server ${url}: vector ${i} has ${r.embedding.length} numbers, not ${dims}`);
        return Float32Array.from(r.embedding);
      });
    },
  };
}
