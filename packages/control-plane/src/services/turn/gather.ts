import type { THistoryMessage, TPreviousResponse } from "@solserver/db";
import { retrieveCfbs, type TSemanticChannel } from "../../retrieval";
import type { TRankedCfb } from "../../retrieval-ranking";
import type { TServiceContext } from "../context";
import type { TServiceDeps } from "../deps";
import type { TAdmitted } from "./admit";
import type { TPlan } from "./plan";
import { since } from "./timing";

// Step 3, gather: what the model is given besides the message. The thread's recent messages, its
// previous delivered answer (the output gate's baseline, seed 002) and the CFBs retrieval ranks
// over every live CFB the thread's owner may see (shared ones and their own private ones, issue
// 19), by words and by meaning (retrieval.ts); a skip turn injects none. The trace says why each
// CFB was injected: the message's words it holds and the similarity of its meaning.

const HISTORY_WINDOW = 20;
const INJECTED_CFBS = 8;

export type TGathered = {
  readonly history: readonly THistoryMessage[];
  readonly previous: TPreviousResponse | null;
  readonly ranked: readonly TRankedCfb[];
  /** The ids of the injected CFBs. */
  readonly injected: ReadonlySet<string>;
  /** This thread's proposals waiting for review (the model says a question waits on one). */
  readonly pending: readonly { proposal_id: string; title: string; summary: string }[];
};

/** How many of a thread's pending proposals a turn shows the model. */
const PENDING_SHOWN = 10;

export async function gather({ deps }: TServiceContext, turn: TAdmitted, plan: TPlan): Promise<TGathered> {
  const { input, trace } = turn;
  const { route } = plan.selection;
  const started = performance.now();
  const history = turn.existing ? await deps.repos.turns.history(turn.threadId, HISTORY_WINDOW) : [];
  const previous = turn.existing ? await deps.repos.turns.lastResponse(turn.threadId) : null;
  const pending =
    turn.existing && !plan.skip ? await deps.repos.desk.pendingOfThread(turn.threadId, PENDING_SHOWN) : [];
  const ranked = plan.skip
    ? []
    : await retrieveCfbs(
        { search: deps.repos.cfbs.index.search, retrievable: deps.repos.cfbs.retrievable },
        input.message,
        {
          limit: INJECTED_CFBS,
          route,
          now: deps.now(),
          visibleTo: turn.ownerId,
          semantic: await semanticChannel(deps, input.message, turn.ownerId),
        },
      );
  trace.add(
    "retrieval",
    plan.skip ? "Skipped: acknowledgement turn" : `Injected ${ranked.length} CFB(s)`,
    {
      cfbs: ranked.map((r) => ({
        cfb_id: r.cfb.cfb_id,
        title: r.cfb.title,
        domain: r.cfb.domain,
        score: round3(r.score),
        matched: r.why.matched,
        similarity: r.why.similarity === null ? null : round3(r.why.similarity),
        lexical: round3(r.why.lexical),
      })),
      router_domain: route.domain,
      scope: route.scope,
      duration_ms: since(started),
    },
    plan.skip ? "skipped" : "completed",
  );
  return { history, previous, ranked, injected: new Set(ranked.map((r) => r.cfb.cfb_id)), pending };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * The semantic channel of the message, when semantic matching is on; none when it is off, still
 * loading, or the model fails (the turn then retrieves lexically, and the log says why).
 */
async function semanticChannel(
  deps: TServiceDeps,
  message: string,
  visibleTo: string | null,
): Promise<TSemanticChannel | undefined> {
  const semantic = await deps.semantic?.get();
  if (!semantic) return undefined;
  try {
    const vector = await semantic.search.embed(message);
    return {
      model: semantic.search.model,
      nearest: (k, domains) => semantic.search.nearest(vector, k, { visibleTo, domains }),
      similarities: (ids) => semantic.search.similarities(vector, ids),
    };
  } catch (error) {
    console.warn(`retrieval: semantic neighbours failed, lexical only: ${(error as Error).message}`);
    return undefined;
  }
}
