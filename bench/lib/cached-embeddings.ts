// The embedded sentence model with a disk cache (bench/.cache), so a benchmark that embeds the
// same 30,000 texts on every run pays the model once. Vectors are the model's exactly: the cache
// only remembers them.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createLocalEmbeddings, type TEmbeddingsProvider } from "@solserver/control-plane";

const DIR = path.join(import.meta.dirname, "..", ".cache");
/** Stored knowledge and a turn's text are cut to different lengths (sentence-model MAX_CHARS). */
const key = (text: string, background: boolean) =>
  createHash("sha1")
    .update(`${background ? "b" : "i"}\u0000${text}`)
    .digest("hex");

export function cachedLocalEmbeddings(): TEmbeddingsProvider & { save(): void; close(): Promise<void> } {
  const model = createLocalEmbeddings();
  const file = path.join(DIR, `${model.model}.bin`);
  const cache = new Map<string, Float32Array>();
  if (existsSync(file)) {
    const buf = readFileSync(file);
    const dims = buf.readUInt32LE(0);
    for (let at = 4; at < buf.length; at += 20 + dims * 4) {
      const k = buf.subarray(at, at + 20).toString("hex");
      cache.set(k, new Float32Array(buf.buffer.slice(buf.byteOffset + at + 20, buf.byteOffset + at + 20 + dims * 4)));
    }
  }
  let added = 0;
  return {
    model: model.model,
    async embed(texts, opts) {
      const keys = texts.map((t) => key(t, opts?.background === true));
      const missing = [...new Set(keys.filter((k) => !cache.has(k)))];
      if (missing.length > 0) {
        const byKey = new Map(texts.map((t, i) => [keys[i] as string, t] as const));
        for (let i = 0; i < missing.length; i += 32) {
          const batch = missing.slice(i, i + 32);
          const vectors = await model.embed(
            batch.map((k) => byKey.get(k) as string),
            opts,
          );
          for (const [j, k] of batch.entries()) cache.set(k, vectors[j] as Float32Array);
          added += batch.length;
        }
      }
      return keys.map((k) => cache.get(k) as Float32Array);
    },
    save() {
      if (added === 0) return;
      mkdirSync(DIR, { recursive: true });
      const first = cache.values().next().value as Float32Array;
      const parts: Buffer[] = [Buffer.alloc(4)];
      parts[0]?.writeUInt32LE(first.length, 0);
      for (const [k, v] of cache) parts.push(Buffer.from(k, "hex"), Buffer.from(v.buffer, v.byteOffset, v.byteLength));
      writeFileSync(file, Buffer.concat(parts));
      added = 0;
    },
    close: () => model.close(),
  };
}
