// The turn pipeline of seed 000 end to end on a real SQLite file: baseline memento, breakpoint
// decision, peak guardrail, summary freeze, affect on user messages, closure signals in the
// prompt, attempts as DeliveryAttempts, and the memento's version (ETag) on writes.
import type { TThreadMemento } from "@solserver/contracts";
import { isDomainError } from "@solserver/contracts";
import { MAX_AFFECT_POINTS } from "@solserver/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getMemento, getThread, putMemento, respondToTurn } from "../src/index";
import { createOfflineModel } from "../src/model/offline-model";
import type { TModelInput, TModelProvider } from "../src/model/provider";
import { openTestControlPlane, type TTestActor } from "../src/testing";

const offline = createOfflineModel();
const seen: TModelInput[] = [];
/** The offline answer, but proposing the arc "model arc <n>" and recording what it was given. */
const model: TModelProvider = {
  name: "arc-proposer",
  async generate(input) {
    seen.push(input);
    const out = await offline.generate(input);
    return {
      ...out,
      summary: input.summary ? { ...input.summary, arc: `model arc ${seen.length}` } : null,
      attempts: [
        {
          n: 1,
          model: "arc-proposer",
          tokensIn: 3,
          tokensOut: null,
          latencyMs: 5,
          outcome: "invalid_envelope",
          reason: "not JSON",
        },
        { n: 2, model: "arc-proposer", tokensIn: 3, tokensOut: 4, latencyMs: 6, outcome: "ok", reason: null },
      ],
    };
  },
};

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let owner: TTestActor;
let n = 0;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "pipeline", model, limits: { chatTurnsPerMinute: 1000 } });
  owner = await opened.account("user");
});
afterAll(async () => opened?.close());

/** A client memento at peak intensity with the given signal kinds and arc. */
function peakMemento(kinds: string[], arc = "previous arc"): TThreadMemento {
  return {
    schemaVersion: "0.2",
    shape: { arc, active: ["a"], parked: [], decisions: [], next: [] },
    affect: { points: [], rollup: { phase: "peak", intensityBucket: "high" } },
    signals: {
      updatedAt: "2026-11-22T00:00:00.000Z",
      items: kinds.map((kind, i) => ({
        endMessageId: `m${i}`,
        kind: kind as TThreadMemento["signals"]["items"][number]["kind"],
        confidence: "high" as const,
        source: "server" as const,
        summary: `signal ${kind}`,
      })),
    },
  };
}

async function turn(message: string, memento?: TThreadMemento, threadId?: string) {
  n++;
  return respondToTurn(opened.as(owner), {
    request_id: `pipe-${n}`,
    message,
    ...(threadId ? { thread_id: threadId } : {}),
    ...(memento ? { context: { thread_memento: memento } } : {}),
  });
}

async function storedArc(threadId: string): Promise<string> {
  return (await getMemento(opened.as(owner), { thread_id: threadId })).memento.shape.arc;
}

describe("the seed's integration test: peak guardrail with memento updates", () => {
  it("peak + skip keeps the previous arc; peak + must takes the model's arc; traces record the breakpoint", async () => {
    const skipped = await turn("ok thanks", peakMemento(["ack_only"]));
    expect(skipped.breakpoint).toEqual({ decision: "skip", peak_guardrail_active: true, signal_kinds: ["ack_only"] });
    expect(await storedArc(skipped.thread_id)).toBe("previous arc");

    const must = await turn("We decided to ship on Friday.", peakMemento(["decision_made"]), skipped.thread_id);
    expect(must.breakpoint).toMatchObject({ decision: "must", peak_guardrail_active: false });
    expect(await storedArc(must.thread_id)).toMatch(/^model arc \d+$/);

    for (const [t, decision] of [
      [skipped, "SKIP"],
      [must, "MUST"],
    ] as const) {
      const events = await opened.repos.traces.forTransmission(t.transmission_id);
      const breakpoint = events.find((e) => e.phase === "breakpoint");
      expect(breakpoint?.summary).toBe(`Breakpoint decision: ${decision}`);
      expect(breakpoint?.metadata).toMatchObject({ kind: "breakpoint_engine", source: "request" });
    }
  });

  it("signals count for the turn that sent them, not for later turns that send none", async () => {
    const first = await turn("We decided to ship on Monday.", peakMemento(["decision_made"]));
    expect(first.breakpoint.decision).toBe("must");
    const later = await turn("Tell me about the release.", undefined, first.thread_id);
    expect(later.breakpoint).toMatchObject({ decision: "should", signal_kinds: [] });
  });

  it("peak + should freezes the summary too", async () => {
    const should = await turn("Tell me more about deploys.", peakMemento(["open_loop_created"]));
    expect(should.breakpoint).toMatchObject({ decision: "should", peak_guardrail_active: true });
    expect(await storedArc(should.thread_id)).toBe("previous arc");
  });
});

