// The CFB page's activity (cfbs.activity) on a real SQLite file: usage per UTC day from the
// events real turns wrote (zero-filled, oldest first, day boundaries and the window under an
// injected clock), the stats row, the proposals that targeted the CFB or were promoted into it
// (relation and action), who sees which proposals (a user their own threads', a Jam editor
// every one), and the refusals: NOT_FOUND for an unknown CFB, BAD_INPUT for a window out of range.
import { isDomainError, type TCfbDraft, ZCfbActivityRequest } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { getCfbActivity, parseInput, promoteProposal, respondToTurn } from "../src/index";
import type { TModelProvider } from "../src/model/provider";
import { usageByDay, usageWindow } from "../src/services/cfb-activity";
import { DEFAULT_LIMITS, type TServiceDeps } from "../src/services/deps";
import { openTestControlPlane, type TTestActor, type TTestSuggestion, testCfb } from "../src/testing";

let answer: { used: string[]; ignored: string[]; suggestions: TTestSuggestion[] } = {
  used: [],
  ignored: [],
  suggestions: [],
};
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
          unknowns: [],
          cfb_suggestions: answer.suggestions.map((s) => ({ ...s, confidence: 0.8 })),
        },
      },
      tokensIn: 1,
      tokensOut: 1,
    };
  },
};

const cfb = (title: string, summary: string): TCfbDraft =>
  testCfb({ title, summary, source_refs: ["file:runbook.md"] });

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let other: TTestActor;
let jam: TTestActor;
let retention: string;
let partitions: string;
let n = 0;

/** A turn of `who` whose answer uses / ignores these CFBs and suggests these changes. */
async function turn(who: TTestActor, message: string, a: Partial<typeof answer> = {}) {
  answer = { used: [], ignored: [], suggestions: [], ...a };
  return respondToTurn(opened.as(who), { request_id: `activity-${++n}`, message });
}

/** A fresh pending proposal of `who` from one suggestion; its id. */
async function propose(who: TTestActor, s: TTestSuggestion): Promise<string> {
  const res = await turn(who, "We decided something.", { suggestions: [s] });
  const id = res.ui_hints.proposal_previews[0]?.proposal_id;
  if (!id) throw new Error("no proposal");
  return id;
}

/** The service dependencies on the same database, with the clock stopped at `now`. */
function at(now: Date): TServiceDeps {
  return { ...opened.deps, model: scripted, now: () => now, limits: { ...DEFAULT_LIMITS, chatTurnsPerMinute: 1000 } };
}

/** A CFB's activity as `user` sees it with the clock at `now`. */
const activityAt = (now: Date, input: z.input<typeof ZCfbActivityRequest>) =>
  getCfbActivity({ deps: at(now), caller: user }, parseInput(ZCfbActivityRequest, input));

/** When the latest usage event of a CFB was written (turns stamp events with the wall clock). */
async function lastEventAt(cfbId: string): Promise<Date> {
  const e = await opened.db.cfbUsageEvent.findFirstOrThrow({ where: { cfbId }, orderBy: { createdAt: "desc" } });
  return e.createdAt;
}

/** The DomainError a call fails with (a call that throws before it returns a promise included). */
async function rejection(call: Promise<unknown> | (() => Promise<unknown>)) {
  const error = await Promise.resolve()
    .then(typeof call === "function" ? call : () => call)
    .then(
      () => null,
      (e: unknown) => e,
    );
  if (!isDomainError(error)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "cfb-activity", model: scripted, limits: { chatTurnsPerMinute: 1000 } });
  user = await opened.account("user");
  other = await opened.account("user");
  jam = await opened.account("jam");
  retention = (await opened.repos.cfbs.create(cfb("Kafka retention", "Kafka topics keep messages for seven days.")))
    .cfb_id;
  partitions = (await opened.repos.cfbs.create(cfb("Kafka partitions", "Kafka topics have twelve partitions."))).cfb_id;
});
afterAll(async () => opened?.close());

