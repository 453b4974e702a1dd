import type { TCaller } from "../services/context";
import type { TServiceDeps } from "../services/deps";
import { respondToTurn } from "../services/respond";
import { DEMO_CFBS, DEMO_THREADS } from "./demo-data";

export type TSeedReport = {
  outcome: "loaded" | "already-present" | "skipped-foreign-data";
  cfbs: number;
  turns: number;
  proposals: number;
};

async function hasCfbTitled(repos: TServiceDeps["repos"], title: string): Promise<boolean> {
  const { items } = await repos.cfbs.list({ query: title, limit: 10 });
  return items.some((c) => c.title === title);
}

/**
 * Loads the demo CFBs, then plays the demo conversations through the turn pipeline so their
 * proposals are real. Safe to re-run and to resume after an interruption: each demo CFB is
 * created only if missing, and each turn has a fixed request_id, so a repeat is a replay. A
 * database holding other knowledge (no demo CFB in it) is left alone. The conversations are
 * `owner`'s (the demo user), so signing in as that user shows them.
 */
export async function seedDemo(deps: TServiceDeps, owner: TCaller): Promise<TSeedReport> {
  const { repos } = deps;
  const first = DEMO_CFBS[0];
  if ((await repos.cfbs.count()) > 0 && first && !(await hasCfbTitled(repos, first.title))) {
    return { outcome: "skipped-foreign-data", cfbs: 0, turns: 0, proposals: 0 };
  }
  let cfbs = 0;
  for (const draft of DEMO_CFBS) {
    if (await hasCfbTitled(repos, draft.title)) continue;
    await repos.cfbs.create(draft);
    cfbs++;
  }
  let turns = 0;
  let proposals = 0;
  for (const thread of DEMO_THREADS) {
    for (const [i, message] of thread.messages.entries()) {
      const response = await respondToTurn(
        { deps, caller: owner },
        {
          thread_id: thread.threadId,
          request_id: `demo:${thread.threadId}:${i}`,
          message,
          ...(thread.procedure ? { procedure: thread.procedure } : {}),
        },
      );
      if (response.replayed) continue;
      turns++;
      proposals += response.ui_hints.proposal_previews.length;
    }
  }
  return { outcome: cfbs + turns > 0 ? "loaded" : "already-present", cfbs, turns, proposals };
}
