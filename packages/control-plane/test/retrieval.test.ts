// Retrieval's fusion and scope (src/retrieval.ts) on a real database: the route's domain is a
// boost, never a filter, except for a domain whose scope is "domain"; a CFB under the fusion's
// floor is left out; each injected CFB says why (the message's words it holds, its similarity).
import type { TCfbDraft } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fuseCandidates,
  fusionFeatures,
  fusionFor,
  gated,
  retrievalCandidates,
  retrieveCfbs,
  type TSemanticChannel,
} from "../src/retrieval";
import { openTestControlPlane, testCfb } from "../src/testing";

type TOpened = Awaited<ReturnType<typeof openTestControlPlane>>;
let opened: TOpened;
const ids: Record<string, string> = {};

const drafts: Record<string, TCfbDraft> = {
  freeze: testCfb({
    domain: "ops",
    title: "Deploy freeze on Fridays",
    summary: "No production deploys on Fridays after noon.",
  }),
  umbra: testCfb({
    domain: "solserver",
    title: "Umbra beat",
    summary: "The Umbra beat reviews pending proposals every Monday.",
  }),
  pump: testCfb({
    domain: "rv_service",
    title: "Water pump fuse",
    summary: "The water pump's 15 A fuse is under the step.",
  }),
  model: testCfb({
    domain: "solserver",
    title: "Assistant model",
    summary: "The assistant answers with GPT-4o from OpenAI.",
  }),
};

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "retrieval" });
  for (const [key, draft] of Object.entries(drafts)) ids[key] = (await opened.repos.cfbs.create(draft)).cfb_id;
});
afterAll(() => opened?.close());

const source = () => ({ search: opened.repos.cfbs.index.search, retrievable: opened.repos.cfbs.retrievable });
const injected = async (message: string, opts: Parameters<typeof retrieveCfbs>[2] = { limit: 8 }) =>
  (await retrieveCfbs(source(), message, opts)).map((r) => r.cfb.cfb_id);

describe("retrieval across domains", () => {
  it("finds a CFB of another domain than the route's: the route boosts, it does not filter", async () => {
    const route = { domain: "solserver", scope: "boost" as const };
    expect(await injected("are deploys frozen on fridays?", { limit: 8, route })).toContain(ids.freeze);
  });

  it("keeps a strict domain's scope: only its own and shared CFBs", async () => {
    const route = { domain: "rv_service", scope: "domain" as const };
    expect(await injected("deploy freeze fridays", { limit: 8, route })).not.toContain(ids.freeze);
    expect(await injected("water pump fuse", { limit: 8, route })).toContain(ids.pump);
  });

  it("ranks the routed domain's CFB first between two that match alike", async () => {
    const both = "umbra beat deploy freeze";
    expect((await injected(both, { limit: 8, route: { domain: "ops", scope: "boost" } }))[0]).toBe(ids.freeze);
    expect((await injected(both, { limit: 8, route: { domain: "solserver", scope: "boost" } }))[0]).toBe(ids.umbra);
  });
});

describe("the fusion", () => {
  /** A semantic channel with given cosines (the sentence model is tested on its own). */
  const channel = (cosines: Record<string, number>, model = "use-lite-512"): TSemanticChannel => ({
    model,
    nearest: async (k) =>
      Object.entries(cosines)
        .map(([key, similarity]) => ({ cfb_id: ids[key] as string, similarity }))
        .sort((a, b) => b.similarity - a.similarity)
        .slice(0, k),
    similarities: async (list) =>
      new Map(
        Object.entries(cosines).flatMap(([key, c]) =>
          list.includes(ids[key] as string) ? [[ids[key] as string, c]] : [],
        ),
      ),
  });

  it("injects a CFB the words miss when its meaning is close, and says why", async () => {
    const ranked = await retrieveCfbs(source(), "which LLM is behind the bot?", {
      limit: 8,
      semantic: channel({ model: 0.62, umbra: 0.31, freeze: 0.12 }),
    });
    expect(ranked[0]?.cfb.cfb_id).toBe(ids.model);
    expect(ranked[0]?.why).toEqual({ matched: [], similarity: 0.62, lexical: 0 });
  });

  it("names the message's words a CFB holds, as typed", async () => {
    const [first] = await retrieveCfbs(source(), "Which FUSE does the water pump use?", { limit: 8 });
    expect(first?.cfb.cfb_id).toBe(ids.pump);
    expect(first?.why.matched).toEqual(["fuse", "water", "pump"]);
  });

  it("ranks a candidate strong in both channels above one strong in one", async () => {
    const ranked = await retrieveCfbs(source(), "umbra beat proposals", {
      limit: 8,
      semantic: channel({ umbra: 0.7, model: 0.5, freeze: 0.2 }),
    });
    expect(ranked[0]?.cfb.cfb_id).toBe(ids.umbra);
  });

  it("gives a message nothing when its best candidate is under the gate in both channels", async () => {
    const fusion = fusionFor("use-lite-512");
    const candidates = await retrievalCandidates(source(), "umbra beat", { semantic: channel({ umbra: 0.9 }) });
    expect(fuseCandidates(candidates, 8, fusion).map((r) => r.cfb.cfb_id)).toContain(ids.umbra);
    const closed = { ...fusion, gate: { lexical: 5, cosine: 1 } };
    expect(fuseCandidates(candidates, 8, closed)).toEqual([]);
    expect(gated(candidates, closed)).toBe(true);
  });

  it("has a fitted fusion for the shipped model, a gate for lexical only, and a default for any other model", () => {
    const fused = fusionFor("use-lite-512");
    expect(fused.weights).toHaveLength(9);
    expect(fusionFor(null).weights).toBeUndefined();
    expect(fusionFor(null).gate.lexical).toBeGreaterThanOrEqual(0);
    expect(fusionFor("text-embedding-3-small")).toEqual(fusionFor("default"));
  });

  it("scores the same features the fit was made on", async () => {
    const candidates = await retrievalCandidates(source(), "water pump umbra", {
      semantic: channel({ pump: 0.6, umbra: 0.4 }),
    });
    const x = fusionFeatures(candidates);
    expect(x).toHaveLength(candidates.length);
    for (const row of x) expect(row).toHaveLength(9);
    const best = candidates.findIndex((c) => c.cfb.cfb_id === ids.pump);
    // Its cosine is the best: 0 from the best, cosine rank 0.
    expect(x[best]?.[3]).toBe(0);
    expect(x[best]?.[5]).toBe(1);
  });
});
