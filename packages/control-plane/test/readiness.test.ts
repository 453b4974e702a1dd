// Ready means ready (issue 38): /readyz says "building" until the knowledge index is built,
// "training" until the router and procedure mode's learned readers are trained and "rehearsing"
// until a turn was rehearsed, and asking starts the warm-up when nothing did; once done, the
// server is ready and a search reads the whole index (the build reads the CFBs a page at a time,
// between which other work runs). The rehearsed turn writes nothing and calls no configured model.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readiness, type TEmbeddingsProvider, type TModelProvider, warmUp } from "../src/index";
import { openTestControlPlane, testCfb, testEmbedding } from "../src/testing";

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
const modelCalls: string[] = [];
const configuredModel: TModelProvider = {
  name: "configured-test",
  generate: async (input) => {
    modelCalls.push(input.message);
    throw new Error("the configured model is not for warm-ups");
  },
};

/** Rows in every table a turn writes. */
async function turnRows(db: typeof opened.db): Promise<number[]> {
  return Promise.all([
    db.thread.count(),
    db.message.count(),
    db.packet.count(),
    db.response.count(),
    db.umbraProposal.count(),
    db.umbraResolveDecision.count(),
    db.traceRun.count(),
    db.gateEvaluation.count(),
    db.rateLimitBucket.count(),
    db.cfbUsageEvent.count(),
    db.repetitionCounter.count(),
    db.threadMemento.count(),
  ]);
}

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "readiness", model: configuredModel });
  await opened.repos.cfbs.import(
    Array.from({ length: 2_345 }, (_, i) => testCfb({ title: `Rack ${i} cabling`, summary: `Rack ${i} is cabled.` })),
  );
});
afterAll(() => opened.close());

describe("readiness and the knowledge index", () => {
  it("is not ready while the index is unbuilt, the readers untrained and no turn rehearsed; the probe starts the warm-up; then ready", async () => {
    const before = await turnRows(opened.db);
    expect(opened.repos.cfbs.index.status().builtMs).toBeNull();
    expect(opened.deps.routing.trained()).toBe(false);
    const first = await readiness(opened.deps);
    expect(first).toMatchObject({
      ok: false,
      checks: {
        database: "ok",
        knowledge_index: "building",
        router: "training",
        procedure_reader: "training",
        first_turn: "rehearsing",
      },
    });
    // The warm-up the probe started: a second call joins it rather than starting another.
    await warmUp(opened.deps);
    expect(opened.deps.routing.trained()).toBe(true);
    expect(opened.repos.cfbs.index.status()).toMatchObject({ rebuilds: 1, documents: await opened.db.cfb.count() });
    expect(await opened.db.cfb.count()).toBe(2_345);
    expect(await readiness(opened.deps)).toEqual({
      ok: true,
      checks: {
        database: "ok",
        knowledge_index: "ok",
        router: "ok",
        procedure_reader: "ok",
        first_turn: "ok",
        sentence_model: "off",
      },
    });
    expect(await turnRows(opened.db)).toEqual(before);
    expect(modelCalls).toEqual([]);
  });
});

describe("readiness and the router's meaning vote", () => {
  it("says the router is training until its examples are embedded, so first turns do not queue behind them", async () => {
    let release: () => void = () => {};
    const embedded = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A sentence model that answers once the test lets it.
    const embeddings: TEmbeddingsProvider = {
      model: "gated-test",
      embed: async (texts) => {
        await embedded;
        return texts.map((t) => Float32Array.from(testEmbedding(t)));
      },
    };
    const gated = await openTestControlPlane({ label: "readiness-meaning", embeddings });
    try {
      // (the rehearsed turn waits for the model too: the warm-up ends once it is released)
      const warming = warmUp(gated.deps);
      await expect.poll(() => gated.repos.cfbs.index.status().builtMs).not.toBeNull();
      expect(gated.deps.routing.trained()).toBe(false);
      expect((await readiness(gated.deps)).checks.router).toBe("training");
      release();
      await warming;
      await expect.poll(() => gated.deps.routing.trained()).toBe(true);
      expect((await gated.deps.routing.current()).model.meaning).toBe(true);
      expect((await readiness(gated.deps)).checks.router).toBe("ok");
    } finally {
      await gated.close();
    }
  });
});
