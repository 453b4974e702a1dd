// The review queue (issue 7): filters on resolve's decision, domain, confidence and thread, three
// sorts, and keyset pagination that returns every proposal exactly once whatever the sort.

import { ZProposalListRequest } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { listProposals, parseInput, respondToTurn } from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, testCfb } from "../src/testing";

type TS = { title: string; confidence: number; domainHint: string };
let next: TS[] = [];
const scripted = scriptedModel(() => ({
  suggestions: next.map((s) => ({
    op: "create" as const,
    title: s.title,
    delta_summary: `${s.title} is now the rule.`,
    tags: [s.domainHint],
    entities: [],
    confidence: s.confidence,
  })),
}));

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
const threads: string[] = [];
let n = 0;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "review-queue", model: scripted, limits: { chatTurnsPerMinute: 1000 } });
  user = await opened.account("user");
  await opened.repos.cfbs.create(
    testCfb({
      title: "Quarterly budget review",
      summary: "Quarterly budget review is now the rule.",
      tags: ["finance"],
    }),
  );
  // 3 threads x 4 turns x 1 proposal: confidences 0.1 .. 0.9, one restating the CFB above.
  for (let t = 0; t < 3; t++) {
    let threadId: string | undefined;
    for (let i = 0; i < 4; i++) {
      const restates = t === 0 && i === 0;
      next = [
        {
          title: restates ? "Quarterly budget review" : `Rule ${t}-${i} about widgets`,
          confidence: Math.round((0.1 + 0.07 * (t * 4 + i)) * 100) / 100,
          domainHint: restates ? "finance" : "widgets",
        },
      ];
      const res = await respondToTurn(opened.as(user), {
        request_id: `queue-${++n}`,
        message: "We decided this.",
        ...(threadId ? { thread_id: threadId } : {}),
      });
      threadId = res.thread_id;
    }
    threads.push(threadId as string);
  }
});
afterAll(async () => opened?.close());

const list = (input: z.input<typeof ZProposalListRequest>) =>
  listProposals(opened.as(user), parseInput(ZProposalListRequest, input));

describe("review queue", () => {
  it("filters by resolve's decision, confidence and thread", async () => {
    const all = await list({ limit: 100 });
    expect(all.items).toHaveLength(12);
    const updates = await list({ decision: "update", limit: 100 });
    expect(updates.items.map((p) => p.title)).toEqual(["Quarterly budget review"]);
    expect((await list({ decision: "create", limit: 100 })).items).toHaveLength(11);
    const confident = await list({ min_confidence: 0.6, limit: 100 });
    expect(confident.items.every((p) => p.confidence >= 0.6)).toBe(true);
    expect(confident.items).toHaveLength(all.items.filter((p) => p.confidence >= 0.6).length);
    const inThread = await list({ thread_id: threads[1] as string, limit: 100 });
    expect(inThread.items).toHaveLength(4);
    expect(inThread.items.every((p) => p.thread_id === threads[1])).toBe(true);
  });

  it("filters by the proposed CFB's domain", async () => {
    const domain = (await list({ limit: 1 })).items[0]?.proposed_cfb.domain as string;
    const same = await list({ domain, limit: 100 });
    expect(same.items.length).toBeGreaterThan(0);
    expect(same.items.every((p) => p.proposed_cfb.domain === domain)).toBe(true);
    expect((await list({ domain: "no-such-domain", limit: 100 })).items).toEqual([]);
  });

  for (const sort of ["newest", "oldest", "confidence"] as const) {
    it(`pages through every proposal exactly once, sorted ${sort}`, async () => {
      const seen: { id: string; confidence: number; created: string }[] = [];
      let cursor: string | undefined;
      do {
        const page = await list({ sort, limit: 5, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items.map((p) => ({ id: p.proposal_id, confidence: p.confidence, created: p.created_ts })));
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toHaveLength(12);
      expect(new Set(seen.map((s) => s.id)).size).toBe(12);
      const keys = seen.map((s) =>
        sort === "confidence" ? -s.confidence : sort === "newest" ? -Date.parse(s.created) : Date.parse(s.created),
      );
      expect([...keys].sort((a, b) => a - b)).toEqual(keys);
    });
  }
});
