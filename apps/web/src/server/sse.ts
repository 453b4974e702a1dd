import "server-only";
import { holdSlotUntil } from "./load-shedding";
import { restErrorBody } from "./rest";

// Server-sent events for a long call (a streamed chat turn). The HTTP status is decided by how the
// call starts: if it fails before sending anything (no budget left, bad input, a conflict) the
// caller gets a plain JSON error with its status, as from any REST route; once the first event is
// out the answer is a 200 event stream, and a later failure is an `error` event with the REST
// error body. The work is never tied to the connection: a client that goes away stops receiving,
// the work runs to its end (a chat turn is then stored whole, as if the answer had been read).

export type TSend = (event: string, data: unknown) => void;

const encoder = new TextEncoder();
const frame = (event: string, data: unknown) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * Runs `work`, answering with its events as `text/event-stream`; rejects (for the caller's JSON
 * error) when `work` fails before its first event.
 */
export async function sseResponse(work: (send: TSend) => Promise<void>): Promise<Response> {
  const pending: Uint8Array[] = [];
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let open = true;
  let started!: () => void;
  const firstEvent = new Promise<void>((resolve) => {
    started = resolve;
  });
  const write = (bytes: Uint8Array) => {
    if (!open) return;
    if (controller) controller.enqueue(bytes);
    else pending.push(bytes);
  };
  const send: TSend = (event, data) => {
    write(frame(event, data));
    started();
  };
  const outcome = work(send).then(
    () => ({ ok: true as const }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const first = await Promise.race([firstEvent.then(() => null), outcome]);
  if (first !== null && !first.ok && pending.length === 0) throw first.error;

  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      for (const bytes of pending.splice(0)) c.enqueue(bytes);
      void outcome.then((result) => {
        if (!result.ok) write(frame("error", restErrorBody(result.error).error));
        if (open) {
          open = false;
          c.close();
        }
      });
    },
    cancel() {
      // The client went away: stop writing; the work itself goes on to its end.
      open = false;
    },
  });
  // The request's load-shedding slot is held until the work ends, not just until the first event.
  return holdSlotUntil(
    new Response(stream, {
      status: 200,
      headers: {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
      },
    }),
    outcome,
  );
}
