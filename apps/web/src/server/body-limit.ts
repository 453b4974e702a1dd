import "server-only";
import { bodyNotUtf8, bodyTimedOut, bodyTooLarge } from "./errors/refusals";

/** Largest request body accepted by the API (tRPC batch or REST), in bytes. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * How long a whole body may take to arrive. A sender that trickles bytes (a slowloris) would
 * otherwise keep a request, and a load-shedding slot, for Node's five-minute request timeout.
 */
export const BODY_DEADLINE_MS = 10_000;

/** Strict: invalid UTF-8 is refused, never turned into U+FFFD. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body as text, refusing more than `limit` bytes: checked against Content-Length first, then
 * while streaming (a chunked body has no length), so an oversized body is never buffered whole;
 * a body still arriving after `deadlineMs` is refused (REQUEST_TIMEOUT), as is invalid UTF-8.
 */
export async function readBodyCapped(
  req: Request,
  limit = MAX_BODY_BYTES,
  deadlineMs = BODY_DEADLINE_MS,
): Promise<string> {
  const tooLarge = () => bodyTooLarge(limit);
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), deadlineMs);
  });
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), late]);
      if (next === "late") {
        await reader.cancel().catch(() => {});
        throw bodyTimedOut(Math.ceil(deadlineMs / 1000));
      }
      const { done, value } = next;
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  try {
    return UTF8.decode(Buffer.concat(chunks));
  } catch {
    throw bodyNotUtf8();
  }
}
