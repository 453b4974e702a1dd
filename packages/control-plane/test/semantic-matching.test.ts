// Semantic matching end to end, over real HTTP to the test embedder (startTestEmbedder: hashed
// terms with a few synonyms folded, automobile/vehicle → car, holiday/leave → vacation) and on
// real SQLite files:
//  - the vector index kept in step with the CFBs: a CFB created, edited or promoted through the
//    control plane is embedded after the write (afterWrite); an edit makes it pending until the
//    next sync stores the new version; a merged CFB leaves the index; status() counts; an
//    existing knowledge base is embedded in the background on first use;
//  - what it finds that words cannot: a proposal sharing no word with a CFB but saying the same
//    through synonyms is a resolve candidate (with its cosine) only with the semantic search; a
//    chat message sharing no word with a CFB injects it only with semantic matching on;
//  - never in the way: with the embedder failing, or down when Solserver starts, turns and
//    promotions succeed lexically; the handle opens lazily and tries again after RETRY_MS;
//  - reciprocalRankFusion.
// Three databases: `on` (a control plane with embeddings), `off` (the same knowledge, lexical
// only), `direct` (no embeddings in the control plane; openSemanticSearch and semanticHandle
// driven by the test, so nothing runs in the background there unless the test starts it).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type TCfbDraft, type TChatRespondResponse, type TResolveProposal, ZRoutingConfig } from "@solserver/contracts";
import { buildCandidateQuery, SEMANTIC_SCALE } from "@solserver/resolve";
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { loadFixture } from "../../../bench/resolve-eval-runner";
import { createOpenAICompatibleEmbeddings, type TEmbeddingsProvider } from "../src/embeddings/openai-embeddings";
import { createCfb, getProposal, promoteProposal, respondToTurn, updateCfb } from "../src/index";
import { proposalText, resolveCandidates } from "../src/knowledge/resolve-candidates";
import { RRF_K, reciprocalRankFusion } from "../src/knowledge/semantic";
import { calibrateScale, openSemanticSearch, semanticHandle } from "../src/knowledge/semantic-matching";
import {
  openTestControlPlane,
  scriptedModel,
  startTestEmbedder,
  type TScriptedAnswer,
  type TTestActor,
  type TTestEmbedder,
  testCfb,
  testEmbedding,
} from "../src/testing";

// Every turn in the one domain: what is compared here is knowledge, not where a turn is routed
// (the router's own meaning vote would follow the test embedder's vectors).
const ONE_DOMAIN = ZRoutingConfig.parse({
  domains: [{ id: "general", label: "General", mode_label: "System", examples: ["anything at all"] }],
});

const MODEL = "test-embed";

type TOpened = Awaited<ReturnType<typeof openTestControlPlane>>;

let embedder: TTestEmbedder;
let on: TOpened;
let off: TOpened;
let direct: TOpened;
let onUser: TTestActor;
let onJam: TTestActor;
let offUser: TTestActor;
let offJam: TTestActor;
let directJam: TTestActor;

/** What the scripted model proposes on the next turn (both control planes share it). */
let next: TScriptedAnswer = { suggestions: [] };
const model = scriptedModel(() => {
  const answer = next;
  next = { suggestions: [] };
  return answer;
});

const provider = (timeoutMs = 5000): TEmbeddingsProvider =>
  createOpenAICompatibleEmbeddings({ baseUrl: embedder.url, model: MODEL, timeoutMs });

/** The 71 CFBs of the resolve evaluation set: a small team knowledge base to embed and calibrate on. */
const corpus: TCfbDraft[] = loadFixture().corpus.map((c) =>
  testCfb({ domain: c.domain, title: c.title, summary: c.summary, tags: c.tags, entities: c.entities }),
);

/** How a CFB is embedded: its title and summary, as proposals are. */
const cfbText = (d: Pick<TCfbDraft, "title" | "summary">) => proposalText({ title: d.title, delta_summary: d.summary });

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return dot / Math.sqrt(na * nb);
}

/** The stored embedding of a CFB for the test model (null: none yet). */
async function stored(o: TOpened, cfbId: string) {
  const row = await o.db.cfbEmbedding.findUnique({ where: { cfbId_model: { cfbId, model: MODEL } } });
  return row
    ? {
        version: row.version,
        dims: row.dims,
        vector: new Float32Array(
          row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength),
        ),
      }
    : null;
}

