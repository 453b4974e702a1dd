import { ZChatRespondRequest, ZChatRespondResponse } from "@solserver/contracts";
import { respondToTurn } from "@solserver/control-plane";
import { readJsonBody, runRest } from "@/server/rest";

export const runtime = "nodejs";

/** POST /chat/respond: one chat turn (seed 001 §3.2). A retried request_id replays the answer. */
export function POST(req: Request) {
  return runRest(req, ZChatRespondResponse, async (ctx) => {
    const body = await respondToTurn(ctx, await readJsonBody(req, ZChatRespondRequest));
    return { body, headers: { "Idempotent-Replayed": String(body.replayed) } };
  });
}