describe("skip turns do no expensive work", () => {
  it("no CFB retrieval, no summary offered to the model, no proposals", async () => {
    await opened.repos.cfbs.create({
      domain: "ops",
      kind: "heuristic",
      confidence: 0.7,
      title: "Thanks policy",
      summary: "Thanks are acknowledged.",
      text: null,
      tags: ["thanks"],
      entities: [],
      trust_tier: "repo_adr",
      source_refs: [],
    });
    const before = seen.length;
    const skipped = await turn("thanks!");
    expect(skipped.breakpoint.decision).toBe("skip");
    const input = seen[before];
    expect(input?.cfbs).toEqual([]);
    expect(input?.summary).toBeNull();
    expect(skipped.ui_hints.proposal_previews).toEqual([]);
    const events = await opened.repos.traces.forTransmission(skipped.transmission_id);
    expect(events.find((e) => e.phase === "retrieval")?.status).toBe("skipped");
  });
});

describe("closure signals reach the model; affect is read from user messages only", () => {
  it("passes decision_made / open_loop_resolved (not other kinds) to the model", async () => {
    const before = seen.length;
    await turn("What next?", peakMemento(["decision_made", "open_loop_resolved", "risk_or_conflict"]));
    expect(seen[before]?.closureSignals?.map((s) => s.kind)).toEqual(["decision_made", "open_loop_resolved"]);
  });

  it("one affect point per turn, keyed to the user's message, none for the assistant's", async () => {
    const first = await turn("THIS IS URGENT AND BROKEN!!!");
    const second = await turn("calm follow-up question?", undefined, first.thread_id);
    const { memento } = await getMemento(opened.as(owner), { thread_id: second.thread_id });
    expect(memento.affect.points).toHaveLength(2);
    const thread = await getThread(opened.as(owner), { thread_id: first.thread_id });
    const userIds = thread.messages.filter((m) => m.role === "user").map((m) => m.id);
    const assistantIds = thread.messages.filter((m) => m.role === "assistant").map((m) => m.id);
    expect(memento.affect.points.map((p) => p.messageId)).toEqual(userIds);
    for (const p of memento.affect.points) expect(assistantIds).not.toContain(p.messageId);
    expect(memento.affect.points[0]?.intensity).toBeGreaterThan(memento.affect.points[1]?.intensity ?? 1);
  });
});

describe("model attempts", () => {
  it("every attempt is a DeliveryAttempt n = 1..N; the response belongs to the last", async () => {
    const t = await turn("Remember that backups run nightly.");
    const attempts = await opened.db.deliveryAttempt.findMany({
      where: { transmissionId: t.transmission_id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    // The selector step (seed 001 §7.1) comes first, then every try at the main model.
    expect(attempts.map((a) => [a.step, a.n, a.outcome, a.reason])).toEqual([
      ["selector", 1, "ok", null],
      ["main", 1, "invalid_envelope", "not JSON"],
      ["main", 2, "ok", null],
    ]);
    expect(attempts[0]?.model).toBe("router-v2");
    expect(t.attempt_id).toBe(attempts[2]?.id);
  });
});

describe("concurrent turns on one thread", () => {
  it("all land: each re-applies its changes to the memento as it is when it stores", async () => {
    const first = await turn("We decided to start the concurrency thread.");
    const before = await getMemento(opened.as(owner), { thread_id: first.thread_id });
    // Sixteen at once (on PostgreSQL they truly overlap): each that finds the memento moved is
    // written again on the locked row, so none is refused (issue 38: 82 of 320 were CONFLICT).
    const messages = Array.from({ length: 16 }, (_, i) => `Follow-up number ${i + 1}?`);
    const results = await Promise.allSettled(messages.map((m) => turn(m, undefined, first.thread_id)));
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    const after = await getMemento(opened.as(owner), { thread_id: first.thread_id });
    expect(after.version).toBe(before.version + 16);
    expect(after.memento.affect.points).toHaveLength(
      Math.min(before.memento.affect.points.length + 16, MAX_AFFECT_POINTS),
    );
  });
});

describe("memento versions (ETag)", () => {
  it("reads return the version; a write with a stale version is CONFLICT and changes nothing", async () => {
    const t = await turn("We decided to version mementos.");
    const current = await getMemento(opened.as(owner), { thread_id: t.thread_id });
    expect(current.version).toBe(t.thread_memento_version);
    const edited = { ...current.memento, shape: { ...current.memento.shape, arc: "edited by client" } };
    const written = await putMemento(opened.as(owner), {
      thread_id: t.thread_id,
      version: current.version,
      memento: edited,
    });
    expect(written.version).toBe(current.version + 1);
    const stale = await putMemento(opened.as(owner), {
      thread_id: t.thread_id,
      version: current.version,
      memento: { ...edited, shape: { ...edited.shape, arc: "lost" } },
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isDomainError(stale) && stale.code).toBe("CONFLICT");
    expect(await storedArc(t.thread_id)).toBe("edited by client");
    // A turn builds on the current version.
    const next = await turn("And the next step?", undefined, t.thread_id);
    expect(next.thread_memento_version).toBe(written.version + 1);
  });
});
