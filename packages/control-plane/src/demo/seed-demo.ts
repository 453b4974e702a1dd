import type { TRepositories } from "@solserver/db";
import type { TControlPlane } from "../control-plane";
import { DEMO_CFBS, DEMO_THREADS } from "./demo-data";

export type TSeedReport = { seeded: boolean; cfbs: number; turns: number; proposals: number };

/**
 * Fills an empty database with demo CFBs, then plays the demo conversations through the turn
 * pipeline so their proposals are real. Does nothing on a database that already has CFBs.
 */
export async function seedDemo(repos: TRepositories, controlPlane: TControlPlane): Promise<TSeedReport> {
  if ((await repos.cfbs.count()) > 0) return { seeded: false, cfbs: 0, turns: 0, proposals: 0 };
  for (const draft of DEMO_CFBS) await repos.cfbs.create(draft);
  let turns = 0;
  let proposals = 0;
  for (const thread of DEMO_THREADS) {
    for (const [i, message] of thread.messages.entries()) {
      const response = await controlPlane.chat.respond({
        thread_id: thread.threadId,
        request_id: `demo:${thread.threadId}:${i}`,
        message,
      });
      turns++;
      proposals += response.ui_hints.proposal_previews.length;
    }
  }
  return { seeded: true, cfbs: DEMO_CFBS.length, turns, proposals };
}
