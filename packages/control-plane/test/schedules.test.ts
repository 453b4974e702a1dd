// The Umbra beat on a schedule, on a real SQLite file: Jam editors set it (validated, naming the
// field); a due tick starts the beat as the editor who saved it and it pauses at its checkpoint;
// no two beats at once (an occurrence that finds one still open is skipped, naming it); of two
// ticks on one due occurrence exactly one starts a run, in one process and across processes; a
// tick before the due time, or on a disabled schedule, does nothing; missed occurrences run once.
// Two control planes in one process would be two connections whose synchronous SQLite busy wait
// blocks the event loop both need (see multi-process.test.ts), so the race between servers is
// run as separate `pnpm workflow tick` processes, as it happens in a deployment.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import {
  isDomainError,
  type TScheduleUpdateRequest,
  ZScheduleGetRequest,
  ZScheduleUpdateRequest,
  ZWorkflowRunListRequest,
} from "@solserver/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  decideWorkflow,
  getSchedule,
  getWorkflowRun,
  listAudit,
  listWorkflowRuns,
  parseInput,
  startWorkflow,
  tickSchedules,
  updateSchedule,
} from "../src/index";
import { openTestControlPlane, type TTestActor } from "../src/testing";
import { runWorkflowCli } from "../src/workflows/cli";
import { tickLines } from "../src/workflows/tick-lines";
import { barrier } from "./support/barrier";

const run = promisify(execFile);
const tsx = path.resolve(import.meta.dirname, "../../../node_modules/.bin/tsx");
const cliScript = path.resolve(import.meta.dirname, "../scripts/workflow.ts");
const tickWorker = path.resolve(import.meta.dirname, "fixtures/tick-worker.ts");

const DAY = 86_400_000;
let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let jam: TTestActor;
let user: TTestActor;

const schedule = () => getSchedule(opened.as(jam), parseInput(ZScheduleGetRequest, {}));
const save = (input: Omit<TScheduleUpdateRequest, "workflow">) =>
  updateSchedule(opened.as(jam), parseInput(ZScheduleUpdateRequest, input));
const scheduledRuns = () =>
  opened.db.workflowRun.findMany({ where: { startedVia: "schedule" }, orderBy: { id: "asc" } });
const failure = (promise: Promise<unknown>) => promise.then(() => null).catch((e: unknown) => e);
/** The occurrence due at `due` as the schedule lists it (ticks here use many clocks, so not runs[0]). */
const occurrence = async (due: Date | string) =>
  (await schedule()).runs.find((r) => r.due_ts === new Date(due).toISOString());

/** Aborts every beat still open, so each test starts with none under way. */
async function abortOpenBeats(): Promise<void> {
  for (const status of ["awaiting_decision", "running"] as const) {
    for (const r of (
      await listWorkflowRuns(opened.as(jam), parseInput(ZWorkflowRunListRequest, { status, limit: 100 }))
    ).items) {
      if (r.status === "awaiting_decision") {
        await decideWorkflow(opened.as(jam), { run_id: r.run_id, version: r.version, label: "Abort" });
      } else {
        await opened.db.workflowRun.update({ where: { id: r.run_id }, data: { status: "aborted" } });
      }
    }
  }
}

/** A daily schedule saved now; its next due time. */
async function dailyDue(time = "06:30"): Promise<Date> {
  const saved = await save({ enabled: true, cadence: "daily", time_of_day: time });
  expect(saved.next_run_ts).not.toBeNull();
  return new Date(saved.next_run_ts as string);
}

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "schedules" });
  jam = await opened.account("jam");
  user = await opened.account("user");
});
afterAll(async () => opened?.close());
beforeEach(async () => {
  await abortOpenBeats();
});

