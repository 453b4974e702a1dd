import { ZChatRespondRequest, ZChatRespondResponse } from "@solserver/contracts";
import { readJsonBody, runRest } from "@/server/rest";

export const runtime = "nodejs";

/** POST /chat/respond: one chat turn (seed 001 §3.2). A retried request_id replays the answer. */
export function POST(req: Request) {
  return runRest(req, ZChatRespondResponse, async ({ controlPlane, actor }) => {
    const body = await controlPlane.chat.respond(actor, await readJsonBody(req, ZChatRespondRequest));
    return { body, headers: { "Idempotent-Replayed": String(body.replayed) } };
  });
}
