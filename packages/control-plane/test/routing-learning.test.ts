// The router learns from corrections (issue 34, docs/routing.md#learning-from-corrections): a
// reviewer who moves a proposal to another domain, a Jam editor who files a routing suggestion or
// adds a message by hand makes the message an example of that domain, stored, audited, removable;
// the process that filed it routes by it at once, and every other process within CHECK_EVERY_MS
// (two handles on two connections to one database, an injected clock: no sleeps).

import { ZRoutingExampleAdd } from "@solserver/contracts";
import { createPrismaClient, createRepositories } from "@solserver/db";
import { routeTurn, type TRouteInput } from "@solserver/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addRoutingExample,
  getProposal,
  parseInput,
  promoteProposal,
  removeRoutingExample,
  reopenProposal,
  respondToTurn,
  routingOverview,
  teachRouting,
} from "../src/index";
import { CHECK_EVERY_MS, routingHandle } from "../src/routing/router";
import { DEFAULT_ROUTING } from "../src/routing/routing-config";
import { openTestControlPlane, scriptedModel, type TTestActor } from "../src/testing";

// A message the shipped router leaves to `general`; a person says it is an RV service question.
const MESSAGE = "the tire pressure monitor keeps beeping on my truck";
const input = (message: string): TRouteInput => ({
  message,
  previousDomain: null,
  hintHistory: [],
  procedureSystem: null,
});

const scripted = scriptedModel(() => ({
  suggestions: [
    {
      op: "create",
      // Says nothing of a domain: filed under the turn's.
      title: "Noted",
      delta_summary: "Noted for later.",
      summary: "Noted for later.",
      tags: [],
      entities: [],
      confidence: 0.8,
    },
  ],
}));

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let n = 0;

beforeAll(async () => {
  opened = await openTestControlPlane({
    label: "routing-learning",
    model: scripted,
    limits: { chatTurnsPerMinute: 1000 },
  });
  user = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

const routedDomain = async (message: string) => routeTurn(await opened.deps.routing.current(), input(message)).domain;
const audits = (targetId: string) =>
  opened.db.auditEvent.findMany({ where: { targetType: "routing_example", targetId }, orderBy: { id: "asc" } });

describe("a reviewer moves a proposal to another domain", () => {
  it("files the CFB there, and the turn's message becomes an example of that domain, audited", async () => {
    expect(await routedDomain(MESSAGE)).toBe("general");
    const turn = await respondToTurn(opened.as(user), { request_id: `rl-${++n}`, message: MESSAGE });
    const proposalId = turn.ui_hints.proposal_previews[0]?.proposal_id as string;
    expect((await getProposal(opened.as(jam), { proposal_id: proposalId })).proposed_cfb.domain).not.toBe("rv_service");

    const res = await promoteProposal(opened.as(jam), {
      proposal_id: proposalId,
      action: "edit_then_approve",
      editorial_overrides: { domain: "rv_service" },
    });
    expect(res.cfb?.domain).toBe("rv_service");
    const [learned] = (await routingOverview(opened.as(jam))).learned;
    expect(learned).toMatchObject({
      domain: "rv_service",
      text: MESSAGE,
      source: "proposal_domain",
      source_ref: proposalId,
      created_by: jam.userId,
    });
    expect(await routedDomain(MESSAGE)).toBe("rv_service");
    const [audit] = await audits(learned?.id as string);
    expect(audit).toMatchObject({ action: "routing_example.add", actorEmail: jam.email });

    // Undoing the approval takes its lesson back, audited: the message routes as before.
    await reopenProposal(opened.as(jam), { proposal_id: proposalId });
    expect((await routingOverview(opened.as(jam))).learned.map((e) => e.source_ref)).not.toContain(proposalId);
    expect(await routedDomain(MESSAGE)).toBe("general");
    expect((await audits(learned?.id as string)).map((a) => a.action)).toEqual([
      "routing_example.add",
      "routing_example.remove",
    ]);
  });

  it("refuses a domain the routing config does not have, naming the field, and writes nothing", async () => {
    const turn = await respondToTurn(opened.as(user), { request_id: `rl-${++n}`, message: "second proposal" });
    const proposalId = turn.ui_hints.proposal_previews[0]?.proposal_id as string;
    const before = await opened.db.routingExample.count();
    await expect(
      promoteProposal(opened.as(jam), {
        proposal_id: proposalId,
        action: "edit_then_approve",
        editorial_overrides: { domain: "gardening" },
      }),
    ).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: expect.stringContaining('editorial_overrides.domain: "gardening" is not a domain of the routing config'),
    });
    expect(await opened.db.routingExample.count()).toBe(before);
    expect((await getProposal(opened.as(jam), { proposal_id: proposalId })).status).toBe("pending");
  });
});

