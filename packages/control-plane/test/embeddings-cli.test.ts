// `pnpm embeddings`, in process: it embeds what has no vector for its CFB's current version with
// the embedded sentence model, says how far it got, and can be run again (nothing left to do).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDINGS_EXIT, runEmbeddingsCli } from "../src/embeddings/cli";
import { openTestControlPlane, testCfb } from "../src/testing";

type TOpened = Awaited<ReturnType<typeof openTestControlPlane>>;
let opened: TOpened;
let env: Record<string, string>;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "embeddings-cli" });
  await opened.repos.cfbs.import(
    Array.from({ length: 20 }, (_, i) =>
      testCfb({ title: `Room ${i}`, summary: `Meeting room ${i} is booked at the desk.` }),
    ),
  );
  env = { DATABASE_URL: opened.database.url, BETTER_AUTH_SECRET: "y".repeat(32) };
});
afterAll(() => opened?.close());

async function run(args: string[], extra: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEmbeddingsCli(args, {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    env: { ...env, ...extra },
  });
  return { code, out, err };
}

// (each run loads the sentence model in this process: seconds on a busy machine, not a fault)
describe("pnpm embeddings", { timeout: 120_000 }, () => {
  it("counts with --status and embeds nothing", async () => {
    const r = await run(["--status"]);
    expect(r.code).toBe(EMBEDDINGS_EXIT.DONE);
    expect(r.out[0]).toMatch(/: 0 CFBs embedded with use-lite-512, 20 pending$/);
  });

  it("embeds what is pending, reports it, and finds nothing left on a second run", async () => {
    const first = await run([]);
    // (the code with what was said on stderr: a failure says why)
    expect({ code: first.code, err: first.err }).toEqual({ code: EMBEDDINGS_EXIT.DONE, err: [] });
    expect(first.out).toContain("embedding 20 CFBs with use-lite-512");
    expect(first.out.at(-1)).toBe("done: 20 embedded, 0 pending");
    const again = await run([]);
    expect(again.out).toEqual([expect.stringMatching(/: 20 CFBs embedded with use-lite-512, 0 pending$/)]);
  });

  it("refuses unknown arguments and says when semantic matching is off", async () => {
    expect(await run(["--everything"])).toMatchObject({
      code: EMBEDDINGS_EXIT.INVALID,
      err: [expect.stringMatching(/unknown argument --everything/)],
    });
    expect(await run([], { SOLSERVER_EMBEDDINGS: "off" })).toMatchObject({
      code: EMBEDDINGS_EXIT.INVALID,
      err: ["semantic matching is off (SOLSERVER_EMBEDDINGS=off): nothing to embed"],
    });
  });
});
