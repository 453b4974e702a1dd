// The selector step (seed 001 §7.1) and claim-map enforcement (seed 001 §4) in the turn pipeline,
// on a real SQLite file with the shipped routing config (solserver, ops, strict rv_service):
//  - every turn stores a selector DeliveryAttempt (step "selector", n 1, router-v2) and its
//    Transmission carries the route's routerDomain and modeLabel; threads stick to their domain;
//    procedure threads route to rv_service;
//  - retrieval is scoped (rv_service: its own and general CFBs only) or boosted (other domains);
//  - answers whose domainHints keep naming another domain raise a domain_mismatch trigger; in the
//    strict rv_service they never move the thread, and every such answer is counted;
//  - in strict rv_service every claim-map finding refuses the attempt (the next one is tried, or
//    the turn fails UPSTREAM); elsewhere findings are warnings stored with the answer, shown by
//    threads.get and traced;
//  - SOLSERVER_ROUTING_CONFIG loads a YAML routing file (examples in other languages too) and names
//    what is wrong with a bad one.
// The model is a test provider that answers what each test scripts, attempt by attempt, and hands
// every attempt to the pipeline's judge as a real provider does.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TCfbDraft, TClaimMapEntry } from "@solserver/contracts";
import { ZTriggerListRequest } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { loadServerEnv } from "../src/env";
import { getThread, listTriggers, parseInput, respondToTurn } from "../src/index";
import type { TModelInput } from "../src/model/provider";
import { DOMAIN_BOOST } from "../src/retrieval-ranking";
import { DEFAULT_ROUTING } from "../src/routing/routing-config";
import {
  openTestControlPlane,
  scriptedProvider,
  type TScriptedMeta,
  type TTestActor,
  testCfb,
  turnFailure,
} from "../src/testing";

const claim = (id: string, support: TClaimMapEntry["support"], text = `Claim ${id}.`): TClaimMapEntry => ({
  claim_id: id,
  span: { sentence: 0 },
  text,
  support,
});

const cfbDraft = (domain: string, title: string, summary: string, tags: string[] = []): TCfbDraft =>
  testCfb({ domain, title, summary, tags, trust_tier: "repo_adr", source_refs: ["file:routing-test.md"] });

// ---- the control plane under test --------------------------------------------------------------

const provider = scriptedProvider("scripted-claims");
let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let seq = 0;

