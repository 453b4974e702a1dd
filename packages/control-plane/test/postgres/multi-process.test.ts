// Several server processes on ONE PostgreSQL database, as a deployment behind a load balancer runs
// them: each worker (race-worker.ts) opens its own control plane and connection pool, and the
// workers are released at the same moment ("go") on the same rows while each also sends chat
// turns as load. With 2 and with 4 processes: racing promotions and workflow decisions have
// exactly one winner and the rest are CONFLICT with nothing written; each schedule occurrence is
// claimed and handled once; a burst of turns from every process is stored whole; a per-account
// chat limit is shared by all processes; concurrent memento writes and procedure turns lose no
// update. The database is checked after every race.
// Included only when SOLSERVER_TEST_POSTGRES_URL names a server (vitest.config.ts).
import { type TChatRespondResponse, ZScheduleUpdateRequest, ZWorkflowRunListRequest } from "@solserver/contracts";
import { proposalCountDrift } from "@solserver/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  decideWorkflow,
  getMemento,
  getThreadProcedure,
  getWorkflowRun,
  listWorkflowRuns,
  parseInput,
  promoteProposal,
  respondToTurn,
  startWorkflow,
  updateSchedule,
} from "../../src/index";
import { openTestControlPlane } from "../../src/testing";
import type { TOutcome, TTask, TWorkerActor } from "./race-protocol";
import { startWorkers, type TAnswer, type TPart, type TWorkerPool } from "./worker-pool";

const WORKERS = 4;
/** Chat turns each worker sends on its own thread during every race. */
const LOAD_TURNS = 2;
const DAY = 86_400_000;
const COMPLAINT = "The fresh water system stopped working this morning.";

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let pool: TWorkerPool;
/** Jam editors, one per worker: who decided what is on record. */
let editors: TWorkerActor[];
/** The account whose turns make the proposals, threads and mementos raced on. */
let owner: TWorkerActor;
/** One account per worker for its load turns (each on its own thread). */
let loaders: TWorkerActor[];
let requests = 0;

/** An account as a worker acts for it (without the password the test helper adds). */
async function actor(role: "user" | "jam"): Promise<TWorkerActor> {
  const { password: _, ...a } = await opened.account(role);
  return a;
}

/** A chat turn of the owner, in this (the parent) process. */
function turn(message: string, extra: { thread_id?: string; procedure?: "water_pump" } = {}) {
  return respondToTurn(opened.as(owner), { request_id: `parent-${++requests}`, message, ...extra });
}

/** Part i of a race of n workers: its task, with load turns of its own. */
function parts<K extends TTask["kind"]>(n: number, task: (i: number) => Extract<TTask, { kind: K }>): TPart<K>[] {
  return Array.from({ length: n }, (_, i) => ({
    task: task(i),
    load: { actor: loaders[i] as TWorkerActor, turns: LOAD_TURNS },
  }));
}

/** Every load turn of every worker landed: racing never costs an unrelated turn. */
function expectLoadLanded(answers: TAnswer<TTask["kind"]>[]): void {
  const load = answers.flatMap((a) => a.load);
  expect(load.filter((o) => !o.ok)).toEqual([]);
  expect(load).toHaveLength(answers.length * LOAD_TURNS);
}

function failed<T>(o: TOutcome<T>): Extract<TOutcome<T>, { ok: false }> | null {
  return o.ok ? null : o;
}

/** first, first+1, …: what the versions written one after another must be. */
const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);

/** Aborts every beat still open, so a test that starts or schedules one starts from none. */
async function abortOpenBeats(): Promise<void> {
  const jam = opened.as(editors[0] as TWorkerActor);
  for (const status of ["awaiting_decision", "running"] as const) {
    const open = await listWorkflowRuns(jam, parseInput(ZWorkflowRunListRequest, { status, limit: 100 }));
    for (const r of open.items) {
      if (r.status === "awaiting_decision") {
        await decideWorkflow(jam, { run_id: r.run_id, version: r.version, label: "Abort" });
      } else {
        await opened.db.workflowRun.update({ where: { id: r.run_id }, data: { status: "aborted" } });
      }
    }
  }
}

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "multi-process", limits: { chatTurnsPerMinute: 1_000_000 } });
  // The point of this file is PostgreSQL's locking across processes; on SQLite it proves nothing.
  expect(opened.database.dialect).toBe("postgresql");
  editors = [];
  loaders = [];
  for (let i = 0; i < WORKERS; i++) {
    editors.push(await actor("jam"));
    loaders.push(await actor("user"));
  }
  owner = await actor("user");
  pool = await startWorkers(WORKERS, opened.database.url);
}, 400_000);

