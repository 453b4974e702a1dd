// Several OS processes on one SQLite file, as when the server and a script (or two servers)
// share a database. In one process Prisma serialises transactions on its single connection, so
// only separate processes exercise SQLite's own locking: write-first transactions that wait on
// the busy timeout, the unique request_id, the conditional status flip.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { ZProposalListRequest } from "@solserver/contracts";
import { proposalCountDrift } from "@solserver/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openControlPlane } from "../src/control-plane";
import { listProposals, parseInput, respondToTurn } from "../src/index";
import { openTestControlPlane, type TTestActor } from "../src/testing";

const run = promisify(execFile);
const WORKERS = 4;
const PROPOSALS = 12;
const tsx = path.resolve(import.meta.dirname, "../../../node_modules/.bin/tsx");
const worker = path.resolve(import.meta.dirname, "fixtures/race-worker.ts");

type TReport = { turns: string[]; won: string[]; conflicts: number; errors: string[] };

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let owner: TTestActor;
const proposalIds: string[] = [];

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "multi-process" });
  owner = await opened.account("user");
  for (let i = 0; i < PROPOSALS; i++) {
    const turn = await respondToTurn(opened.as(owner), {
      request_id: `seed-${i}`,
      message: `Remember that region ${i} runs on its own cluster.`,
    });
    proposalIds.push(...turn.ui_hints.proposal_previews.map((p) => p.proposal_id));
  }
  await opened.db.$disconnect();
});
afterAll(() => opened?.database.cleanup());

describe("four processes racing on one database file", () => {
  it("store each turn once, land each promotion exactly once, and never fail on a lock", {
    timeout: 120_000,
  }, async () => {
    expect(proposalIds).toHaveLength(PROPOSALS);
    const outputs = await Promise.all(
      Array.from({ length: WORKERS }, (_, i) =>
        run(tsx, [worker, opened.database.url, String(i), owner.userId, proposalIds.join(",")], { timeout: 100_000 }),
      ),
    );
    const reports = outputs.map((o) => JSON.parse(o.stdout) as TReport);

    expect(reports.flatMap((r) => r.errors)).toEqual([]);
    // Every worker saw the same five responses: stored once, replayed by the others.
    for (const r of reports) expect(r.turns).toEqual(reports[0]?.turns);
    // Each proposal was won by exactly one worker; every other attempt was a CONFLICT.
    const won = reports.flatMap((r) => r.won).sort();
    expect(won).toEqual([...proposalIds].sort());
    expect(reports.reduce((n, r) => n + r.conflicts, 0)).toBe(PROPOSALS * (WORKERS - 1));

    const { deps, db } = await openControlPlane({ databaseUrl: opened.database.url });
    try {
      expect(await db.promotionEvent.count()).toBe(PROPOSALS);
      expect(await db.cfb.count()).toBe(PROPOSALS);
      expect(await db.packet.count({ where: { requestId: { startsWith: "race-turn-" } } })).toBe(5);
      // A worker that lost the request_id race rolled its whole turn back: on SQLite its ids too,
      // so the packet sequence has no gaps; on PostgreSQL ids are taken like a sequence, outside
      // the transaction, so a lost turn leaves a gap and never a duplicate.
      const packets = await db.idSequence.findUniqueOrThrow({ where: { name: "packet" } });
      if (opened.database.dialect === "sqlite") expect(packets.value).toBe(await db.packet.count());
      else {
        const numbers = (await db.packet.findMany({ select: { id: true } })).map((p) => Number(p.id.slice(2)));
        expect(new Set(numbers).size).toBe(numbers.length);
        expect(Math.max(...numbers)).toBeLessThanOrEqual(packets.value);
      }
      const approved = await listProposals(
        { deps, caller: owner },
        parseInput(ZProposalListRequest, { status: "approved", limit: 100 }),
      );
      expect(approved.items.map((p) => p.proposal_id).sort()).toEqual([...proposalIds].sort());
      // The queue's counts, kept by the racing writers (issue 20), equal a recount.
      expect(await proposalCountDrift(db)).toEqual([]);
      expect(approved.counts.approved).toBe(PROPOSALS);
    } finally {
      await db.$disconnect();
    }
  });
});
