// Ready means ready (issue 38): /readyz says "building" until the knowledge index is built, and
// asking starts the build when nothing did; once built, the server is ready and a search reads
// the whole index (the build reads the CFBs a page at a time, between which other work runs).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readiness } from "../src/index";
import { openTestControlPlane, testCfb } from "../src/testing";

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "readiness" });
  await opened.repos.cfbs.import(
    Array.from({ length: 2_345 }, (_, i) => testCfb({ title: `Rack ${i} cabling`, summary: `Rack ${i} is cabled.` })),
  );
});
afterAll(() => opened.close());

describe("readiness and the knowledge index", () => {
  it("is not ready while the index is unbuilt; the probe starts the build; then ready, every CFB indexed", async () => {
    expect(opened.repos.cfbs.index.status().builtMs).toBeNull();
    const first = await readiness(opened.deps);
    expect(first).toMatchObject({ ok: false, checks: { database: "ok", knowledge_index: "building" } });
    // The build the probe started; a sync waits for it rather than starting another.
    await opened.repos.cfbs.index.sync();
    expect(opened.repos.cfbs.index.status()).toMatchObject({ rebuilds: 1, documents: await opened.db.cfb.count() });
    expect(await opened.db.cfb.count()).toBe(2_345);
    expect(await readiness(opened.deps)).toEqual({
      ok: true,
      checks: { database: "ok", knowledge_index: "ok", sentence_model: "off" },
    });
  });
});