describe("usage per day", () => {
  it("counts the day's injected, used and ignored events of real turns, zero-filled over 30 days", async () => {
    await turn(user, "How long do Kafka topics keep messages, and how many partitions?", {
      used: [retention],
      ignored: [partitions],
    });
    await turn(user, "Kafka topics: retention and partitions?", { used: [retention], ignored: [partitions] });
    await turn(user, "Kafka topics retention partitions?", { used: [retention, partitions] });
    const now = await lastEventAt(retention);
    const activity = await activityAt(now, { cfb_id: retention });
    expect(activity.usage_by_day).toHaveLength(30);
    expect(activity.usage_by_day.at(-1)).toEqual({
      day: now.toISOString().slice(0, 10),
      injected: 3,
      used: 3,
      ignored: 0,
    });
    for (const d of activity.usage_by_day.slice(0, -1)) expect(d).toMatchObject({ injected: 0, used: 0, ignored: 0 });
    const days = activity.usage_by_day.map((d) => d.day);
    expect([...days].sort()).toEqual(days);
    expect(new Set(days).size).toBe(30);
    const other = await activityAt(now, { cfb_id: partitions, days: 7 });
    expect(other.usage_by_day).toHaveLength(7);
    expect(other.usage_by_day.at(-1)).toMatchObject({ injected: 3, used: 1, ignored: 2 });
  });

  it("puts each event on its UTC day, and leaves out events before the window or after now", async () => {
    const quorum = (await opened.repos.cfbs.create(cfb("Zookeeper quorum", "Zookeeper runs five nodes."))).cfb_id;
    await turn(user, "How many Zookeeper nodes form the quorum?", { used: [quorum] });
    // The turn's two events, moved either side of midnight UTC of 10 March 2025.
    const events = await opened.db.cfbUsageEvent.findMany({ where: { cfbId: quorum }, orderBy: { kind: "asc" } });
    expect(events.map((e) => e.kind)).toEqual(["injected", "used"]);
    const [injected, used] = events as [(typeof events)[0], (typeof events)[0]];
    await opened.db.cfbUsageEvent.update({
      where: { id: injected.id },
      data: { createdAt: new Date("2025-03-09T23:59:59.999Z") },
    });
    await opened.db.cfbUsageEvent.update({
      where: { id: used.id },
      data: { createdAt: new Date("2025-03-10T00:00:00Z") },
    });

    const midnight = await activityAt(new Date("2025-03-10T00:00:00Z"), { cfb_id: quorum, days: 3 });
    expect(midnight.usage_by_day).toEqual([
      { day: "2025-03-08", injected: 0, used: 0, ignored: 0 },
      { day: "2025-03-09", injected: 1, used: 0, ignored: 0 },
      { day: "2025-03-10", injected: 0, used: 1, ignored: 0 },
    ]);
    // Today only: the event a millisecond before midnight is yesterday's.
    const today = await activityAt(new Date("2025-03-10T23:59:59.999Z"), { cfb_id: quorum, days: 1 });
    expect(today.usage_by_day).toEqual([{ day: "2025-03-10", injected: 0, used: 1, ignored: 0 }]);
    // Seen from the day before, the used event is in the future: not counted.
    const before = await activityAt(new Date("2025-03-09T12:00:00Z"), { cfb_id: quorum, days: 2 });
    expect(before.usage_by_day).toEqual([
      { day: "2025-03-08", injected: 0, used: 0, ignored: 0 },
      { day: "2025-03-09", injected: 1, used: 0, ignored: 0 },
    ]);
    // Ninety days later both are out of a 90-day window that ends today.
    const later = await activityAt(new Date("2025-06-08T08:00:00Z"), { cfb_id: quorum, days: 90 });
    expect(later.usage_by_day).toHaveLength(90);
    expect(later.usage_by_day[0]?.day).toBe("2025-03-11");
    expect(later.usage_by_day.every((d) => d.injected + d.used + d.ignored === 0)).toBe(true);
  });

  it("zero-fills a window across a month and a year boundary (pure)", () => {
    const now = new Date("2025-01-01T05:00:00Z");
    expect(usageWindow(now, 3)).toEqual({
      since: new Date("2024-12-30T00:00:00Z"),
      until: new Date("2025-01-02T00:00:00Z"),
    });
    expect(
      usageByDay(
        [
          { day: "2024-12-31", kind: "used", count: 2 },
          { day: "2024-12-31", kind: "ignored", count: 1 },
          { day: "2025-01-01", kind: "injected", count: 4 },
          { day: "2024-12-01", kind: "injected", count: 9 }, // outside the window
        ],
        now,
        3,
      ),
    ).toEqual([
      { day: "2024-12-30", injected: 0, used: 0, ignored: 0 },
      { day: "2024-12-31", injected: 0, used: 2, ignored: 1 },
      { day: "2025-01-01", injected: 4, used: 0, ignored: 0 },
    ]);
  });
});

describe("stats", () => {
  it("serves the stats row the turns updated", async () => {
    const activity = await getCfbActivity(opened.as(user), parseInput(ZCfbActivityRequest, { cfb_id: retention }));
    expect(activity.stats).toMatchObject({
      usage_30d: 3,
      used_by_model_30d: 3,
      ignored_by_model_30d: 0,
      positive_feedback_30d: 0,
      unknown_rate_when_injected: 0,
      last_feedback_ts: null,
    });
    expect(activity.stats?.hotness).toBeGreaterThan(0);
    expect(Date.parse(activity.stats?.updated_ts ?? "")).not.toBeNaN();
  });

  it("is all zero for a CFB nobody used yet, and null when the CFB has no stats row", async () => {
    const fresh = (await opened.repos.cfbs.create(cfb("Lunch menu", "Soup on Mondays."))).cfb_id;
    const activity = await getCfbActivity(opened.as(user), parseInput(ZCfbActivityRequest, { cfb_id: fresh }));
    expect(activity.stats).toMatchObject({ usage_30d: 0, used_by_model_30d: 0, hotness: 0, last_feedback_ts: null });
    expect(activity.usage_by_day.every((d) => d.injected + d.used + d.ignored === 0)).toBe(true);
    expect(activity.proposals).toEqual([]);
    await opened.db.cfbStats.delete({ where: { cfbId: fresh } });
    expect(
      (await getCfbActivity(opened.as(user), parseInput(ZCfbActivityRequest, { cfb_id: fresh }))).stats,
    ).toBeNull();
  });
});

