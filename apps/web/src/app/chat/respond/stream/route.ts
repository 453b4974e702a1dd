import { ZChatRespondRequest, ZChatRespondResponse, ZThreadMementoRecord } from "@solserver/contracts";
import { getMemento, respondToTurn } from "@solserver/control-plane";
import { shed } from "@/server/load-shedding";
import { readJsonBody, restContext, restError } from "@/server/rest";
import { sseResponse } from "@/server/sse";

export const runtime = "nodejs";

/**
 * POST /chat/respond/stream: the same turn as POST /chat/respond, answered as server-sent events:
 * `delta` pieces of the answer's text as the model writes it, `retract` when an attempt that was
 * shown is not delivered, then `final` with the whole response (as /chat/respond returns it) and
 * `memento` (the thread's updated memento with its version), or `error`. Refusals before the turn starts (no account, bad body, rate limit) are plain JSON
 * errors with their HTTP status. A client that goes away does not stop the turn: it is stored
 * whole, and resending the same request_id replays it.
 */
async function post(req: Request) {
  try {
    const ctx = await restContext(req);
    const input = await readJsonBody(req, ZChatRespondRequest);
    return await sseResponse(async (send) => {
      const response = await respondToTurn(ctx, input, {
        send: (event) =>
          send(
            event.type,
            event.type === "delta" ? { n: event.n, text: event.text } : { n: event.n, reason: event.reason },
          ),
      });
      send("final", ZChatRespondResponse.parse(response));
      // Seed 000's flow ends with the updated thread memento: sent after the answer, with its
      // version. The turn is stored by now; a failed read only leaves this event out.
      if (response.thread_memento_version === null) return;
      try {
        send("memento", ZThreadMementoRecord.parse(await getMemento(ctx, { thread_id: response.thread_id })));
      } catch (error) {
        console.error("memento after a streamed turn:", error);
      }
    });
  } catch (error) {
    return restError(error);
  }
}

export const POST = shed(post, restError);