describe("editing the schedule", () => {
  it("starts unset: off, daily at 06:00 UTC, no next run, no occurrences", async () => {
    const fresh = await openTestControlPlane({ label: "schedules-fresh" });
    try {
      const editor = await fresh.account("jam");
      expect(await getSchedule(fresh.as(editor), parseInput(ZScheduleGetRequest, {}))).toEqual({
        workflow: "umbra-beat",
        enabled: false,
        cadence: "daily",
        time_of_day: "06:00",
        weekday: null,
        next_run_ts: null,
        run_as_email: null,
        updated_ts: null,
        runs: [],
      });
    } finally {
      await fresh.close();
    }
  });

  it("saves a weekly schedule as the editor, with the next occurrence computed from now", async () => {
    const before = Date.now();
    const saved = await save({ enabled: true, cadence: "weekly", time_of_day: "04:15", weekday: 3 });
    expect(saved).toMatchObject({ enabled: true, cadence: "weekly", time_of_day: "04:15", weekday: 3 });
    expect(saved.run_as_email).toBe(jam.email);
    const next = new Date(saved.next_run_ts as string);
    expect(next.getUTCDay()).toBe(3);
    expect(next.toISOString().slice(11, 16)).toBe("04:15");
    expect(next.getTime()).toBeGreaterThan(before);
    expect(next.getTime() - before).toBeLessThanOrEqual(7 * DAY);
    expect(await schedule()).toEqual(saved);
    // Scheduled runs act as whoever saved it last: the edit is audited with what it set.
    const audit = await listAudit(opened.as(jam), { target_type: "schedule", limit: 10 });
    expect(audit.items[0]).toMatchObject({
      actor_email: jam.email,
      action: "schedule.update",
      target_id: "umbra-beat",
      details: { enabled: true, cadence: "weekly", time_of_day: "04:15", weekday: 3, next_run_ts: saved.next_run_ts },
    });
  });

  it("disabling keeps the settings and clears the next run", async () => {
    await save({ enabled: true, cadence: "daily", time_of_day: "07:00" });
    const off = await save({ enabled: false, cadence: "daily", time_of_day: "07:00" });
    expect(off).toMatchObject({ enabled: false, cadence: "daily", time_of_day: "07:00", next_run_ts: null });
  });

  it.each<[string, unknown, string, string]>([
    [
      "24:00",
      { enabled: true, cadence: "daily", time_of_day: "24:00" },
      "time_of_day",
      'time_of_day: must be HH:MM in UTC, e.g. "06:30"',
    ],
    [
      "7:5",
      { enabled: true, cadence: "daily", time_of_day: "7:5" },
      "time_of_day",
      'time_of_day: must be HH:MM in UTC, e.g. "06:30"',
    ],
    [
      "weekly without a weekday",
      { enabled: true, cadence: "weekly", time_of_day: "06:30" },
      "weekday",
      "weekday: is required for a weekly schedule (0 = Sunday … 6 = Saturday)",
    ],
    [
      "weekday 7",
      { enabled: true, cadence: "weekly", time_of_day: "06:30", weekday: 7 },
      "weekday",
      "weekday: must be a whole number from 0 (Sunday) to 6 (Saturday)",
    ],
    [
      "a daily schedule naming a day",
      { enabled: true, cadence: "daily", time_of_day: "06:30", weekday: 2 },
      "weekday",
      "weekday: only a weekly schedule names a day; leave it out for a daily one",
    ],
    [
      "hourly",
      { enabled: true, cadence: "hourly", time_of_day: "06:30" },
      "cadence",
      'cadence: must be "daily" or "weekly"',
    ],
    [
      "an unknown field",
      { enabled: true, cadence: "daily", time_of_day: "06:30", every: 2 },
      "every",
      "every: is not a known field",
    ],
    ["enabled missing", { cadence: "daily", time_of_day: "06:30" }, "enabled", "enabled: must be true or false"],
    [
      "another workflow",
      { workflow: "other", enabled: true, cadence: "daily", time_of_day: "06:30" },
      "workflow",
      "workflow: must be one of umbra-beat",
    ],
  ])("refuses %s, naming the field, and changes nothing", async (_, input, field, message) => {
    const before = await schedule();
    // The transport parses the input: the refusal comes from parseInput, as in every transport.
    const error = await failure(
      Promise.resolve().then(() =>
        updateSchedule(opened.as(jam), parseInput(ZScheduleUpdateRequest, input as TScheduleUpdateRequest)),
      ),
    );
    expect(isDomainError(error) && error.code).toBe("BAD_INPUT");
    expect(isDomainError(error) && error.field).toBe(field);
    expect((error as Error).message).toBe(message);
    expect(await schedule()).toEqual(before);
  });

  it("is Jam editors' work: a user is FORBIDDEN, nobody signed in is UNAUTHENTICATED, nothing changes", async () => {
    const before = await schedule();
    const input = { enabled: true, cadence: "daily", time_of_day: "03:00" } as const;
    for (const [actor, code] of [
      [user, "FORBIDDEN"],
      [{ kind: "anonymous" } as const, "UNAUTHENTICATED"],
    ] as const) {
      for (const call of [
        () => getSchedule(opened.as(actor), parseInput(ZScheduleGetRequest, {})),
        () => updateSchedule(opened.as(actor), parseInput(ZScheduleUpdateRequest, input)),
      ]) {
        // Anonymous is refused where a transport narrows the caller (opened.as, as the tRPC tier).
        const error = await failure(Promise.resolve().then(call));
        expect(isDomainError(error) && error.code).toBe(code);
      }
    }
    // That the role is checked before the input (a user learns nothing from a bad field) is the
    // transport's order: apps/web/test/routers.test.ts › "workflows.setSchedule".
    expect(await schedule()).toEqual(before);
  });
});