/** Waits until every live CFB of `o` has an up-to-date embedding (the control plane syncs in the background). */
// A test here may wait for the background sync (settled, up to 60 s on a loaded CI machine with
// PostgreSQL): the default 30 s per test would end it first.
vi.setConfig({ testTimeout: 90_000 });

async function settled(o: TOpened) {
  const reader = await openSemanticSearch(o.repos, provider());
  await vi.waitFor(
    async () => {
      const status = await reader.status();
      expect(status.pending).toBe(0);
      expect(status.embedded).toBe(await liveCount(o));
    },
    // Generous: the background sync shares two cores with the rest of a CI run.
    { timeout: 60_000, interval: 25 },
  );
  return reader;
}

async function liveCount(o: TOpened): Promise<number> {
  return o.db.cfb.count({ where: { mergedIntoId: null } });
}

/** The id of the live CFB with this title (there is one). */
async function idOf(o: TOpened, title: string): Promise<string> {
  const found = await o.db.cfb.findMany({ where: { title, mergedIntoId: null }, select: { id: true } });
  expect(found).toHaveLength(1);
  return (found[0] as { id: string }).id;
}

/** The CFB ids a turn injected, from its trace's retrieval event. */
async function injected(o: TOpened, res: TChatRespondResponse): Promise<string[]> {
  const events = await o.repos.traces.forTransmission(res.transmission_id);
  const retrieval = events.find((e) => e.phase === "retrieval");
  return ((retrieval?.metadata as { cfbs?: { cfb_id: string }[] } | undefined)?.cfbs ?? []).map((c) => c.cfb_id);
}

let requestN = 0;
function turn(o: TOpened, actor: TTestActor, message: string, answer: TScriptedAnswer = { suggestions: [] }) {
  next = answer;
  return respondToTurn(o.as(actor), { request_id: `sem-${++requestN}`, message });
}

beforeAll(async () => {
  embedder = await startTestEmbedder();
  on = await openTestControlPlane({
    label: "semantic-on",
    model,
    routing: ONE_DOMAIN,
    limits: { chatTurnsPerMinute: 1000 },
    embeddings: provider(),
  });
  off = await openTestControlPlane({
    label: "semantic-off",
    model,
    routing: ONE_DOMAIN,
    limits: { chatTurnsPerMinute: 1000 },
  });
  direct = await openTestControlPlane({
    label: "semantic-direct",
    model,
    routing: ONE_DOMAIN,
    limits: { chatTurnsPerMinute: 1000 },
  });
  [onUser, onJam, offUser, offJam, directJam] = await Promise.all([
    on.account("user"),
    on.account("jam"),
    off.account("user"),
    off.account("jam"),
    direct.account("jam"),
  ]);
  // An existing knowledge base, imported without any write hook: embedded on first use.
  await on.repos.cfbs.import(corpus);
  await off.repos.cfbs.import(corpus);
});
afterAll(async () => {
  // Let the control plane's background syncs finish before the database goes.
  if (on) await settled(on).catch(() => {});
  await Promise.all([on?.close(), off?.close(), direct?.close()]);
  await embedder?.close();
});
afterEach(() => {
  if (embedder) embedder.failWith = null;
  vi.restoreAllMocks();
});

// ---- the vector index in step with the CFBs --------------------------------------------------------

