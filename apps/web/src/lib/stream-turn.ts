import { type TChatRespondRequest, type TChatRespondResponse, ZChatRespondResponse } from "@solserver/contracts";
import { createParser } from "eventsource-parser";

// The browser's side of POST /chat/respond/stream: sends the turn, reports the answer's text as it
// arrives (`delta`), drops text of an attempt that was not delivered (`retract`), and resolves
// with the final response. Errors carry the server's code and field, like the REST façade's.

class TurnStreamError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly field: string | null,
    readonly status: number,
  ) {
    super(message);
    this.name = "TurnStreamError";
  }
}

type TRestErrorBody = { error?: { code?: string; message?: string; field?: string | null } };

function errorOf(body: TRestErrorBody | null, status: number): TurnStreamError {
  const e = body?.error;
  return new TurnStreamError(
    e?.message ?? `the server answered ${status}`,
    e?.code ?? "INTERNAL",
    e?.field ?? null,
    status,
  );
}

export type TTurnStreamHandlers = {
  onDelta: (n: number, text: string) => void;
  onRetract: (n: number, reason: string) => void;
};

export async function streamTurn(
  input: TChatRespondRequest,
  handlers: TTurnStreamHandlers,
  signal?: AbortSignal,
): Promise<TChatRespondResponse> {
  const res = await fetch("/chat/respond/stream", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify(input),
    credentials: "same-origin",
    ...(signal ? { signal } : {}),
  });
  if (!res.ok || !(res.headers.get("content-type") ?? "").startsWith("text/event-stream") || !res.body) {
    throw errorOf((await res.json().catch(() => null)) as TRestErrorBody | null, res.status);
  }
  let final: TChatRespondResponse | null = null;
  let failure: TurnStreamError | null = null;
  const parser = createParser({
    onEvent(message) {
      const data = JSON.parse(message.data) as Record<string, unknown>;
      if (message.event === "delta") handlers.onDelta(Number(data.n), String(data.text));
      else if (message.event === "retract") handlers.onRetract(Number(data.n), String(data.reason));
      else if (message.event === "final") final = ZChatRespondResponse.parse(data);
      else if (message.event === "error") failure = errorOf({ error: data }, 200);
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
  // The answer is stored once `final` arrived: a failure after it (the memento) does not undo that.
  if (final !== null) return final;
  if (failure) throw failure;
  throw new TurnStreamError("the answer stopped before it was complete", "INTERNAL", null, 200);
}