describe("ticks", () => {
  it("a due tick starts the beat as the editor, paused at its checkpoint, and records it", async () => {
    const due = await dailyDue("06:30");
    const savedAt = (await schedule()).updated_ts;
    const report = await tickSchedules(opened.deps, due);
    expect(report.handled).toHaveLength(1);
    const [item] = report.handled;
    expect(item).toMatchObject({ workflow: "umbra-beat", due_ts: due.toISOString(), outcome: "started", detail: null });
    expect(item?.next_run_ts).toBe(new Date(due.getTime() + DAY).toISOString());
    const run = await getWorkflowRun(opened.as(jam), { run_id: item?.run_id as string });
    expect(run).toMatchObject({ name: "umbra-beat", status: "awaiting_decision", started_via: "schedule" });
    expect(run.started_by).toBe(jam.email);
    expect(run.checkpoint?.prompt).toMatch(/^Review \d+ proposals before promoting\?$/);

    expect((await schedule()).next_run_ts).toBe(item?.next_run_ts);
    // A tick is not a save: the schedule still says when an editor last saved it.
    expect((await schedule()).updated_ts).toBe(savedAt);
    expect(await occurrence(due)).toEqual({
      due_ts: due.toISOString(),
      started_ts: due.toISOString(),
      outcome: "started",
      run_id: run.run_id,
      run_status: "awaiting_decision",
      detail: null,
    });
    expect(tickLines(report)).toEqual([
      `umbra-beat (due ${due.toISOString()}): started ${run.run_id}; next ${item?.next_run_ts}`,
    ]);

    // A person decides it like any other run; the occurrence shows where the run stands now.
    await decideWorkflow(opened.as(jam), { run_id: run.run_id, version: run.version, label: "Abort" });
    expect((await occurrence(due))?.run_status).toBe("aborted");
  });

  it("no two beats at once: the next occurrence while the run still awaits a decision is skipped, naming it", async () => {
    const due = await dailyDue("05:00");
    const first = (await tickSchedules(opened.deps, due)).handled[0];
    expect(first?.outcome).toBe("started");
    const runsBefore = (await scheduledRuns()).length;

    const nextDue = new Date(first?.next_run_ts as string);
    const second = await tickSchedules(opened.deps, nextDue);
    expect(second.handled).toEqual([
      {
        workflow: "umbra-beat",
        due_ts: nextDue.toISOString(),
        outcome: "skipped_overlap",
        run_id: null,
        detail: `${first?.run_id} was still awaiting decision`,
        next_run_ts: new Date(nextDue.getTime() + DAY).toISOString(),
      },
    ]);
    expect(await scheduledRuns()).toHaveLength(runsBefore);
    expect(await occurrence(nextDue)).toMatchObject({
      outcome: "skipped_overlap",
      run_id: null,
      run_status: null,
      detail: `${first?.run_id} was still awaiting decision`,
    });
    expect(await occurrence(due)).toMatchObject({ outcome: "started", run_id: first?.run_id });

    // A beat started by hand counts the same: the schedule starts nothing while it is open.
    await abortOpenBeats();
    const manual = await startWorkflow(opened.as(jam), { workflow: "umbra-beat" });
    const third = await tickSchedules(opened.deps, new Date(nextDue.getTime() + DAY));
    expect(third.handled[0]).toMatchObject({
      outcome: "skipped_overlap",
      detail: `${manual.run_id} was still awaiting decision`,
    });
  });

  it("two concurrent ticks on the same due occurrence start exactly one run (one control plane)", async () => {
    const due = await dailyDue("04:00");
    const before = (await scheduledRuns()).length;
    // A barrier on the claim: both ticks have read the occurrence as due before either claims it,
    // so the conditional UPDATE, not the scheduler's timing, decides which one starts the run.
    const schedules = opened.deps.repos.schedules;
    const bothRead = barrier(2);
    const racing = {
      ...opened.deps,
      repos: {
        ...opened.deps.repos,
        schedules: {
          ...schedules,
          claim: async (input: Parameters<typeof schedules.claim>[0]) => {
            await bothRead();
            return schedules.claim(input);
          },
        },
      },
    };
    const reports = await Promise.all([tickSchedules(racing, due), tickSchedules(racing, due)]);
    expect(reports.flatMap((r) => r.handled.map((h) => h.outcome)).sort()).toEqual(["claimed_elsewhere", "started"]);
    expect(await scheduledRuns()).toHaveLength(before + 1);
    expect(await opened.db.workflowScheduleRun.count({ where: { dueAt: due } })).toBe(1);
  });

  it("a tick before the due time does nothing", async () => {
    const due = await dailyDue("02:00");
    const before = await schedule();
    const report = await tickSchedules(opened.deps, new Date(due.getTime() - 1));
    expect(report.handled).toEqual([]);
    expect(report.upcoming).toEqual([
      { workflow: "umbra-beat", schedule: "daily at 02:00 UTC", next_run_ts: due.toISOString() },
    ]);
    expect(tickLines(report)).toEqual([`nothing due: umbra-beat daily at 02:00 UTC, next ${due.toISOString()}`]);
    expect(await schedule()).toEqual(before);
  });

  it("a disabled schedule never runs, even with a due time left in the row", async () => {
    const due = await dailyDue("01:00");
    await save({ enabled: false, cadence: "daily", time_of_day: "01:00" });
    // As if the row still held a due time: the claim itself requires the schedule to be enabled.
    await opened.db.workflowSchedule.update({ where: { workflow: "umbra-beat" }, data: { nextRunAt: due } });
    const before = (await scheduledRuns()).length;
    for (const now of [due, new Date(due.getTime() + 30 * DAY)]) {
      const report = await tickSchedules(opened.deps, now);
      expect(report.handled).toEqual([]);
      expect(tickLines(report)).toEqual(["nothing due: no workflow schedule is enabled"]);
    }
    expect(await scheduledRuns()).toHaveLength(before);
    expect(await opened.db.workflowScheduleRun.count({ where: { dueAt: due } })).toBe(0);
  });

  it("missed occurrences (the server was down for days) run once, and the next is computed from now", async () => {
    const due = await dailyDue("00:30");
    const before = (await scheduledRuns()).length;
    const late = new Date(due.getTime() + 5 * DAY + 3 * 3_600_000);
    const report = await tickSchedules(opened.deps, late);
    expect(report.handled.map((h) => h.outcome)).toEqual(["started"]);
    expect(report.handled[0]?.next_run_ts).toBe(new Date(due.getTime() + 6 * DAY).toISOString());
    expect((await tickSchedules(opened.deps, late)).handled).toEqual([]);
    expect(await scheduledRuns()).toHaveLength(before + 1);
  });

  it("an editor who lost the Jam role is not acted for: the occurrence fails with the reason", async () => {
    const editor = await opened.account("jam");
    const saved = await updateSchedule(
      opened.as(editor),
      parseInput(ZScheduleUpdateRequest, { enabled: true, cadence: "daily", time_of_day: "08:00" }),
    );
    await opened.db.user.update({ where: { id: editor.userId }, data: { role: "user" } });
    const due = new Date(saved.next_run_ts as string);
    const before = (await scheduledRuns()).length;
    const [item] = (await tickSchedules(opened.deps, due)).handled;
    expect(item).toMatchObject({
      outcome: "failed",
      run_id: null,
      detail: `the schedule runs as ${editor.email}, who is no longer a Jam editor; a Jam editor must save it again`,
    });
    expect(await scheduledRuns()).toHaveLength(before);
    expect(await occurrence(due)).toMatchObject({ outcome: "failed", run_id: null, run_status: null });
    // The schedule goes on: the next occurrence is set.
    expect((await schedule()).next_run_ts).toBe(new Date(due.getTime() + DAY).toISOString());
  });
});