afterAll(async () => {
  await pool?.stop();
  await opened?.close();
});

// Subjects that share no content words, so no two proposals are twins (a twin is folded with its
// lead) and none restates another's CFB.
const SUBJECTS = [
  "the zanzibar rota belongs to quokka team",
  "espresso machines get descaled every second friday",
  "bicycles are locked inside the courtyard cage",
  "office plants are watered on mondays",
  "library loans are signed on the sheet near the door",
  "spare toner sits in the grey cabinet",
];

// Statements for the burst's proposals, sharing no content words with each other or the above.
const BURST_SUBJECTS = [
  "the lighthouse lamp is polished every tuesday",
  "kayaks are stored upside down in shed nine",
  "the choir rehearses scales before breakfast",
  "glassblowing furnaces cool over the weekend",
  "beekeepers inspect hives when lilacs bloom",
  "the observatory dome rotates clockwise only",
];

/** `count` chat questions (no proposals), told apart by `tag`. */
const questions = (count: number, tag: string) =>
  range(1, count).map((k) => `Question ${k} of ${tag}: how do I reset the pump breaker?`);

describe.each([2, 4])("%i server processes on one PostgreSQL database", (n) => {
  it("racing promotions: each proposal is decided exactly once, every other attempt is CONFLICT", async () => {
    const ids: string[] = [];
    for (const subject of SUBJECTS.slice(n === 2 ? 0 : 3, n === 2 ? 3 : 6)) {
      const response = await turn(`We decided that ${subject}.`);
      expect(response.ui_hints.proposal_previews).toHaveLength(1);
      ids.push(response.ui_hints.proposal_previews[0]?.proposal_id as string);
    }
    const cfbsBefore = await opened.db.cfb.count();
    const action = (i: number) => (i % 2 === 0 ? "approve_create" : "reject");

    // Each worker starts at another proposal, so each is raced while others are being decided.
    const answers = await pool.race(
      parts(n, (i) => ({
        kind: "promote",
        actor: editors[i] as TWorkerActor,
        proposals: ids.map((_, k) => ({ proposal_id: ids[(k + i) % ids.length] as string, action: action(i) })),
      })),
    );
    expectLoadLanded(answers);

    let approvals = 0;
    for (const id of ids) {
      const tries = answers.flatMap((a, worker) =>
        a.result.filter((r) => r.proposal_id === id).map((r) => ({ worker, outcome: r.outcome })),
      );
      expect(tries).toHaveLength(n);
      const won = tries.filter((t) => t.outcome.ok);
      expect(won, `winners of ${id}`).toHaveLength(1);
      const winner = won[0] as (typeof won)[number];
      for (const lost of tries.filter((t) => !t.outcome.ok)) {
        expect(lost.outcome, JSON.stringify(lost.outcome)).toMatchObject({
          ok: false,
          code: "CONFLICT",
          field: "proposal_id",
        });
      }
      const winnerAction = action(winner.worker);
      if (winnerAction === "approve_create") approvals++;

      const proposal = await opened.db.umbraProposal.findUniqueOrThrow({ where: { id } });
      expect(proposal.status).toBe(winnerAction === "reject" ? "rejected" : "approved");
      const events = await opened.db.promotionEvent.findMany({ where: { proposalId: id } });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        id: winner.outcome.ok ? winner.outcome.value.promotion_id : "",
        action: winnerAction,
        decidedById: editors[winner.worker]?.userId,
        reopenedAt: null,
      });
      const audit = await opened.db.auditEvent.findMany({ where: { targetType: "proposal", targetId: id } });
      expect(audit.map((e) => [e.action, e.actorUserId])).toEqual([
        [`proposal.${winnerAction}`, editors[winner.worker]?.userId],
      ]);
    }
    expect(await opened.db.cfb.count()).toBe(cfbsBefore + approvals);
    // The review queue's counts, kept by the racing writers, equal a recount.
    expect(await proposalCountDrift(opened.db)).toEqual([]);
  });

  it("racing workflow decisions: exactly one lands, the others are CONFLICT", async () => {
    await abortOpenBeats();
    const jam = opened.as(editors[0] as TWorkerActor);
    const run = await startWorkflow(jam, { workflow: "umbra-beat" });
    expect(run.status).toBe("awaiting_decision");
    // A different option per worker, so the stored decision names who won.
    const choices = [
      { label: "Continue", decision: "continue" },
      { label: "Abort", decision: "abort" },
      { label: "Repeat resolve", decision: "repeat_phase" },
      { label: "Skip promotion", decision: "skip_phases", feedback: "not this week" },
    ] as const;
    const answers = await pool.race(
      parts(n, (i) => {
        const choice = choices[i] as (typeof choices)[number];
        return {
          kind: "decide",
          actor: editors[i] as TWorkerActor,
          run_id: run.run_id,
          version: run.version,
          label: choice.label,
          ...("feedback" in choice ? { feedback: choice.feedback } : {}),
        };
      }),
    );
    expectLoadLanded(answers);

    const landed = answers.flatMap((a, i) => (a.result.ok ? [{ i, value: a.result.value }] : []));
    expect(landed, JSON.stringify(answers.map((a) => a.result))).toHaveLength(1);
    for (const a of answers) {
      if (!a.result.ok) expect(a.result).toMatchObject({ code: "CONFLICT", field: "version" });
    }
    const winner = landed[0] as (typeof landed)[number];
    const final = await getWorkflowRun(jam, { run_id: run.run_id });
    expect(final.decisions).toHaveLength(1);
    expect(final.decisions[0]?.decision).toBe(choices[winner.i]?.decision);
    // Nobody moved the run after the winner drove it on.
    expect({ status: final.status, version: final.version }).toEqual(winner.value);
    await abortOpenBeats();
  });

  it("ticking schedules: every occurrence is claimed and handled once, and one beat starts", async () => {
    await abortOpenBeats();
    const saved = await updateSchedule(
      opened.as(editors[0] as TWorkerActor),
      parseInput(ZScheduleUpdateRequest, { enabled: true, cadence: "daily", time_of_day: n === 2 ? "03:10" : "03:40" }),
    );
    const due = new Date(saved.next_run_ts as string);
    // Each worker ticks at the due time and on the two next days: workers that run ahead claim the
    // later occurrences, or find the earlier one still due and take it (missed ones run once).
    const clocks = range(0, 3).map((d) => new Date(due.getTime() + d * DAY).toISOString());
    const runsBefore = await opened.db.workflowRun.count({ where: { startedVia: "schedule" } });
    const occurrencesBefore = (await opened.db.workflowScheduleRun.findMany({ select: { id: true } })).map((r) => r.id);

    const answers = await pool.race(parts(n, () => ({ kind: "tick", clocks })));
    expectLoadLanded(answers);

    const ticks = answers.flatMap((a) => a.result);
    expect(ticks.map(failed).filter(Boolean)).toEqual([]);
    const items = ticks.flatMap((t) => (t.ok ? t.value : []));
    const handled = items.filter((h) => h.outcome !== "claimed_elsewhere");
    // One handler per occurrence; every other tick that saw it due lost the claim.
    const dues = [...new Set(items.map((h) => h.due_ts))].sort();
    expect(handled.map((h) => h.due_ts).sort()).toEqual(dues);
    expect(dues[0]).toBe(due.toISOString());
    // Never two beats at once: one occurrence starts it, the others find it open.
    expect(handled.map((h) => h.outcome).sort()).toEqual(
      ["started", ...handled.slice(1).map(() => "skipped_overlap")].sort(),
    );

    // The occurrences this race recorded: one row each, saying what its one handler did.
    const rows = await opened.db.workflowScheduleRun.findMany({
      where: { id: { notIn: occurrencesBefore } },
      orderBy: { dueAt: "asc" },
    });
    expect(rows.map((r) => [r.dueAt.toISOString(), r.outcome, r.runId])).toEqual(
      handled.sort((a, b) => a.due_ts.localeCompare(b.due_ts)).map((h) => [h.due_ts, h.outcome, h.run_id]),
    );
    expect(await opened.db.workflowRun.count({ where: { startedVia: "schedule" } })).toBe(runsBefore + 1);
    await updateSchedule(
      opened.as(editors[0] as TWorkerActor),
      parseInput(ZScheduleUpdateRequest, { enabled: false, cadence: "daily", time_of_day: "03:10" }),
    );
    await abortOpenBeats();
  });

  it("a burst of chat turns from every process: each turn is stored once, none is refused", async () => {
    const sender = await actor("user");
    const PER_WORKER = 6;
    // One turn per worker states a decision (a proposal, counted in the sender's queue counts).
    const subjects = BURST_SUBJECTS.slice(n === 2 ? 0 : 2, n === 2 ? 2 : 6);
    const answers = await pool.race(
      parts(n, (i) => ({
        kind: "chat",
        actor: sender,
        messages: [`We decided that ${subjects[i]}.`, ...questions(PER_WORKER - 1, `burst ${n}.${i}`)],
        limit: 1_000_000,
        tag: `burst-${n}-${i}`,
      })),
    );
    const outcomes = answers.flatMap((a) => a.result);
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    expectLoadLanded(answers);
    const packets = outcomes.flatMap((o) => (o.ok ? [o.value.packet_id] : []));
    expect(new Set(packets).size).toBe(n * PER_WORKER);
    expect(await opened.db.packet.count({ where: { callerId: sender.userId } })).toBe(n * PER_WORKER);
    // Ids are taken outside the turn's transaction on PostgreSQL (like a sequence: turns refused
    // in earlier races left gaps), so none was handed out twice and none lies past the counter.
    const counter = await opened.db.idSequence.findUniqueOrThrow({ where: { name: "packet" } });
    const numbers = (await opened.db.packet.findMany({ select: { id: true } })).map((p) => Number(p.id.slice(2)));
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(Math.max(...numbers)).toBeLessThanOrEqual(counter.value);
    // The queue counts the concurrent turns incremented equal a recount.
    const pending = await opened.db.umbraProposal.findMany({
      where: { status: "pending", thread: { ownerId: sender.userId } },
    });
    expect(pending).toHaveLength(n);
    expect(await proposalCountDrift(opened.db)).toEqual([]);
    // Decided, so that the beats of later tests find nothing of these to promote.
    for (const p of pending) {
      await promoteProposal(opened.as(editors[0] as TWorkerActor), { proposal_id: p.id, action: "reject" });
    }
  });

  it("turns racing on one thread from every process, without a version: none fails, each is counted", async () => {
    const first = await turn("Opening the thread the processes share.");
    const before = (await getMemento(opened.as(owner), { thread_id: first.thread_id })).version;
    const PER_WORKER = 4;
    const answers = await pool.race(
      parts(n, (i) => ({
        kind: "chat",
        actor: owner,
        thread_id: first.thread_id,
        messages: questions(PER_WORKER, `one thread ${n}.${i}`),
        limit: 1_000_000,
        tag: `one-thread-${n}-${i}`,
      })),
    );
    const outcomes = answers.flatMap((a) => a.result);
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    expectLoadLanded(answers);
    expect((await getMemento(opened.as(owner), { thread_id: first.thread_id })).version).toBe(before + n * PER_WORKER);
    expect(await opened.db.packet.count({ where: { threadId: first.thread_id } })).toBe(1 + n * PER_WORKER);
  });

  it("a chat limit per account is one budget across all processes", async () => {
    const limited = await actor("user");
    const LIMIT = 5;
    const PER_WORKER = 4;
    const answers = await pool.race(
      parts(n, (i) => ({
        kind: "chat",
        actor: limited,
        messages: questions(PER_WORKER, `limit ${n}.${i}`),
        limit: LIMIT,
        tag: `limit-${n}-${i}`,
      })),
    );
    expectLoadLanded(answers);

    const outcomes = answers.flatMap((a) => a.result);
    expect(outcomes.filter((o) => !o.ok && o.code !== "RATE_LIMITED")).toEqual([]);
    expect(outcomes.filter((o) => o.ok)).toHaveLength(LIMIT);
    expect(await opened.db.packet.count({ where: { callerId: limited.userId } })).toBe(LIMIT);
    // Every attempt was counted, the refused ones too, in one shared window.
    const bucket = await opened.db.rateLimitBucket.findUniqueOrThrow({ where: { key: `chat:user:${limited.userId}` } });
    expect(bucket.count).toBe(n * PER_WORKER);
  });

  describe("mementos", () => {
    let threadId: string;

    it("racing PUTs on one version: exactly one lands, the others are CONFLICT and write nothing", async () => {
      threadId = (await turn("How do I winterize the fresh water lines?")).thread_id;
      const base = await getMemento(opened.as(owner), { thread_id: threadId });
      const answers = await pool.race(
        parts(n, (i) => ({
          kind: "put-memento",
          actor: owner,
          thread_id: threadId,
          version: base.version,
          marker: `race-${n}-${i}`,
        })),
      );
      expectLoadLanded(answers);

      const landed = answers.flatMap((a, i) => (a.result.ok ? [{ i, version: a.result.value.version }] : []));
      expect(landed).toHaveLength(1);
      expect(landed[0]?.version).toBe(base.version + 1);
      for (const a of answers) {
        if (!a.result.ok) expect(a.result).toMatchObject({ code: "CONFLICT", field: "version" });
      }
      const final = await getMemento(opened.as(owner), { thread_id: threadId });
      expect(final.version).toBe(base.version + 1);
      expect(final.memento.shape.decisions).toEqual([...base.memento.shape.decisions, `race-${n}-${landed[0]?.i}`]);
    });

    it("read-modify-write loops that follow the version lose no update", async () => {
      const COUNT = 3;
      const base = await getMemento(opened.as(owner), { thread_id: threadId });
      const answers = await pool.race(
        parts(n, (i) => ({
          kind: "memento-loop",
          actor: owner,
          thread_id: threadId,
          count: COUNT,
          tag: `loop-${n}-${i}`,
        })),
      );
      expectLoadLanded(answers);

      expect(answers.flatMap((a) => a.result.failures)).toEqual([]);
      // Every write landed on its own version: n × COUNT versions, one after another, none shared.
      const versions = answers.flatMap((a) => a.result.versions).sort((x, y) => x - y);
      expect(versions).toEqual(range(base.version + 1, n * COUNT));
      const final = await getMemento(opened.as(owner), { thread_id: threadId });
      expect(final.version).toBe(base.version + n * COUNT);
      // And every write's marker is in the memento once, each worker's in the order it wrote them.
      const added = final.memento.shape.decisions.slice(base.memento.shape.decisions.length);
      expect(final.memento.shape.decisions.slice(0, base.memento.shape.decisions.length)).toEqual(
        base.memento.shape.decisions,
      );
      expect([...added].sort()).toEqual(
        range(0, n)
          .flatMap((i) => range(1, COUNT).map((k) => `loop-${n}-${i}-${k}`))
          .sort(),
      );
      for (let i = 0; i < n; i++) {
        expect(added.filter((m) => m.startsWith(`loop-${n}-${i}-`))).toEqual(
          range(1, COUNT).map((k) => `loop-${n}-${i}-${k}`),
        );
      }
    });
  });

  describe("procedure threads", () => {
    let threadId: string;

    /** The thread's stored procedure version, turns (packets) and memento version. */
    async function stored() {
      const context = await opened.db.conversationContext.findUniqueOrThrow({ where: { threadId } });
      const memento = await opened.db.threadMemento.findUniqueOrThrow({ where: { threadId } });
      return {
        version: context.version,
        packets: await opened.db.packet.count({ where: { threadId } }),
        messages: await opened.db.message.count({ where: { threadId } }),
        memento: memento.version,
      };
    }

    function versionsOf(answers: TAnswer<"procedure-turns">[]): number[] {
      return answers.flatMap((a) => a.result.landed.map((l) => l.version as number)).sort((x, y) => x - y);
    }

    it("turns racing on one version: the stored version counts exactly the turns that landed", async () => {
      const bound: TChatRespondResponse = await turn(COMPLAINT, { procedure: "water_pump" });
      threadId = bound.thread_id;
      expect(bound.procedure?.version).toBe(1);
      const answers = await pool.race(
        parts(n, (i) => ({
          kind: "procedure-turns",
          actor: owner,
          thread_id: threadId,
          count: 1,
          tag: `proc-${n}-${i}`,
          retry: false,
        })),
      );
      expectLoadLanded(answers);

      const landed = versionsOf(answers);
      const refused = answers.flatMap((a) => a.result.refused);
      expect(landed.length + refused.length).toBe(n);
      expect(landed.length).toBeGreaterThanOrEqual(1);
      // A turn that planned on a version another turn moved is refused whole; it reaches the
      // procedure check, or first finds the memento moved three times by the same landed turns.
      for (const r of refused) {
        expect(r).toMatchObject({ code: "CONFLICT" });
        expect(["procedure_version", "version"]).toContain(failed(r)?.field);
      }
      expect(landed).toEqual(range(2, landed.length));
      expect(await stored()).toEqual({
        version: 1 + landed.length,
        packets: 1 + landed.length,
        messages: 2 * (1 + landed.length),
        memento: 1 + landed.length,
      });
      const view = await getThreadProcedure(opened.as(owner), { thread_id: threadId });
      expect(view.version).toBe(1 + landed.length);
    });

    it("turns sent again after CONFLICT until they land lose no update", async () => {
      const COUNT = 2;
      const before = await stored();
      const answers = await pool.race(
        parts(n, (i) => ({
          kind: "procedure-turns",
          actor: owner,
          thread_id: threadId,
          count: COUNT,
          tag: `proc-loop-${n}-${i}`,
          retry: true,
        })),
      );
      expectLoadLanded(answers);

      expect(answers.flatMap((a) => a.result.refused).filter((r) => failed(r)?.code !== "CONFLICT")).toEqual([]);
      expect(versionsOf(answers)).toEqual(range(before.version + 1, n * COUNT));
      const landed = n * COUNT;
      expect(await stored()).toEqual({
        version: before.version + landed,
        packets: before.packets + landed,
        messages: before.messages + 2 * landed,
        memento: before.memento + landed,
      });
    });
  });
});