describe("openSemanticSearch: sync, status and the calibrated scale (driven directly)", () => {
  it("probes the dimension, embeds what is pending in batches, counts, and calibrates on the knowledge base", async () => {
    const ids = await direct.repos.cfbs.import(corpus);
    const before = embedder.requests.length;
    const matching = await openSemanticSearch(direct.repos, provider());
    // Opening costs one probe and nothing else.
    expect(embedder.requests.slice(before)).toEqual([["dimension probe"]]);
    expect(await matching.status()).toEqual({
      model: MODEL,
      dims: 64,
      embedded: 0,
      pending: corpus.length,
      scale: SEMANTIC_SCALE,
      lastError: null,
      backfill: { running: false, done: 0, total: 0, perSecond: null, secondsLeft: null },
    });

    expect(await matching.sync()).toBe(corpus.length);
    // 71 CFBs in batches of 16: five requests after the probe, in CFB order.
    const batches = embedder.requests.slice(before + 1);
    expect(batches.map((b) => b.length)).toEqual([16, 16, 16, 16, 7]);
    expect((await matching.status()).backfill).toMatchObject({ running: false, done: 71, total: 71, secondsLeft: 0 });
    expect(batches.flat()).toEqual(corpus.map(cfbText));

    const status = await matching.status();
    expect(status).toMatchObject({ embedded: corpus.length, pending: 0, lastError: null });
    // 71 vectors (≥ 30): the scale is the knowledge base's own, not the default.
    const expected = calibrateScale(corpus.map((d) => Float32Array.from(testEmbedding(cfbText(d)))));
    expect(status.scale.none).toBeCloseTo(expected.none, 5);
    expect(status.scale.full).toBeCloseTo(expected.full, 5);
    expect(status.scale.full).toBeCloseTo(status.scale.none + 0.75 * (1 - status.scale.none), 10);
    expect(matching.search.scale()).toEqual(status.scale);

    // The stored vector is the embedder's for the CFB's title and summary, at its version.
    const first = await stored(direct, ids[0] as string);
    expect(first).toMatchObject({ version: 1, dims: 64 });
    expect([...(first?.vector ?? [])]).toEqual([...Float32Array.from(testEmbedding(cfbText(corpus[0] as TCfbDraft)))]);

    // Nothing pending: no request, 0.
    const idle = embedder.requests.length;
    expect(await matching.sync()).toBe(0);
    expect(embedder.requests.length).toBe(idle);
  });

  it("an edit makes the CFB pending again; the next sync stores the new version's vector", async () => {
    const matching = await openSemanticSearch(direct.repos, provider());
    const created = await direct.repos.cfbs.create(
      testCfb({ title: "Standup time", summary: "The daily standup starts at 09:30 in the Kestrel room." }),
    );
    expect((await matching.status()).pending).toBe(1);
    expect(await matching.sync()).toBe(1);
    expect((await stored(direct, created.cfb_id))?.version).toBe(1);

    const edited = testCfb({ title: "Standup time", summary: "The daily standup moved to 10:00 in the Heron room." });
    await direct.repos.cfbs.update(created.cfb_id, 1, edited, {
      actorUserId: directJam.userId,
      actorEmail: directJam.email,
      via: directJam.via,
    });
    expect(await matching.status()).toMatchObject({ pending: 1 });
    // The old vector is still there (and still found) until the sync replaces it.
    expect((await stored(direct, created.cfb_id))?.version).toBe(1);
    expect(await matching.sync()).toBe(1);
    const after = await stored(direct, created.cfb_id);
    expect(after?.version).toBe(2);
    expect([...(after?.vector ?? [])]).toEqual([...Float32Array.from(testEmbedding(cfbText(edited)))]);
    expect(await matching.status()).toMatchObject({ pending: 0 });
  });

  it("a failed sync leaves the CFB pending and says why in status(); the next one embeds it", async () => {
    const matching = await openSemanticSearch(direct.repos, provider());
    const created = await direct.repos.cfbs.create(
      testCfb({ title: "Kitchen rota", summary: "The kitchen rota is pinned by the coffee machine." }),
    );
    embedder.failWith = 503;
    await expect(matching.sync()).rejects.toThrow(/answered 503/);
    expect(await matching.status()).toMatchObject({ pending: 1 });
    expect((await matching.status()).lastError).toMatch(/embeddings server .* answered 503/);
    expect(await stored(direct, created.cfb_id)).toBeNull();

    embedder.failWith = null;
    expect(await matching.sync()).toBe(1);
    expect(await matching.status()).toMatchObject({ pending: 0, lastError: null });
  });

  it("syncs called together share one run", async () => {
    const matching = await openSemanticSearch(direct.repos, provider());
    await direct.repos.cfbs.create(testCfb({ title: "Parking", summary: "Bike parking is in the basement." }));
    const before = embedder.requests.length;
    const [a, b] = await Promise.all([matching.sync(), matching.sync()]);
    expect([a, b]).toEqual([1, 1]);
    expect(embedder.requests.length - before).toBe(1);
  });

  it("a CFB written while a sync runs is embedded by that sync, not left for the next one", async () => {
    const matching = await openSemanticSearch(direct.repos, provider());
    await matching.sync();
    await direct.repos.cfbs.create(testCfb({ title: "Bike shed", summary: "Bikes go in the shed behind the office." }));
    const running = matching.sync();
    // Written while the first sync is under way; its own sync joins the running one.
    await direct.repos.cfbs.create(testCfb({ title: "Scooter rack", summary: "Scooters stand in the rack." }));
    const joined = matching.sync();
    await Promise.all([running, joined]);
    expect(await matching.status()).toMatchObject({ pending: 0 });
  });

  it("sync embeds a whole backlog, reporting progress and the scale", async () => {
    const matching = await openSemanticSearch(direct.repos, provider());
    await direct.repos.cfbs.import(
      Array.from({ length: 40 }, (_, i) =>
        testCfb({ title: `Room ${i} booking`, summary: `Meeting room ${i} is booked through the front desk.` }),
      ),
    );
    const lines: string[] = [];
    expect(await matching.sync((line) => lines.push(line))).toBe(40);
    expect(lines[0]).toBe(`embedding 40 CFBs with ${MODEL}`);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^40 embedded; scale for ${MODEL}: unrelated ≤ \\d\\.\\d{3}, restatement ≥ \\d\\.\\d{3}$`),
    );
    expect(await matching.status()).toMatchObject({ pending: 0 });
  });
});

describe("several processes on one database: one embeds the backlog (issue 39)", () => {
  it("a second process leaves the backlog to the one holding the lease, and takes it over once the lease expires", async () => {
    const base = Date.now();
    const minutes = (n: number) => new Date(base + n * 60_000);
    let clock = minutes(0);
    const first = await openSemanticSearch(direct.repos, provider(), () => clock);
    const second = await openSemanticSearch(direct.repos, provider(), () => clock);
    await first.sync();
    await second.sync();
    await direct.repos.cfbs.import(
      Array.from({ length: 20 }, (_, i) => testCfb({ title: `Desk ${i}`, summary: `Hot desk ${i} is on floor two.` })),
    );
    // The first process's sync holds the lease while it embeds (as one that died mid-backfill would).
    expect(await direct.repos.workLeases.acquire("embedding-backfill", "a process that died", clock, minutes(1))).toBe(
      true,
    );
    // (the other suites of this file embed on the real clock: whatever happens, the lease goes)
    onTestFinished(() => direct.repos.workLeases.release("embedding-backfill", "a process that died"));
    const lines: string[] = [];
    expect(await second.sync((line) => lines.push(line))).toBe(0);
    expect(lines).toEqual([
      `a process that died is embedding the knowledge base (its lease runs to ${minutes(1).toISOString()}); this one leaves it to it`,
    ]);
    expect(await second.status()).toMatchObject({ pending: 20 });

    // Once the holder's lease has expired, the next sync takes it over and embeds the backlog once.
    clock = minutes(2);
    const before = embedder.requests.length;
    const [a, b] = await Promise.all([first.sync(), second.sync()]);
    expect(a + b).toBe(20);
    expect(embedder.requests.slice(before).flat()).toHaveLength(20);
    expect(await first.status()).toMatchObject({ pending: 0 });
    // Done, the lease is given back: the next process to sync takes it at once.
    expect(await direct.repos.workLeases.acquire("embedding-backfill", "next", clock, minutes(3))).toBe(true);
    await direct.repos.workLeases.release("embedding-backfill", "next");
  });
});

describe("the control plane keeps the index in step (afterWrite)", () => {
  it("embeds the existing knowledge base on first use and a CFB created through cfbs.create", async () => {
    const draft = testCfb({
      domain: "ops",
      title: "Company car policy",
      summary: "Every car is returned with a full tank.",
      tags: ["fleet"],
    });
    const car = await createCfb(on.as(onJam), draft);
    await createCfb(off.as(offJam), draft);
    await vi.waitFor(async () => expect((await stored(on, car.cfb_id))?.version).toBe(1), { timeout: 60_000 });
    const row = await stored(on, car.cfb_id);
    expect(row?.dims).toBe(64);
    expect([...(row?.vector ?? [])]).toEqual([...Float32Array.from(testEmbedding(cfbText(draft)))]);
    // The imported corpus was embedded too, in the background, without any write of its own.
    const reader = await settled(on);
    expect(await reader.status()).toMatchObject({ embedded: corpus.length + 1, pending: 0, dims: 64, model: MODEL });
    expect(await on.db.cfbEmbedding.count({ where: { model: MODEL } })).toBe(corpus.length + 1);
  });

  it("an edit through cfbs.update is embedded again at its new version", async () => {
    const draft = testCfb({ title: "Badge access", summary: "Badges open the office from 07:00 to 20:00." });
    const created = await createCfb(on.as(onJam), draft);
    await vi.waitFor(async () => expect((await stored(on, created.cfb_id))?.version).toBe(1), { timeout: 60_000 });
    const edited = { ...draft, summary: "Badges open the office from 06:00 to 22:00 on weekdays." };
    await updateCfb(on.as(onJam), { cfb_id: created.cfb_id, version: 1, ...edited });
    await vi.waitFor(async () => expect((await stored(on, created.cfb_id))?.version).toBe(2), { timeout: 60_000 });
    expect([...((await stored(on, created.cfb_id))?.vector ?? [])]).toEqual([
      ...Float32Array.from(testEmbedding(cfbText(edited))),
    ]);
  });

  it("a merged CFB leaves the vector index; the survivor stays, re-embedded", async () => {
    const pair = (tags: string[]) =>
      testCfb({
        domain: "ops",
        title: "Fire drill",
        summary: "The quarterly fire drill assembles at the north gate.",
        tags,
      });
    const a = await createCfb(on.as(onJam), pair(["safety", "drills"]));
    const b = await createCfb(on.as(onJam), pair(["safety", "evacuation"]));
    const reader = await settled(on);
    const vector = Float32Array.from(testEmbedding(cfbText(pair([]))));
    const near = async () => (await reader.search.nearest(vector, 5)).map((n) => n.cfb_id);
    expect(await near()).toEqual(expect.arrayContaining([a.cfb_id, b.cfb_id]));
    const liveBefore = (await reader.status()).embedded;

    const res = await turn(on, onUser, "We decided on the fire drill.", {
      suggestions: [
        {
          op: "merge",
          target_cfb_id: a.cfb_id,
          title: "Fire drill",
          delta_summary: "The quarterly fire drill assembles at the north gate.",
          tags: ["safety"],
          entities: [],
          confidence: 0.8,
        },
      ],
    });
    const proposalId = res.ui_hints.proposal_previews[0]?.proposal_id as string;
    expect((await getProposal(on.as(onUser), { proposal_id: proposalId })).resolve?.decision).toBe("merge");
    const promoted = await promoteProposal(on.as(onUser), {
      proposal_id: proposalId,
      action: "approve_update",
    });
    const survivor = promoted.final_cfb_id as string;
    const merged = promoted.merged_cfb_id as string;
    expect([survivor, merged].sort()).toEqual([a.cfb_id, b.cfb_id].sort());

    await vi.waitFor(async () => expect(await near()).not.toContain(merged), { timeout: 60_000 });
    expect(await near()).toContain(survivor);
    await settled(on);
    expect((await stored(on, survivor))?.version).toBe(2);
    expect(await reader.status()).toMatchObject({ embedded: liveBefore - 1, pending: 0 });
  });
});

// ---- what semantic matching finds that words cannot -------------------------------------------------

describe("meaning without shared words", () => {
  const proposal: TResolveProposal = {
    title: "Automobile handover",
    delta_summary: "Vehicles are handed back refuelled to the brim.",
    tags: [],
    entities: [],
    domain: "ops",
    op: "create",
    target_cfb_id: null,
  };

  it("resolve: the lexical candidates miss the car policy; with the semantic search it is a candidate with its cosine", async () => {
    const reader = await settled(on);
    const carId = await idOf(on, "Company car policy");
    const lexical = { candidates: on.repos.cfbs.candidates, candidatesByIds: on.repos.cfbs.index.candidatesByIds };

    // No word in common: the candidate index alone does not find it.
    const query = buildCandidateQuery(proposal);
    expect((await on.repos.cfbs.candidates(query, { limit: 20 })).map((c) => c.cfb_id)).not.toContain(carId);
    expect((await resolveCandidates(lexical, proposal, 20)).map((c) => c.cfb_id)).not.toContain(carId);

    // The same meaning through the embedder's synonyms: found, with the cosine of the two texts.
    const hybrid = await resolveCandidates({ ...lexical, semantic: reader.search }, proposal, 20);
    const found = hybrid.find((c) => c.cfb_id === carId);
    expect(found).toBeDefined();
    const expected = cosine(
      testEmbedding(proposalText(proposal)),
      testEmbedding(cfbText({ title: "Company car policy", summary: "Every car is returned with a full tank." })),
    );
    expect(expected).toBeGreaterThan(0);
    expect(found?.semantic_similarity).toBeCloseTo(expected, 5);
    // Every fused candidate carries its cosine (all of them have a stored vector here).
    expect(hybrid.every((c) => typeof c.semantic_similarity === "number")).toBe(true);
  });

  it("a turn's proposal restating a CFB in other words is scored against it only with semantic matching on", async () => {
    // No word in common ("and" is a stop word); the same two concepts through the synonyms.
    const draft = testCfb({
      domain: "general",
      title: "Salary and vacation",
      summary: "Salary is paid monthly and vacation is 25 days a year.",
    });
    const suggestion = {
      op: "update" as const,
      title: "Wages and holiday leave",
      delta_summary: "Remuneration and holidays for staff.",
      tags: [],
      entities: [],
      confidence: 0.8,
    };
    const scoresOf = async (o: TOpened, actor: TTestActor, jam: TTestActor) => {
      const cfb = await createCfb(o.as(jam), draft);
      if (o === on) await settled(on);
      const res = await turn(o, actor, "We talked about pay.", { suggestions: [suggestion] });
      const id = res.ui_hints.proposal_previews[0]?.proposal_id as string;
      const detail = await getProposal(o.as(actor), { proposal_id: id });
      return { scores: detail.resolve?.scores ?? [], cfbId: cfb.cfb_id };
    };
    const withSemantic = await scoresOf(on, onUser, onJam);
    const scored = withSemantic.scores.find((s) => s.cfb_id === withSemantic.cfbId);
    const cos = cosine(
      testEmbedding(`${suggestion.title}\n${suggestion.delta_summary}`),
      testEmbedding(cfbText(draft)),
    );
    expect(scored?.components.semantic_similarity).toBeCloseTo(cos, 2); // int8 vectors: within a thousandth
    // Above the calibrated "unrelated" cosine: the text component comes from the embedding alone.
    const reader = await openSemanticSearch(on.repos, provider());
    expect(cos).toBeGreaterThan(reader.search.scale().none);
    expect(scored?.components.text_similarity).toBeGreaterThan(0);

    const lexicalOnly = await scoresOf(off, offUser, offJam);
    expect(lexicalOnly.scores.map((s) => s.cfb_id)).not.toContain(lexicalOnly.cfbId);
  });

  it("a chat message that shares no word with a CFB injects it only when semantic matching is on", async () => {
    const draft = testCfb({ domain: "general", title: "Unlimited vacation", summary: "Vacation is unlimited." });
    const onCfb = await createCfb(on.as(onJam), draft);
    const offCfb = await createCfb(off.as(offJam), draft);
    await settled(on);
    const message = "What about holiday leave?";
    const res = await turn(on, onUser, message);
    expect(res.breakpoint.decision).not.toBe("skip");
    expect(await injected(on, res)).toContain(onCfb.cfb_id);

    const lexical = await turn(off, offUser, message);
    expect(await injected(off, lexical)).not.toContain(offCfb.cfb_id);
    // The words themselves do retrieve lexically in both: "holiday" is in the deploy-freeze CFB.
    expect(await injected(off, lexical)).toContain(await idOf(off, "Deploy freeze on Fridays"));
  });
});

// ---- never in the way ----------------------------------------------------------------------------

describe("an embedder that fails", () => {
  it("turns and promotions succeed lexically while it answers 500; what was written is embedded after", async () => {
    await settled(on);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    embedder.failWith = 500;

    // Retrieval: the lexical match still comes through.
    const res = await turn(on, onUser, "Is there a deploy freeze on Fridays?", {
      suggestions: [
        {
          op: "create",
          title: "Visitor wifi",
          delta_summary: "Visitors use the Guest-5G network; the password is on the reception desk.",
          tags: ["office"],
          entities: [],
          confidence: 0.8,
        },
      ],
    });
    expect(await injected(on, res)).toContain(await idOf(on, "Deploy freeze on Fridays"));
    // Resolve ran on the lexical candidates (no semantic similarity anywhere).
    const proposalId = res.ui_hints.proposal_previews[0]?.proposal_id as string;
    const detail = await getProposal(on.as(onUser), { proposal_id: proposalId });
    expect(detail.resolve?.decision).toBe("create");
    expect(detail.resolve?.scores.every((s) => s.components.semantic_similarity === null)).toBe(true);

    // Promotion: resolve again (lexical), write the CFB; the sync after it fails, logged.
    const promoted = await promoteProposal(on.as(onUser), {
      proposal_id: proposalId,
      action: "approve_create",
    });
    expect(promoted.status).toBe("approved");
    const wifi = promoted.final_cfb_id as string;
    await vi.waitFor(
      () =>
        expect(warn).toHaveBeenCalledWith(
          expect.stringMatching(/^semantic matching: sync after a write failed: .*answered 500/),
        ),
      { timeout: 60_000 },
    );
    const messages = warn.mock.calls.map((c) => String(c[0]));
    expect(messages).toContainEqual(
      expect.stringMatching(/^retrieval: semantic neighbours failed, lexical only: .*500/),
    );
    expect(messages).toContainEqual(expect.stringMatching(/^resolve: semantic candidates failed, lexical only: .*500/));
    expect(await stored(on, wifi)).toBeNull();

    // Back up: the next write's sync embeds what the failed one left pending.
    embedder.failWith = null;
    const later = await createCfb(
      on.as(onJam),
      testCfb({ title: "Printer", summary: "The printer on floor 2 needs a badge tap." }),
    );
    await vi.waitFor(
      async () => {
        expect((await stored(on, wifi))?.version).toBe(1);
        expect((await stored(on, later.cfb_id))?.version).toBe(1);
      },
      { timeout: 60_000 },
    );
  });

  it("a control plane whose embedder is down from the start answers and promotes lexically", async () => {
    const port = await closedPort();
    const down = await openTestControlPlane({
      label: "semantic-down",
      model,
      limits: { chatTurnsPerMinute: 1000 },
      embeddings: createOpenAICompatibleEmbeddings({ baseUrl: `http://127.0.0.1:${port}/v1`, model: MODEL }),
    });
    try {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      const user = await down.account("user");
      const cfb = await down.repos.cfbs.create(
        testCfb({ title: "Deploy freeze", summary: "No deploys to production on Fridays after noon." }),
      );
      const res = await turn(down, user, "Can I deploy to production on Friday afternoon?", {
        suggestions: [
          {
            op: "create",
            title: "Release train",
            delta_summary: "Releases leave every Tuesday at 14:00 from the main branch.",
            tags: [],
            entities: [],
            confidence: 0.8,
          },
        ],
      });
      expect(await injected(down, res)).toContain(cfb.cfb_id);
      const proposalId = res.ui_hints.proposal_previews[0]?.proposal_id as string;
      const promoted = await promoteProposal(down.as(user), {
        proposal_id: proposalId,
        action: "approve_create",
      });
      expect(promoted.status).toBe("approved");
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(/^semantic matching unavailable \(lexical only, retried in 30 s\)/),
      );
      // Tried once, not on every call: later calls inside the retry window do not wait on it.
      const unavailable = warn.mock.calls.filter((c) => String(c[0]).startsWith("semantic matching unavailable"));
      expect(unavailable).toHaveLength(1);
      expect(await down.db.cfbEmbedding.count()).toBe(0);
    } finally {
      await down.close();
    }
  });
});