describe("pnpm workflow tick", () => {
  const io = (lines: string[]) => ({
    out: (l: string) => lines.push(l),
    err: (l: string) => lines.push(`ERR ${l}`),
    cwd: process.cwd(),
    env: { DATABASE_URL: opened.database.url },
  });

  it("says what happened, with exit code 0", async () => {
    const due = await dailyDue("09:00");
    // Due now (the CLI ticks at the real time): as if the server had been down since then.
    const past = new Date(Date.now() - 60_000);
    await opened.db.workflowSchedule.update({ where: { workflow: "umbra-beat" }, data: { nextRunAt: past } });
    const lines: string[] = [];
    expect(await runWorkflowCli(["tick"], io(lines))).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^umbra-beat \\(due ${past.toISOString()}\\): started WR-\\d+; next `));
    const again: string[] = [];
    expect(await runWorkflowCli(["tick"], io(again))).toBe(0);
    expect(again).toEqual([`nothing due: umbra-beat daily at 09:00 UTC, next ${due.toISOString()}`]);
  });

  it("two `pnpm workflow tick` processes at once start exactly one run", async () => {
    await dailyDue("10:00");
    const past = new Date(Date.now() - 60_000);
    await opened.db.workflowSchedule.update({ where: { workflow: "umbra-beat" }, data: { nextRunAt: past } });
    const before = (await scheduledRuns()).length;
    const env = { ...process.env, DATABASE_URL: opened.database.url };
    const outputs = await Promise.all([0, 1].map(() => run(tsx, [cliScript, "tick"], { env, timeout: 100_000 })));
    const lines = outputs.map((o) => o.stdout.trim());
    expect(lines.filter((l) => / started WR-\d+/.test(l))).toHaveLength(1);
    expect(await scheduledRuns()).toHaveLength(before + 1);
    expect(await opened.db.workflowScheduleRun.count({ where: { dueAt: past } })).toBe(1);
  });
});

describe("servers racing on one database file", () => {
  it("three processes ticking the same due occurrence at the same moment start exactly one run", async () => {
    const due = await dailyDue("11:00");
    const before = (await scheduledRuns()).length;
    // Far enough ahead for every worker to start tsx and open its connection first.
    const startAt = Date.now() + 4_000;
    const outputs = await Promise.all(
      [0, 1, 2].map(() =>
        run(tsx, [tickWorker, opened.database.url, String(startAt), due.toISOString()], { timeout: 100_000 }),
      ),
    );
    const outcomes = outputs.flatMap((o) => JSON.parse(o.stdout) as string[]);
    expect(outcomes.filter((o) => o === "started")).toHaveLength(1);
    // Every other worker saw the occurrence due and lost the claim, or saw it already moved on.
    expect(outcomes.filter((o) => o !== "started" && o !== "claimed_elsewhere")).toEqual([]);
    expect(await scheduledRuns()).toHaveLength(before + 1);
    expect(await opened.db.workflowScheduleRun.count({ where: { dueAt: due } })).toBe(1);
  });
});