beforeAll(async () => {
  opened = await openTestControlPlane({
    label: "routing-claims",
    model: provider.model,
    limits: { chatTurnsPerMinute: 10_000 },
  });
  user = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

const turn = (message: string, extra: { thread_id?: string; procedure?: string } = {}) =>
  respondToTurn(opened.as(user), { request_id: `rc-${++seq}`, message, ...extra });

/** The DomainError a turn fails with (fails the test when the turn succeeds). */
const turnError = (message: string) => turnFailure(turn(message));

const attemptsOf = async (transmissionId: string) =>
  (
    await opened.db.deliveryAttempt.findMany({
      where: { transmissionId },
      orderBy: [{ step: "desc" }, { n: "asc" }],
    })
  ).map(({ step, n, model, outcome, reason, tokensIn }) => ({ step, n, model, outcome, reason, tokensIn }));

const mainAttempts = async (transmissionId: string) =>
  (await attemptsOf(transmissionId)).filter((a) => a.step === "main");

const traceOf = async (transmissionId: string, phase: string) =>
  (await opened.repos.traces.forTransmission(transmissionId)).filter((e) => e.phase === phase);

/** The metadata of a trace event that must be there. */
function metadataOf<T>(event: { metadata: unknown } | undefined): T {
  if (event === undefined) throw new Error("expected a trace event");
  return event.metadata as T;
}

/** The selector's routing of a stored turn: its Transmission's columns and its selector trace. */
async function routed(transmissionId: string) {
  const t = await opened.db.transmission.findUniqueOrThrow({ where: { id: transmissionId } });
  const [event] = await traceOf(transmissionId, "selector");
  const meta = metadataOf<{ router_domain: string; reason: string }>(event);
  expect(meta.router_domain).toBe(t.routerDomain);
  return { domain: t.routerDomain, modeLabel: t.modeLabel, reason: meta.reason };
}

const claimCheckOf = async (responseId: string) =>
  (await opened.db.responseMeta.findUniqueOrThrow({ where: { responseId } })).claimCheck;

const RV_MESSAGE = "The water pump in my camper hums but no water comes out.";
const SOLSERVER_MESSAGE = "How does Umbra turn a proposal into a CFB?";

describe("selector step", () => {
  it.each([
    ["rv words", RV_MESSAGE, "rv_service", "Service desk"],
    ["solserver words", SOLSERVER_MESSAGE, "solserver", "System"],
    ["ops words", "Who is on the pager during the outage?", "ops", "Operations"],
    ["no routing words", "What should we order for lunch on Friday?", "general", "System"],
  ])(
    "%s: a selector attempt before the main one, and the route on the Transmission",
    async (_n, message, domain, label) => {
      provider.answer({});
      const res = await turn(message);
      expect(await attemptsOf(res.transmission_id)).toEqual([
        { step: "selector", n: 1, model: "router-v2", outcome: "ok", reason: null, tokensIn: null },
        { step: "main", n: 1, model: "scripted-claims", outcome: "ok", reason: null, tokensIn: 10 },
      ]);
      expect(await routed(res.transmission_id)).toEqual({ domain, modeLabel: label, reason: "classifier" });
      // The response's attempt is the main one, never the selector's.
      const delivered = await opened.db.deliveryAttempt.findUniqueOrThrow({ where: { id: res.attempt_id } });
      expect(delivered.step).toBe("main");
    },
  );

  it("sticks to the thread's domain on a follow-up about nothing in particular; a clear request moves it", async () => {
    provider.answer({});
    const first = await turn("How do we roll back a bad deploy?");
    const second = await turn("And what about tomorrow?", { thread_id: first.thread_id });
    const third = await turn("thanks!", { thread_id: first.thread_id });
    const fourth = await turn(SOLSERVER_MESSAGE, { thread_id: first.thread_id });
    expect(await routed(first.transmission_id)).toMatchObject({ domain: "ops", reason: "classifier" });
    expect(await routed(second.transmission_id)).toMatchObject({ domain: "ops", reason: "previous" });
    expect(await routed(third.transmission_id)).toMatchObject({ domain: "ops", reason: "previous" });
    expect(await routed(fourth.transmission_id)).toMatchObject({ domain: "solserver", reason: "classifier" });
    const [event] = await traceOf(second.transmission_id, "selector");
    expect(event?.summary).toMatch(
      /^Unrouted \(confidence 0\.\d\d; best \w+, \w+ 0\.\d\d next\): the thread's domain, ops$/,
    );

    const thread = await getThread(opened.as(user), { thread_id: first.thread_id });
    expect(thread.turns.map((t) => [t.router_domain, t.mode_label])).toEqual([
      ["ops", "Operations"],
      ["ops", "Operations"],
      ["ops", "Operations"],
      ["solserver", "System"],
    ]);
  });

  it("routes a procedure thread to rv_service whatever its words, on every turn", async () => {
    provider.answer({});
    // An ops message: a release broke production.
    const message = "Prod went down after the release deploy, check monitoring";
    const bound = await turn(message, { procedure: "water_pump" });
    expect(bound.procedure?.system_id).toBe("water_pump");
    expect(await routed(bound.transmission_id)).toEqual({
      domain: "rv_service",
      modeLabel: "Service desk",
      reason: "procedure",
    });
    const next = await turn("Kubernetes rollback after the outage", { thread_id: bound.thread_id });
    expect(await routed(next.transmission_id)).toMatchObject({ domain: "rv_service", reason: "procedure" });
    // Without the procedure the same words go to ops.
    const plain = await turn(message);
    expect(await routed(plain.transmission_id)).toMatchObject({ domain: "ops", reason: "classifier" });
  });
});

describe("proposals are filed by their own topic", () => {
  it("a trailer sentence and a deploy rule in one ops message land in rv_service and ops", async () => {
    const suggestion = (title: string, summary: string) => ({
      op: "create" as const,
      title,
      delta_summary: summary,
      summary,
      tags: [],
      entities: [],
      confidence: 0.8,
    });
    provider.answer({
      cfb_suggestions: [
        suggestion(
          "Travel trailer breaker check",
          "On 2019 travel trailers check the 15 A breaker before the water pump.",
        ),
        suggestion(
          "Friday deploy freeze",
          "No production deploys after 15:00 on Fridays; roll back instead of hotfixing.",
        ),
        suggestion("Noted", "Thanks, noted."),
      ],
    });
    const res = await turn(
      "We decided two things in the ops standup: the deploy freeze and the trailer breaker check.",
    );
    expect((await routed(res.transmission_id)).domain).toBe("ops");
    const domains = await opened.db.umbraProposal.findMany({
      where: { responseId: res.response_id },
      orderBy: { suggestionIndex: "asc" },
      select: { domain: true },
    });
    // The one that says nothing of a domain stays in the turn's.
    expect(domains.map((d) => d.domain)).toEqual(["rv_service", "ops", "ops"]);
  });
});

describe("retrieval by route", () => {
  it("scope domain: an rv_service turn gets only rv_service and general CFBs; a boost route gets all", async () => {
    const rv = await opened.repos.cfbs.create(
      cfbDraft("rv_service", "Propane regulator check", "Check the propane regulator lockup pressure.", ["propane"]),
    );
    const ops = await opened.repos.cfbs.create(
      cfbDraft("ops", "Propane regulator stock", "Spare propane regulator units sit in the warehouse.", ["propane"]),
    );
    const general = await opened.repos.cfbs.create(
      cfbDraft("general", "Propane regulator safety", "Any propane regulator work ends with a leak test.", ["propane"]),
    );
    const all = [rv.cfb_id, ops.cfb_id, general.cfb_id];
    provider.answer({});

    const scoped = await turn("How do I check the propane regulator on the camper?");
    expect(await routed(scoped.transmission_id)).toMatchObject({ domain: "rv_service" });
    expect(provider.lastInjected().filter((id) => all.includes(id))).toEqual(
      expect.arrayContaining([rv.cfb_id, general.cfb_id]),
    );
    expect(provider.lastInjected()).not.toContain(ops.cfb_id);
    const [retrieval] = await traceOf(scoped.transmission_id, "retrieval");
    expect(retrieval?.metadata).toMatchObject({ router_domain: "rv_service", scope: "domain" });

    const boosted = await turn("How do I check the propane regulator before the deploy and release?");
    expect(await routed(boosted.transmission_id)).toMatchObject({ domain: "ops" });
    expect(provider.lastInjected()).toEqual(expect.arrayContaining(all));
  });

  it("scope boost: the routed domain's CFB ranks first among equally relevant ones, by DOMAIN_BOOST", async () => {
    // Same words in both: without the boost the tie goes to the lower id (the ops one).
    const draft = (domain: string) =>
      cfbDraft(domain, "Heartbeat cadence", "The heartbeat cadence is five minutes.", ["heartbeat"]);
    const ops = await opened.repos.cfbs.create(draft("ops"));
    const sol = await opened.repos.cfbs.create(draft("solserver"));
    provider.answer({});
    const scoreOf = async (transmissionId: string) => {
      const [event] = await traceOf(transmissionId, "retrieval");
      const { cfbs } = metadataOf<{ cfbs: { cfb_id: string; score: number }[] }>(event);
      return cfbs.filter((c) => c.cfb_id === ops.cfb_id || c.cfb_id === sol.cfb_id);
    };

    const toSolserver = await turn("What is the umbra heartbeat cadence?");
    expect(await routed(toSolserver.transmission_id)).toMatchObject({ domain: "solserver" });
    const [top, second] = await scoreOf(toSolserver.transmission_id);
    expect([top?.cfb_id, second?.cfb_id]).toEqual([sol.cfb_id, ops.cfb_id]);
    expect(top?.score).toBeCloseTo((second?.score ?? 0) * DOMAIN_BOOST, 2);

    const toOps = await turn("What is the deploy heartbeat cadence?");
    expect(await routed(toOps.transmission_id)).toMatchObject({ domain: "ops" });
    expect((await scoreOf(toOps.transmission_id)).map((c) => c.cfb_id)).toEqual([ops.cfb_id, sol.cfb_id]);
  });
});

describe("domain mismatch", () => {
  const counter = (routerDomain: string, key: string) =>
    opened.db.repetitionCounter.findUnique({
      where: { kind_routerDomain_key: { kind: "domain_mismatch", routerDomain, key } },
    });
  const mismatchTriggers = async () =>
    (await listTriggers(opened.as(jam), parseInput(ZTriggerListRequest, { limit: 100 }))).items.filter(
      (t) => t.kind === "domain_mismatch",
    );

  it("three answers hinting ops on solserver turns raise a trigger suggesting a routing rule", async () => {
    provider.answer({ domainHints: ["ops"] });
    const messages = [
      "How does Umbra resolve proposals?",
      "Where does the memento live in SolServer?",
      "What does the breakpoint engine decide?",
    ];
    const first = await turn(messages[0] as string);
    await turn(messages[1] as string);
    expect(await counter("solserver", "ops")).toMatchObject({ count: 2, triggeredAt: null });
    expect(await mismatchTriggers()).toEqual([]);
    const [event] = (await traceOf(first.transmission_id, "selector")).filter((e) =>
      e.summary.startsWith("Domain mismatch"),
    );
    expect(event?.metadata).toEqual({ router_domain: "solserver", hinted: "ops" });

    await turn(messages[2] as string);
    const [trigger] = await mismatchTriggers();
    expect(trigger).toMatchObject({ router_domain: "solserver", key: "ops", count: 3, threshold: 3 });
    expect(trigger?.label).toContain('routed to "solserver", answered as "ops"');
    expect(trigger?.suggestion).toContain("teach the router");
    await expect(listTriggers(opened.as(user), parseInput(ZTriggerListRequest, { limit: 10 }))).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("counts per routed domain and hinted set; hints naming the route or only general are no mismatch", async () => {
    provider.answer({ domainHints: ["ops"] });
    await turn(RV_MESSAGE);
    expect(await counter("rv_service", "ops")).toMatchObject({ count: 1, triggeredAt: null });

    provider.answer({ domainHints: ["rv_service", "ops", "ops"] });
    await turn(SOLSERVER_MESSAGE);
    expect(await counter("solserver", "ops+rv_service")).toMatchObject({ count: 1 });

    const before = await opened.db.repetitionCounter.count({ where: { kind: "domain_mismatch" } });
    provider.answer({ domainHints: ["solserver", "ops"] });
    await turn(SOLSERVER_MESSAGE);
    provider.answer({ domainHints: ["general"] });
    await turn(SOLSERVER_MESSAGE);
    expect(await opened.db.repetitionCounter.count({ where: { kind: "domain_mismatch" } })).toBe(before);
    expect(await counter("solserver", "ops")).toMatchObject({ count: 3 });
  });
});

describe("the model cannot steer a thread out of a strict domain", () => {
  // A control plane of its own: the domain_mismatch counters start at zero.
  let cp: Awaited<ReturnType<typeof openTestControlPlane>>;
  let owner: TTestActor;
  let editor: TTestActor;
  let n = 0;
  beforeAll(async () => {
    cp = await openTestControlPlane({
      label: "routing-steer",
      model: provider.model,
      limits: { chatTurnsPerMinute: 1000 },
    });
    owner = await cp.account("user");
    editor = await cp.account("jam");
  });
  afterAll(async () => cp?.close());

  const ask = (message: string, thread_id?: string) =>
    respondToTurn(cp.as(owner), { request_id: `steer-${++n}`, message, ...(thread_id ? { thread_id } : {}) });
  const selectorOf = async (transmissionId: string) => {
    const events = (await cp.repos.traces.forTransmission(transmissionId)).filter((e) => e.phase === "selector");
    const t = await cp.db.transmission.findUniqueOrThrow({ where: { id: transmissionId } });
    return {
      domain: t.routerDomain,
      route: metadataOf<{ reason: string; hints_overruled: string | null }>(events[0]),
      summaries: events.map((e) => e.summary),
    };
  };
  const mismatchCount = async () =>
    (
      await cp.db.repetitionCounter.findUnique({
        where: { kind_routerDomain_key: { kind: "domain_mismatch", routerDomain: "rv_service", key: "ops" } },
      })
    )?.count ?? 0;
  const triggers = async () =>
    (await listTriggers(cp.as(editor), parseInput(ZTriggerListRequest, { limit: 100 }))).items.filter(
      (t) => t.kind === "domain_mismatch",
    );

  it("an rv_service thread stays there while every answer names ops; each answer is counted until the trigger", async () => {
    // Every answer claims to be about ops, and is otherwise a valid strict answer (one sentence,
    // covered by a claim on a declared unknown).
    provider.answer({
      text: "I cannot tell from what I have.",
      domainHints: ["ops"],
      unknowns: [{ id: "U1", text: "Which pump model it is." }],
      claim_map: [claim("c1", { unknown_id: "U1" }, "I cannot tell from what I have.")],
    });
    const first = await ask(RV_MESSAGE);
    expect(await selectorOf(first.transmission_id)).toMatchObject({
      domain: "rv_service",
      route: { reason: "classifier", hints_overruled: null },
    });
    expect(await mismatchCount()).toBe(1);
    expect(await triggers()).toEqual([]);

    // Bare follow-ups, about nothing in particular: unrouted, so the hints would decide, but a
    // strict previous domain holds against them.
    const followUps = ["And then?", "Still nothing. What next?", "did that, same thing"];
    for (const [i, message] of followUps.entries()) {
      const res = await ask(message, first.thread_id);
      const selector = await selectorOf(res.transmission_id);
      expect(selector).toMatchObject({ domain: "rv_service", route: { reason: "previous", hints_overruled: "ops" } });
      expect(selector.summaries[0]).toMatch(
        /^Unrouted \(confidence .*\): the thread's domain, rv_service, strict; domainHints for ops not followed$/,
      );
      expect(selector.summaries).toContain(
        `Domain mismatch: routed to "rv_service", answered as "ops" (first: "${message}")`,
      );
      // One more repetition per turn that disagrees.
      expect(await mismatchCount()).toBe(i + 2);
      const raised = await triggers();
      if (i + 2 < 3) expect(raised).toEqual([]);
      else
        expect(raised).toEqual([
          expect.objectContaining({ router_domain: "rv_service", key: "ops", count: i + 2, threshold: 3 }),
        ]);
    }
    const [trigger] = await triggers();
    expect(trigger?.label).toContain('routed to "rv_service", answered as "ops"');
    expect(trigger?.suggestion).toContain("teach the router");

    // Every turn of the thread ran under the strict domain's rules.
    const thread = await getThread(cp.as(owner), { thread_id: first.thread_id });
    expect(thread.turns.map((t) => [t.router_domain, t.mode_label])).toEqual(
      Array.from({ length: 4 }, () => ["rv_service", "Service desk"]),
    );
  });

  it("the person's own words still move the thread", async () => {
    provider.answer({ domainHints: ["ops"] });
    const rv = await ask(RV_MESSAGE);
    const moved = await ask("Who is on the pager during the outage?", rv.thread_id);
    expect(await selectorOf(moved.transmission_id)).toMatchObject({
      domain: "ops",
      route: { reason: "classifier", hints_overruled: null },
    });
  });
});

describe("claim-map enforcement", () => {
  let injectable: string;
  let notInjected: string;
  const GOOD = {
    text: "I cannot tell from what I have.",
    unknowns: [{ id: "U1", text: "Which pump model it is." }],
    claim_map: [claim("c1", { unknown_id: "U1" })],
  };
  /** Every finding but a missing map, in claim order. */
  const allBad = (): TScriptedMeta => ({
    text: "A confident but unsupported answer.",
    claim_map: [
      claim("c1", {}, "The pump was replaced last spring."),
      claim("c2", { cfb_ids: ["CFB-9999"] }),
      claim("c3", { cfb_ids: [notInjected] }),
      claim("c4", { unknown_id: "U9" }),
    ],
  });

  beforeAll(async () => {
    // Matches the rv message below, so it is injected there.
    injectable = (
      await opened.repos.cfbs.create(
        cfbDraft("rv_service", "Furnace sail switch", "A furnace sail switch stays open when the blower is weak."),
      )
    ).cfb_id;
    // Exists, but shares no words with the messages below: never injected.
    notInjected = (
      await opened.repos.cfbs.create(cfbDraft("ops", "Quarterly invoices", "Invoices are sent in January."))
    ).cfb_id;
  });

  describe("in the strict rv_service domain", () => {
    it.each([
      ["CLAIM_MAP_MISSING", (): TScriptedMeta => ({ claim_map: undefined })],
      ["CLAIM_UNSUPPORTED", (): TScriptedMeta => ({ claim_map: [claim("c1", {})] })],
      ["CLAIM_CFB_UNKNOWN", (): TScriptedMeta => ({ claim_map: [claim("c1", { cfb_ids: ["CFB-9999"] })] })],
      ["CLAIM_CFB_NOT_INJECTED", (): TScriptedMeta => ({ claim_map: [claim("c1", { cfb_ids: [notInjected] })] })],
      ["CLAIM_UNKNOWN_UNDEFINED", (): TScriptedMeta => ({ claim_map: [claim("c1", { unknown_id: "U9" })] })],
    ])("%s refuses attempt 1; the good attempt 2 is delivered", async (code, bad) => {
      provider.answer((_input, n) => (n === 1 ? { ...bad(), text: "Bad attempt." } : GOOD));
      const res = await turn(RV_MESSAGE);
      expect(res.assistant_text).toBe(GOOD.text);
      const attempts = await mainAttempts(res.transmission_id);
      expect(attempts.map((a) => [a.n, a.outcome])).toEqual([
        [1, "blocked"],
        [2, "ok"],
      ]);
      expect(attempts[0]?.reason).toMatch(new RegExp(`^claim map refused in strict domain rv_service: ${code}\\b`));
      expect(await claimCheckOf(res.response_id)).toEqual({ strict: true, domain: "rv_service", findings: [] });
      const claims = await traceOf(res.transmission_id, "claims");
      expect(claims.map((e) => [(e.metadata as { n: number }).n, e.status])).toEqual([
        [1, "failed"],
        [2, "completed"],
      ]);
      const { findings } = metadataOf<{ findings: { code: string }[] }>(claims[0]);
      expect(findings.map((f) => f.code)).toEqual([code]);
    });

    it("fails the turn UPSTREAM naming the findings when no attempt passes, storing no turn", async () => {
      provider.answer(allBad);
      const packets = await opened.db.packet.count();
      const error = await turnError(RV_MESSAGE);
      expect(error.code).toBe("UPSTREAM");
      expect(error.message).toContain("claim map refused in strict domain rv_service");
      expect(error.message).toContain("CLAIM_UNSUPPORTED (c1), CLAIM_CFB_UNKNOWN (c2), CLAIM_CFB_NOT_INJECTED (c3)");
      // Codes and claim ids only: the refused answer's own words never reach the person.
      expect(error.message).not.toContain("The pump was replaced last spring.");
      // Three findings are spelled out, the fourth counted.
      expect(error.message).toContain("(+1 more)");
      expect(error.message).not.toContain("CLAIM_UNKNOWN_UNDEFINED");

      provider.answer({ claim_map: undefined });
      expect((await turnError(RV_MESSAGE)).message).toContain("CLAIM_MAP_MISSING");
      expect(await opened.db.packet.count()).toBe(packets);
    });

    it("passes a claim citing an injected CFB and a claim on a declared unknown", async () => {
      const map = (input: TModelInput) => [
        claim("c1", { cfb_ids: [input.cfbs[0]?.cfb_id ?? "none"] }, "A weak blower leaves the sail switch open."),
        claim("c2", { unknown_id: "U1" }, "The blower's age is unknown."),
      ];
      provider.answer((input) => ({
        text: "The sail switch stays open when the blower is weak.",
        unknowns: [{ id: "U1", text: "How old the blower is." }],
        claim_map: map(input),
      }));
      const res = await turn("Why does the furnace sail switch stay open?");
      expect(provider.lastInjected()[0]).toBe(injectable);
      expect((await mainAttempts(res.transmission_id)).map((a) => [a.n, a.outcome])).toEqual([[1, "ok"]]);
      const detail = await getThread(opened.as(user), { thread_id: res.thread_id });
      const answer = detail.turns[0]?.answer;
      expect(answer?.claim_check).toEqual({ strict: true, domain: "rv_service", findings: [] });
      expect(answer?.claim_map?.map((c) => c.support)).toEqual([{ cfb_ids: [injectable] }, { unknown_id: "U1" }]);
      expect((await traceOf(res.transmission_id, "claims")).map((e) => e.summary)).toEqual([
        "Claim map of attempt 1: supported",
      ]);
    });
  });

  describe("in a non-strict domain (solserver)", () => {
    it("delivers the first attempt and keeps every finding as a warning, shown by threads.get and traced", async () => {
      provider.answer(allBad);
      const res = await turn(SOLSERVER_MESSAGE);
      expect(res.assistant_text).toBe("A confident but unsupported answer.");
      expect((await mainAttempts(res.transmission_id)).map((a) => [a.n, a.outcome])).toEqual([[1, "ok"]]);
      const expected = {
        strict: false,
        domain: "solserver",
        findings: [
          {
            code: "CLAIM_UNSUPPORTED",
            claim_id: "c1",
            detail: '"The pump was replaced last spring." cites no CFB and no unknown',
          },
          { code: "CLAIM_CFB_UNKNOWN", claim_id: "c2", detail: "cites CFB-9999, which does not exist" },
          {
            code: "CLAIM_CFB_NOT_INJECTED",
            claim_id: "c3",
            detail: `cites ${notInjected}, which was not given to the model`,
          },
          {
            code: "CLAIM_UNKNOWN_UNDEFINED",
            claim_id: "c4",
            detail: "points at unknown U9, which the answer does not define",
          },
        ],
      };
      expect(await claimCheckOf(res.response_id)).toEqual(expected);
      const answer = (await getThread(opened.as(user), { thread_id: res.thread_id })).turns[0]?.answer;
      expect(answer?.claim_check).toEqual(expected);
      expect(answer?.claim_map?.map((c) => c.claim_id)).toEqual(["c1", "c2", "c3", "c4"]);
      const [event] = await traceOf(res.transmission_id, "claims");
      expect(event).toMatchObject({ status: "completed", summary: "Claim map of attempt 1: 4 warning(s)" });
      expect(event?.metadata).toMatchObject({ n: 1, strict: false, domain: "solserver" });
    });

    it("delivers an answer without a claim map with a CLAIM_MAP_MISSING warning", async () => {
      provider.answer({ claim_map: undefined, text: "No map here." });
      const res = await turn(SOLSERVER_MESSAGE);
      expect(res.assistant_text).toBe("No map here.");
      const answer = (await getThread(opened.as(user), { thread_id: res.thread_id })).turns[0]?.answer;
      expect(answer?.claim_map).toBeNull();
      expect(answer?.claim_check).toEqual({
        strict: false,
        domain: "solserver",
        findings: [{ code: "CLAIM_MAP_MISSING", claim_id: null, detail: "the answer has no claim_map" }],
      });
    });
  });
});

describe("SOLSERVER_ROUTING_CONFIG", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "solserver-routing-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, content: unknown) => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof content === "string" ? content : stringify(content));
    return file;
  };
  const envWith = (file: string) =>
    loadServerEnv({ BETTER_AUTH_SECRET: "x".repeat(40), SOLSERVER_ROUTING_CONFIG: file });
  const GARDEN = {
    id: "garden",
    label: "Garden",
    mode_label: "Gardening",
    strict: true,
    scope: "domain",
    examples: ["when should I turn the compost", "my tomato plants wilt", "how deep do I plant bulbs"],
    keywords: ["tomato", "compost"],
    procedures: ["water_pump"],
  };
  const SHED = {
    id: "shed",
    label: "Shed",
    mode_label: "Tools",
    examples: ["the mower will not start", "der Rasenmäher springt nicht an", "la tondeuse ne démarre pas"],
  };

  it("defaults to the shipped domains", () => {
    expect(loadServerEnv({ BETTER_AUTH_SECRET: "x".repeat(40) }).routing).toBe(DEFAULT_ROUTING);
  });

  it("loads a YAML file, with defaults filled in, and the turn pipeline routes by it", async () => {
    const env = envWith(write("garden.yaml", { fallback_domain: "misc", domains: [GARDEN, SHED] }));
    expect(env.routing).toEqual({
      fallback_domain: "misc",
      min_confidence: 0.5,
      domains: [
        { ...GARDEN, tags: [], entities: [], always: [] },
        { ...SHED, strict: false, scope: "boost", keywords: [], tags: [], entities: [], always: [], procedures: [] },
      ],
    });
    const cp = await openTestControlPlane({ label: "routing-file", model: provider.model, routing: env.routing });
    try {
      const owner = await cp.account("user");
      provider.answer({});
      const ask = (request_id: string, message: string) => respondToTurn(cp.as(owner), { request_id, message });
      const routeOf = async (transmissionId: string) => {
        const t = await cp.db.transmission.findUniqueOrThrow({ where: { id: transmissionId } });
        return [t.routerDomain, t.modeLabel];
      };
      expect(await routeOf((await ask("f-1", "When should I turn the compost?")).transmission_id)).toEqual([
        "garden",
        "Gardening",
      ]);
      expect(await routeOf((await ask("f-2", "The mower wont start")).transmission_id)).toEqual(["shed", "Tools"]);
      // The shipped domains are gone: a message no example resembles is unrouted, to the fallback.
      expect(await routeOf((await ask("f-3", "Xyzzy plugh quux")).transmission_id)).toEqual(["misc", "System"]);
      // Examples in other languages are learned like the English ones.
      expect(await routeOf((await ask("f-4", "Der RASENMAHER springt nicht")).transmission_id)).toEqual([
        "shed",
        "Tools",
      ]);
    } finally {
      await cp.close();
    }
  });

  it.each([
    [
      "a duplicate domain id",
      { domains: [GARDEN, { ...SHED, id: "garden" }] },
      'domains.1.id: duplicate domain id "garden"',
    ],
    [
      "a procedure system routed to two domains",
      { domains: [GARDEN, { ...SHED, procedures: ["furnace", "water_pump"] }] },
      'domains.1.procedures: procedure system "water_pump" is already routed to "garden"',
    ],
    [
      "an unknown scope",
      { domains: [{ ...SHED, scope: "everything" }] },
      'domains.0.scope: must be "domain" or "boost"',
    ],
    [
      "an id that is not a domain id",
      { domains: [{ ...SHED, id: "Tool Shed" }] },
      'domains.0.id: must be a lowercase domain id such as "rv_service"',
    ],
    ["no domains", { domains: [] }, "domains: must list at least one domain"],
    [
      "a domain with nothing to learn from",
      { domains: [{ ...SHED, examples: [] }] },
      "domains.0.examples: a domain needs examples (or keywords) to be learned from",
    ],
    [
      "the same example twice",
      { domains: [{ ...SHED, examples: ["The mower", "the  MOWER"] }] },
      'domains.0.examples.1: duplicate entry "the  MOWER"',
    ],
    [
      "an example with no word to learn from",
      { domains: [{ ...SHED, examples: ["the mower", "?!"] }] },
      "domains.0.examples.1: holds no word the analyser reads (only emoji, digits or punctuation, or a script it does not know)",
    ],
    [
      "a threshold that is not a probability",
      { min_confidence: 1, domains: [SHED] },
      "min_confidence: must be between 0 and 1 (exclusive)",
    ],
    [
      "a key the config does not have (the old format)",
      { default_domain: "general", domains: [SHED] },
      '(top level): Unrecognized key: "default_domain"',
    ],
  ])("refuses %s, naming the variable, the file, the key path and the rule", (_name, config, rule) => {
    const file = write(`bad-${++seq}.yaml`, config);
    expect(() => envWith(file)).toThrow(`Invalid environment:\n  SOLSERVER_ROUTING_CONFIG: ${file}: ${rule}`);
  });

  it("refuses a missing file and a file that is not YAML", () => {
    expect(() => envWith(path.join(dir, "absent.yaml"))).toThrow(
      /SOLSERVER_ROUTING_CONFIG: .*absent\.yaml: cannot read the routing config \(ENOENT\)/,
    );
    expect(() => envWith(write("broken.yaml", "domains: [\n  - id: x\n  bad"))).toThrow(
      /SOLSERVER_ROUTING_CONFIG: .*broken\.yaml: not valid YAML or JSON/,
    );
  });
});
