// CFB stats from events (seed 001 §2.2) and retrieval boosts (§9.5) on a real SQLite file:
// every turn counts what it injected, used and ignored (and whether it left an unknown), feedback
// on a CFB counts too, the rebuild from events agrees with the incremental counts and applies
// the 30-day window, retrieval weighs hotness, ignored rate and staleness, and a stale CFB that
// asks for review on use raises a promotion trigger when it is used.
import type { TCfbDraft } from "@solserver/contracts";
import { ZFeedbackRequest, ZTriggerListRequest } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { giveFeedback, listTriggers, parseInput, respondToTurn } from "../src/index";
import type { TModelProvider } from "../src/model/provider";
import { BOOSTS, rankCfbs, retrievalBoost } from "../src/retrieval-ranking";
import { openTestControlPlane, type TTestActor, testCfb } from "../src/testing";

let answer: { used: string[]; ignored: string[]; unknown: boolean } = { used: [], ignored: [], unknown: false };
const scripted: TModelProvider = {
  name: "scripted",
  async generate() {
    return {
      envelope: {
        assistant_text: "Answer.",
        meta: {
          modeLabel: "System",
          domainHints: [],
          used_cfb_ids: answer.used,
          ignored_cfb_ids: answer.ignored,
          unknowns: answer.unknown ? [{ id: "u1", text: "Which region?" }] : [],
          cfb_suggestions: [],
        },
      },
      tokensIn: 1,
      tokensOut: 1,
    };
  },
};

const cfb = (title: string, summary: string): TCfbDraft => testCfb({ title, summary });

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let a: string;
let b: string;
let n = 0;
const ask = (message: string) => respondToTurn(opened.as(user), { request_id: `stats-${++n}`, message });
const stats = (cfbId: string) => opened.db.cfbStats.findUniqueOrThrow({ where: { cfbId } });

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "stats-boosts", model: scripted, limits: { chatTurnsPerMinute: 1000 } });
  user = await opened.account("user");
  jam = await opened.account("jam");
  a = (await opened.repos.cfbs.create(cfb("Kafka retention", "Kafka topics keep messages for seven days."))).cfb_id;
  b = (await opened.repos.cfbs.create(cfb("Kafka partitions", "Kafka topics have twelve partitions."))).cfb_id;
});
afterAll(async () => opened?.close());

describe("stats from events", () => {
  it("counts injected, used and ignored CFBs, the unknown rate and hotness, per turn", async () => {
    answer = { used: [a], ignored: [b], unknown: false };
    await ask("How long do Kafka topics keep messages, and how many partitions?");
    answer = { used: [a], ignored: [b], unknown: true };
    await ask("Kafka topics: retention and partitions?");
    const sa = await stats(a);
    const sb = await stats(b);
    expect(sa).toMatchObject({ usage30d: 2, usedByModel30d: 2, ignoredByModel30d: 0, unknownRateWhenInjected: 0.5 });
    expect(sb).toMatchObject({ usage30d: 2, usedByModel30d: 0, ignoredByModel30d: 2, unknownRateWhenInjected: 0.5 });
    expect(sa.hotness).toBeGreaterThan(0.15);
    expect(sb.hotness).toBe(0);
    expect(await opened.db.cfbUsageEvent.count({ where: { cfbId: a, kind: "injected" } })).toBe(2);
  });

  it("counts feedback on a CFB", async () => {
    answer = { used: [a], ignored: [], unknown: false };
    const res = await ask("Kafka retention?");
    await giveFeedback(
      opened.as(user),
      parseInput(ZFeedbackRequest, { response_id: res.response_id, polarity: "positive", cfb_id: a }),
    );
    await giveFeedback(
      opened.as(user),
      parseInput(ZFeedbackRequest, { response_id: res.response_id, polarity: "correction", cfb_id: a }),
    );
    expect(await stats(a)).toMatchObject({ positiveFeedback30d: 1, correctionEvents30d: 1, negativeFeedback30d: 0 });
    expect((await stats(a)).lastFeedbackAt).not.toBeNull();
  });

  it("the rebuild from events agrees with the incremental counts, and drops what is older than 30 days", async () => {
    const before = await stats(a);
    await opened.repos.stats.rebuild();
    const rebuilt = await stats(a);
    expect(rebuilt).toMatchObject({
      usage30d: before.usage30d,
      usedByModel30d: before.usedByModel30d,
      ignoredByModel30d: before.ignoredByModel30d,
      positiveFeedback30d: 1,
      correctionEvents30d: 1,
    });
    expect(rebuilt.unknownRateWhenInjected).toBeCloseTo(before.unknownRateWhenInjected, 6);
    expect(rebuilt.hotness).toBeCloseTo(before.hotness, 3);
    // Forty days later every event is out of the window.
    await opened.repos.stats.rebuild(new Date(Date.now() + 40 * 86_400_000));
    expect(await stats(a)).toMatchObject({ usage30d: 0, usedByModel30d: 0, positiveFeedback30d: 0, hotness: 0 });
    await opened.repos.stats.rebuild();
  });
});

describe("retrieval boosts", () => {
  const signals = { hotness: 0, used30d: 0, ignored30d: 0, stale: false, reviewOnUse: true };

  it("weighs hotness, a persistent ignored rate and staleness, as documented", () => {
    expect(retrievalBoost(undefined)).toBe(1);
    expect(retrievalBoost(signals)).toBe(1);
    expect(retrievalBoost({ ...signals, hotness: 1 })).toBeCloseTo(1 + BOOSTS.hotness, 9);
    // Fewer than five observations: no penalty yet.
    expect(retrievalBoost({ ...signals, ignored30d: 4 })).toBe(1);
    expect(retrievalBoost({ ...signals, used30d: 1, ignored30d: 4 })).toBeCloseTo(1 - BOOSTS.ignoredPenalty * 0.8, 9);
    expect(retrievalBoost({ ...signals, stale: true })).toBe(BOOSTS.stale);
  });

  it("reorders close candidates but never lifts one that does not match", () => {
    const card = (id: string, title: string, s: typeof signals) => ({
      cfb_id: id,
      domain: "ops",
      title,
      summary: title,
      tags: [],
      entities: [],
      signals: s,
    });
    const cold = card("CFB-0001", "kafka retention policy", { ...signals, ignored30d: 10 });
    const hot = card("CFB-0002", "kafka retention policy", { ...signals, hotness: 0.9, used30d: 9 });
    const unrelated = card("CFB-0003", "lunch menu", { ...signals, hotness: 1, used30d: 50 });
    const ranked = rankCfbs("kafka retention policy", [cold, hot, unrelated], 8);
    expect(ranked.map((r) => r.cfb.cfb_id)).toEqual(["CFB-0002", "CFB-0001"]);
  });

  it("a stale CFB with review_on_use raises a review trigger when it is used", async () => {
    const stale = (await opened.repos.cfbs.create(cfb("Zookeeper quorum", "Zookeeper runs five nodes."))).cfb_id;
    await opened.db.cfb.update({
      where: { id: stale },
      data: { ttlDays: 1, updatedAt: new Date(Date.now() - 3 * 86_400_000) },
    });
    answer = { used: [stale], ignored: [], unknown: false };
    await ask("How many Zookeeper nodes form the quorum?");
    const { items } = await listTriggers(opened.as(jam), parseInput(ZTriggerListRequest, {}));
    expect(items.find((t) => t.kind === "cfb_stale" && t.key === stale)?.suggestion).toContain("review it");
  });
});