describe("proposals that touched the CFB", () => {
  let pending: string;
  let rejected: string;
  let updated: string;
  let created: string;
  let createdCfb: string;
  let others: string;

  beforeAll(async () => {
    const update = (delta: string): TTestSuggestion => ({
      op: "update",
      target_cfb_id: retention,
      title: "Kafka retention",
      delta_summary: delta,
      tags: ["kafka"],
      entities: ["Kafka"],
    });
    pending = await propose(user, update("Kafka topics keep messages for ten days."));
    rejected = await propose(user, update("Kafka topics keep messages forever."));
    await promoteProposal(opened.as(user), { proposal_id: rejected, action: "reject" });
    updated = await propose(user, update("Kafka topics keep messages for fourteen days."));
    await promoteProposal(opened.as(user), { proposal_id: updated, action: "approve_update" });
    created = await propose(user, {
      op: "create",
      title: "Release train",
      delta_summary: "Releases leave every second Tuesday.",
      tags: ["releases"],
      entities: ["Release train"],
    });
    const res = await promoteProposal(opened.as(user), { proposal_id: created, action: "approve_create" });
    createdCfb = res.final_cfb_id as string;
    others = await propose(other, update("Kafka topics keep messages for a month."));
  });

  it("lists those that targeted it and the one promoted into it, newest first, with relation and action", async () => {
    const { proposals } = await getCfbActivity(opened.as(user), parseInput(ZCfbActivityRequest, { cfb_id: retention }));
    expect(proposals).toEqual([
      expect.objectContaining({
        proposal_id: updated,
        op: "update",
        status: "approved",
        relation: "promoted_into",
        action: "approve_update",
      }),
      expect.objectContaining({ proposal_id: rejected, status: "rejected", relation: "target", action: "reject" }),
      expect.objectContaining({
        proposal_id: pending,
        title: "Kafka retention",
        status: "pending",
        relation: "target",
        action: null,
      }),
    ]);
    const times = proposals.map((p) => Date.parse(p.created_ts));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it("shows a proposal approved as new on the CFB it created, though it named no target", async () => {
    const { proposals } = await getCfbActivity(
      opened.as(user),
      parseInput(ZCfbActivityRequest, { cfb_id: createdCfb }),
    );
    expect(proposals).toEqual([
      expect.objectContaining({
        proposal_id: created,
        op: "create",
        status: "approved",
        relation: "promoted_into",
        action: "approve_create",
      }),
    ]);
  });

  it("shows a user the proposals of their own threads only, and a Jam editor every one", async () => {
    const ids = async (who: TTestActor) =>
      (await getCfbActivity(opened.as(who), parseInput(ZCfbActivityRequest, { cfb_id: retention }))).proposals.map(
        (p) => p.proposal_id,
      );
    expect(await ids(user)).not.toContain(others);
    expect(await ids(other)).toEqual([others]);
    expect(await ids(jam)).toEqual([others, updated, rejected, pending]);
  });

  it("lists at most 50", async () => {
    const { cloneProposals } = await import("@solserver/db/testing");
    await cloneProposals(opened.db, 120);
    const { proposals } = await getCfbActivity(opened.as(jam), parseInput(ZCfbActivityRequest, { cfb_id: retention }));
    expect(proposals).toHaveLength(50);
    const times = proposals.map((p) => Date.parse(p.created_ts));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });
});

describe("refusals", () => {
  it("is NOT_FOUND for a CFB that does not exist", async () => {
    const error = await rejection(() =>
      getCfbActivity(opened.as(user), parseInput(ZCfbActivityRequest, { cfb_id: "CFB-999999" })),
    );
    expect(error).toMatchObject({ code: "NOT_FOUND", field: "cfb_id" });
  });

  it("is BAD_INPUT for a window outside 1..90 days or a malformed id", async () => {
    for (const days of [0, 91, 1.5]) {
      const error = await rejection(() =>
        getCfbActivity(opened.as(user), parseInput(ZCfbActivityRequest, { cfb_id: retention, days })),
      );
      expect(error).toMatchObject({ code: "BAD_INPUT", field: "days" });
    }
    const error = await rejection(() =>
      getCfbActivity(opened.as(user), parseInput(ZCfbActivityRequest, { cfb_id: "retention" })),
    );
    expect(error).toMatchObject({ code: "BAD_INPUT", field: "cfb_id" });
  });

  it("is UNAUTHENTICATED for an anonymous caller", async () => {
    const error = await rejection(() =>
      getCfbActivity(opened.as({ kind: "anonymous" }), parseInput(ZCfbActivityRequest, { cfb_id: retention })),
    );
    expect(error.code).toBe("UNAUTHENTICATED");
  });
});