/** A port nothing listens on (a server was there a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An OpenAI-compatible embeddings server with the test embedder's vectors, on a given port. */
async function embedderOn(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const { input } = JSON.parse(body) as { input: string[] };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: testEmbedding(t) })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}

describe("semanticHandle: lazy, retried, never in the way", () => {
  it("opens on first use, not before, and once", async () => {
    const probes = () => embedder.requests.filter((r) => r.length === 1 && r[0] === "dimension probe").length;
    const before = probes();
    const handle = semanticHandle(direct.repos, provider(), () => {});
    expect(probes()).toBe(before);
    const matching = await handle.get();
    expect(matching).not.toBeNull();
    expect(await handle.get()).toBe(matching);
    expect(probes()).toBe(before + 1);
    // Concurrent first calls share one opening (one probe).
    const other = semanticHandle(direct.repos, provider(), () => {});
    const [x, y] = await Promise.all([other.get(), other.get()]);
    expect(x).not.toBeNull();
    expect(x).toBe(y);
    expect(probes()).toBe(before + 2);
    await handle.syncNow();
    await other.syncNow();
  });

  it("down at start: get() is null, not retried within 30 s, then opens once the server is up", async () => {
    const port = await closedPort();
    const lines: string[] = [];
    const handle = semanticHandle(
      direct.repos,
      createOpenAICompatibleEmbeddings({ baseUrl: `http://127.0.0.1:${port}/v1`, model: MODEL, timeoutMs: 2000 }),
      (line) => lines.push(line),
    );
    expect(await handle.get()).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^semantic matching unavailable \(lexical only, retried in 30 s\): /);
    // Nothing to sync while it is unavailable; a write hook does not throw.
    expect(await handle.syncNow()).toBe(0);
    handle.afterWrite();

    const server = await embedderOn(port);
    try {
      // Up now, but inside the retry window: still null, and no new attempt (no new log line).
      expect(await handle.get()).toBeNull();
      expect(lines).toHaveLength(1);

      // 31 s later (the clock the handle reads), it is tried again and opens.
      const realNow = performance.now.bind(performance);
      vi.spyOn(performance, "now").mockImplementation(() => realNow() + 31_000);
      const pendingText = testCfb({ title: "Late arrival", summary: "Written while the embedder was down." });
      const late = await direct.repos.cfbs.create(pendingText);
      const matching = await handle.get();
      expect(matching).not.toBeNull();
      expect(matching?.search.model).toBe(MODEL);
      // Opening starts a background syncAll of what is pending; it logs the scale when done.
      await vi.waitFor(() => expect(lines.at(-1)).toMatch(/^semantic matching: \d+ embedded; scale for test-embed/), {
        timeout: 10_000,
      });
      expect((await stored(direct, late.cfb_id))?.version).toBe(1);
      expect(await matching?.status()).toMatchObject({ pending: 0 });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("a server that goes away after opening: syncNow rejects, afterWrite only logs", async () => {
    const lines: string[] = [];
    const handle = semanticHandle(direct.repos, provider(), (line) => lines.push(line));
    expect(await handle.get()).not.toBeNull();
    await vi.waitFor(() => expect(lines.at(-1)).toMatch(/scale for/), { timeout: 60_000 });
    await direct.repos.cfbs.create(testCfb({ title: "Locker keys", summary: "Locker keys are at reception." }));
    embedder.failWith = 500;
    await expect(handle.syncNow()).rejects.toThrow(/answered 500/);
    handle.afterWrite();
    await vi.waitFor(() => expect(lines.at(-1)).toMatch(/^semantic matching: sync after a write failed: .*500/), {
      timeout: 10_000,
    });
    embedder.failWith = null;
    expect(await handle.syncNow()).toBe(1);
  });
});

// ---- reciprocal rank fusion --------------------------------------------------------------------------

describe("reciprocalRankFusion", () => {
  it("sums 1 / (RRF_K + rank) over the lists: an id high in both beats one first in only one", () => {
    expect(RRF_K).toBe(60);
    // b: 1/62 + 1/61; a: 1/61; c: 1/61 (first seen after a).
    expect(
      reciprocalRankFusion(
        [
          ["a", "b"],
          ["b", "c"],
        ],
        10,
      ),
    ).toEqual(["b", "a", "c"]);
    expect(reciprocalRankFusion([["x", "y", "z"], ["z"]], 10)).toEqual(["z", "x", "y"]);
  });

  it("breaks ties by first appearance, across lists", () => {
    expect(reciprocalRankFusion([["a"], ["b"], ["c"]], 10)).toEqual(["a", "b", "c"]);
    expect(
      reciprocalRankFusion(
        [
          ["b", "a"],
          ["a", "b"],
        ],
        10,
      ),
    ).toEqual(["b", "a"]);
    expect(
      reciprocalRankFusion(
        [
          ["p", "q"],
          ["r", "s"],
        ],
        10,
      ),
    ).toEqual(["p", "r", "q", "s"]);
  });

  it("keeps at most `limit`, and handles empty lists and a zero limit", () => {
    expect(
      reciprocalRankFusion(
        [
          ["a", "b", "c"],
          ["c", "d"],
        ],
        2,
      ),
    ).toEqual(["c", "a"]);
    expect(reciprocalRankFusion([], 5)).toEqual([]);
    expect(reciprocalRankFusion([[], []], 5)).toEqual([]);
    expect(reciprocalRankFusion([["a"], []], 5)).toEqual(["a"]);
    expect(reciprocalRankFusion([["a", "b"]], 0)).toEqual([]);
  });
});
