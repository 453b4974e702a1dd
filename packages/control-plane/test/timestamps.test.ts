// Timestamps are stored in one text form (packages/db/README.md): every write path binds its
// dates the same way, so SQL compares them as stored (keyset pages, rate-limit windows, due
// schedules, usage windows) and the order is the time order. This test runs the product's writes
// (a turn with a proposal, a promotion, feedback, tokens, a role change, CFB authoring and import,
// a memento PUT, a schedule saved and ticked, a workflow run and decided, a gate evaluation, a
// dismissed trigger, better-auth's own rows) and then reads every DateTime column of every table;
// and it checks that the reader catches a row written in another form.

import { ZFeedbackRequest, ZGateEvaluateRequest, ZScheduleUpdateRequest } from "@solserver/contracts";
import { nonCanonicalTimestamps } from "@solserver/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAccount,
  createCfb,
  createToken,
  decideWorkflow,
  evaluateGate,
  getMemento,
  giveFeedback,
  parseInput,
  promoteProposal,
  putMemento,
  respondToTurn,
  revokeToken,
  setAccountRole,
  startWorkflow,
  tickSchedules,
  updateCfb,
  updateSchedule,
} from "../src/index";
import { openTestControlPlane, type TTestActor, testCfb } from "../src/testing";

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "timestamps", limits: { chatTurnsPerMinute: 1000 } });
  user = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

describe("stored timestamps", () => {
  it("are all in the one canonical form after every kind of write", async () => {
    const asUser = opened.as(user);
    const asJam = opened.as(jam);
    const turn = await respondToTurn(asUser, {
      request_id: "ts-1",
      message: "We decided to rotate the database credentials every quarter.",
    });
    const proposal = turn.ui_hints.proposal_previews[0];
    expect(proposal).toBeDefined();
    await promoteProposal(asUser, { proposal_id: proposal?.proposal_id as string, action: "approve_create" });
    await giveFeedback(
      asUser,
      parseInput(ZFeedbackRequest, { response_id: turn.response_id, polarity: "positive", tag: "clear" }),
    );
    const memento = await getMemento(asUser, { thread_id: turn.thread_id });
    await putMemento(asUser, { thread_id: turn.thread_id, version: memento.version, memento: memento.memento });

    const cfb = await createCfb(
      asJam,
      testCfb({ title: "Backups are verified weekly", summary: "Weekly restore test." }),
    );
    await updateCfb(asJam, {
      cfb_id: cfb.cfb_id,
      version: cfb.version,
      ...testCfb({ title: cfb.title, summary: "Weekly." }),
    });
    await opened.repos.cfbs.import([testCfb({ title: "Imported", summary: "An imported CFB." })]);

    const token = await createToken(asJam, { user_id: user.userId, name: "timestamps" });
    await opened.repos.accounts.byTokenHash(token.prefix, new Date());
    await revokeToken(asJam, { token_id: token.id });
    const other = await createAccount(asJam, {
      email: "timestamps-other@test.local",
      name: "Other",
      password: "timestamps-password-1",
      role: "user",
    });
    await setAccountRole(asJam, { user_id: other.id, role: "jam" });

    await updateSchedule(
      asJam,
      parseInput(ZScheduleUpdateRequest, { enabled: true, cadence: "daily", time_of_day: "00:00" }),
    );
    const report = await tickSchedules(opened.deps, new Date(Date.now() + 2 * 86_400_000));
    const run = report.handled.find((h) => h.run_id)?.run_id;
    if (run) {
      const row = await opened.repos.workflows.get(run);
      await decideWorkflow(asJam, { run_id: run, version: row?.version ?? 1, label: "Abort" });
    } else {
      const started = await startWorkflow(asJam, { workflow: "umbra-beat" });
      await decideWorkflow(asJam, { run_id: started.run_id, version: started.version, label: "Abort" });
    }
    await evaluateGate(
      asUser,
      parseInput(ZGateEvaluateRequest, { baseline: { output: "a" }, candidate: { output: "b" } }),
    );
    for (let i = 0; i < 3; i++)
      await respondToTurn(asUser, { request_id: `ts-q-${i}`, message: "How do we rotate the SSH keys?" });
    const trigger = (await opened.repos.triggers.list(opened.deps.repetitionThresholds, 10))[0];
    if (trigger) await opened.repos.triggers.dismiss(trigger.trigger_id);

    expect(await opened.db.user.count()).toBeGreaterThanOrEqual(3);
    expect(await nonCanonicalTimestamps(opened.db)).toEqual([]);
  });

  it("a row written in another form is caught", async () => {
    await opened.db.$executeRawUnsafe(
      `INSERT INTO "AuditEvent" ("id", "actorUserId", "actorEmail", "via", "action", "targetType", "targetId",
        "details", "createdAt") VALUES ('ts-odd', NULL, 'x@test.local', 'system', 'test', 'cfb', 'CFB-0001', '{}',
        '2026-11-27 05:00:00')`,
    );
    // SQLite keeps the text as written, and the reader catches it. PostgreSQL's timestamptz column
    // stores the instant, so the same statement reads back in the canonical form: nothing to catch.
    expect(await nonCanonicalTimestamps(opened.db)).toEqual(
      opened.database.dialect === "sqlite" ? ["AuditEvent.createdAt = 2026-11-27 05:00:00"] : [],
    );
    const stored = await opened.db.auditEvent.findUniqueOrThrow({
      where: { id: "ts-odd" },
      select: { createdAt: true },
    });
    if (opened.database.dialect === "postgresql")
      expect(stored.createdAt.toISOString()).toBe("2026-11-27T05:00:00.000Z");
  });
});