describe("a Jam editor teaches the router", () => {
  it("adds and removes an example by hand; the same text filed again under another domain moves", async () => {
    const text = "who holds the pager for the payments service tonight";
    const added = await addRoutingExample(opened.as(jam), parseInput(ZRoutingExampleAdd, { domain: "ops", text }));
    expect(added).toMatchObject({ domain: "ops", text, source: "manual" });
    const moved = await addRoutingExample(opened.as(jam), { domain: "solserver", text });
    const learned = (await routingOverview(opened.as(jam))).learned.filter((e) => e.text === text);
    expect(learned.map((e) => [e.id, e.domain])).toEqual([[moved.id, "solserver"]]);
    expect(await removeRoutingExample(opened.as(jam), { id: moved.id })).toEqual({ id: moved.id, removed: true });
    expect((await routingOverview(opened.as(jam))).learned.some((e) => e.text === text)).toBe(false);
    expect((await audits(moved.id)).map((a) => a.action)).toEqual(["routing_example.add", "routing_example.remove"]);
    await expect(removeRoutingExample(opened.as(jam), { id: moved.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses an unknown domain and a text with no word, naming the field", async () => {
    await expect(addRoutingExample(opened.as(jam), { domain: "gardening", text: "tomatoes" })).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: expect.stringMatching(/^domain: "gardening" is not a domain of the routing config/),
    });
    await expect(addRoutingExample(opened.as(jam), { domain: "ops", text: "🙂 !!" })).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: "text: holds no word the router can learn from",
    });
    await expect(addRoutingExample(opened.as(user), { domain: "ops", text: "deploy" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
  });

  it("files a routing suggestion's message under the domain the answers named, and dismisses it", async () => {
    const label = 'routed to "general", answered as "ops" (first: "our nightly backup job silently skipped")';
    const thresholds = opened.deps.repetitionThresholds;
    const hits = Array.from({ length: thresholds.domain_mismatch }, () => ({
      kind: "domain_mismatch" as const,
      routerDomain: "general",
      key: "ops",
      label,
    }));
    for (const hit of hits) await opened.repos.triggers.count([hit], thresholds);
    const [trigger] = (await opened.repos.triggers.list(thresholds, 100)).filter((t) => t.kind === "domain_mismatch");
    const taught = await teachRouting(opened.as(jam), { trigger_id: trigger?.trigger_id as string, domain: "ops" });
    expect(taught).toMatchObject({
      domain: "ops",
      text: "our nightly backup job silently skipped",
      source: "suggestion",
      source_ref: trigger?.trigger_id,
    });
    expect((await opened.repos.triggers.list(thresholds, 100)).some((t) => t.kind === "domain_mismatch")).toBe(false);
    await expect(
      teachRouting(opened.as(jam), { trigger_id: trigger?.trigger_id as string, domain: "ops" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("every process learns a correction", () => {
  it("within CHECK_EVERY_MS of its filing, without a restart", async () => {
    // Two server processes: their own connection to the one database, their own router.
    const otherDb = await createPrismaClient(opened.database.url);
    try {
      let clock = 0;
      const here = routingHandle(DEFAULT_ROUTING, createRepositories(opened.db), undefined, () => clock);
      const there = routingHandle(DEFAULT_ROUTING, createRepositories(otherDb), undefined, () => clock);
      const message = "my e-bike display shows error 21 after the rain";
      const route = async (h: typeof here) => routeTurn(await h.current(), input(message)).domain;
      const before = await route(there);
      expect(before).not.toBe("rv_service");
      expect(await route(here)).toBe(before);

      const { id } = await addRoutingExample(opened.as(jam), { domain: "rv_service", text: message });
      expect(await route(here)).toBe(before); // here read the examples at clock 0: its check is due later
      clock = CHECK_EVERY_MS - 1;
      expect(await route(there)).toBe(before);
      clock = CHECK_EVERY_MS;
      expect([await route(here), await route(there)]).toEqual(["rv_service", "rv_service"]);

      await removeRoutingExample(opened.as(jam), { id });
      clock = 2 * CHECK_EVERY_MS;
      expect([await route(here), await route(there)]).toEqual([before, before]);
    } finally {
      await otherDb.$disconnect();
    }
  });
});
