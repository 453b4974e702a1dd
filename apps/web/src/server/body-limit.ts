import "server-only";
import { bodyTooLarge } from "./errors/refusals";

/** Largest request body accepted by the API (tRPC batch or REST), in bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * The body as text, refusing more than `limit` bytes: checked against Content-Length first, then
 * while streaming (a chunked body has no length), so an oversized body is never buffered whole.
 */
export async function readBodyCapped(req: Request, limit = MAX_BODY_BYTES): Promise<string> {
  const tooLarge = () => bodyTooLarge(limit);
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
