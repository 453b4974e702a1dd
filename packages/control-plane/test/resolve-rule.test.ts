// Learning from the reviewers (issue 33), on a real database: agreement counts what resolve
// decided against what the reviewers did; a refit needs 50 approved proposals and says how many
// more; a refitted rule decides resolve from then on, audited, and rolling back restores the
// shipped rule. Only Jam editors may look or act.
import { DECISION_RULE } from "@solserver/resolve";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  activateResolveRule,
  listResolveRules,
  MIN_REFIT_DECISIONS,
  promoteProposal,
  refitResolveRule,
  resolveAgreement,
  respondToTurn,
  startJobWorkers,
  startRefit,
} from "../src/index";
import { openJobQueue } from "../src/jobs/jobs";
import { activeRule } from "../src/services/resolve-rule";
import { openTestControlPlane, scriptedModel, type TTestActor, type TTestSuggestion } from "../src/testing";

let next: TTestSuggestion[] = [];
const scripted = scriptedModel(() => ({ suggestions: next.map((s) => ({ ...s, confidence: 0.8 })) }));
let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let n = 0;

async function propose(s: TTestSuggestion): Promise<string> {
  next = [s];
  const res = await respondToTurn(opened.as(user), { request_id: `rr-${++n}`, message: "We decided." });
  return res.ui_hints.proposal_previews[0]?.proposal_id as string;
}

const subjects = ["microwave", "awning", "furnace", "fridge", "generator", "inverter", "water pump", "slide-out"];

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "resolve-rule", model: scripted, limits: { chatTurnsPerMinute: 1000 } });
  user = await opened.account("user");
  jam = await opened.account("jam");
  // New knowledge approved as new: resolve said create, the reviewer agreed.
  for (const [i, subject] of subjects.entries()) {
    const id = await propose({
      op: "create",
      title: `The ${subject} of trailer ${i}`,
      delta_summary: `Trailer ${i} has its ${subject} serviced by the Reno shop every spring.`,
      tags: [],
      entities: [],
    });
    await promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_create" });
  }
});
afterAll(async () => opened?.close());

describe("resolve and the reviewers", () => {
  it("counts how often resolve's decisions agreed with the reviewers', per domain", async () => {
    const a = await resolveAgreement(opened.as(jam), { limit: 200 });
    expect(a.decided).toBe(subjects.length);
    expect(a.compared + a.reviewed).toBe(subjects.length);
    expect(a.agreed).toBe(a.compared);
    expect(a.per_domain.reduce((s, d) => s + d.compared + d.reviewed, 0)).toBe(subjects.length);
    expect(a.active_rule_id).toBeNull();
  });

  it("refuses a refit on too few decisions, naming how many more it needs", async () => {
    await expect(refitResolveRule(opened.as(jam))).rejects.toMatchObject({
      code: "PRECONDITION_FAILED",
      message: `a refit needs at least ${MIN_REFIT_DECISIONS} approved proposals; ${subjects.length} so far (${MIN_REFIT_DECISIONS - subjects.length} more)`,
    });
  });

  it("keeps the rule deciding now when a refit would not agree better on the held-out decisions", async () => {
    for (let i = 0; i < MIN_REFIT_DECISIONS; i++) {
      const id = await propose({
        op: "create",
        title: `Locker ${i} code`,
        delta_summary: `Locker ${i} in the east wing opens with the code on badge ${i}.`,
        tags: [],
        entities: [],
      });
      await promoteProposal(opened.as(jam), { proposal_id: id, action: "approve_create" });
    }
    const r = await refitResolveRule(opened.as(jam));
    // Every decision was a create the reviewers approved as new: nothing to do better.
    expect(r.kept).toBe(false);
    expect(r.rule_id).toBeNull();
    expect(r.fitted_on + r.checked_on).toBe(MIN_REFIT_DECISIONS + subjects.length);
    expect(r.agreement_after).toBeLessThanOrEqual(r.agreement_before);
    expect(r.message).toMatch(/^kept the rule deciding now/);
    expect(await listResolveRules(opened.as(jam))).toEqual([]);
  });

  it("a refit asked from the page is a job: queued at once, its result the job's output", async () => {
    const queue = await openJobQueue(opened.db, opened.database.url);
    opened.deps.jobs = queue;
    try {
      await expect(startRefit(opened.as(user))).rejects.toMatchObject({ code: "FORBIDDEN" });
      const { job_id } = await startRefit(opened.as(jam));
      const queued = (await queue.get(job_id)) ?? undefined;
      expect(queued).toMatchObject({ name: "resolve-refit", state: "created", data: { by: jam.userId } });
      await startJobWorkers(opened.deps, queue, {
        schedulerIntervalMs: 0,
        pruneIntervalMs: 0,
        firstPruneDelayMs: 0,
        log: () => {},
      });
      const done = await vi.waitFor(
        async () => {
          const job = await queue.get(job_id);
          if (job?.state !== "completed") throw new Error(`the refit is ${job?.state}`);
          return job;
        },
        { timeout: 30_000, interval: 50 },
      );
      expect(done.output).toMatchObject({ kept: false, rule_id: null, fitted_on: expect.any(Number) });
    } finally {
      opened.deps.jobs = undefined;
      await queue.stop();
    }
  });

  it("lets only Jam editors look, refit or roll back", async () => {
    await expect(resolveAgreement(opened.as(user), { limit: 50 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(refitResolveRule(opened.as(user))).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(activateResolveRule(opened.as(user), { rule_id: null })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("decides with the active refitted rule, and rolls back to the shipped one, audited", async () => {
    const strict = { ...DECISION_RULE, bands: { ...DECISION_RULE.bands, low: 0.3, high: 0.95 } };
    const id = await opened.repos.resolveRules.insertActive(
      { rule: strict, fittedOn: 60, checkedOn: 30, agreementBefore: 0.5, agreementAfter: 0.7, createdById: jam.userId },
      {
        actorUserId: jam.userId,
        actorEmail: jam.email,
        via: "cookie",
        action: "resolve_rule.refit",
        targetType: "resolve_rule",
        details: {},
      },
      new Date(),
    );
    expect(await activeRule(opened.deps)).toEqual(strict);
    expect((await resolveAgreement(opened.as(jam), { limit: 50 })).active_rule_id).toBe(id);
    expect((await listResolveRules(opened.as(jam))).map((r) => [r.rule_id, r.active])).toEqual([[id, true]]);

    expect(await activateResolveRule(opened.as(jam), { rule_id: null })).toEqual({ active_rule_id: null });
    expect(await activeRule(opened.deps)).toEqual(DECISION_RULE);
    const audit = await opened.repos.audit.list({ targetType: "resolve_rule", limit: 10 });
    expect(audit.items.map((e) => e.action)).toEqual(["resolve_rule.activate", "resolve_rule.refit"]);

    expect(await activateResolveRule(opened.as(jam), { rule_id: id })).toEqual({ active_rule_id: id });
    expect(await activeRule(opened.deps)).toEqual(strict);
    await expect(activateResolveRule(opened.as(jam), { rule_id: "RR-9999" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      field: "rule_id",
    });
    await activateResolveRule(opened.as(jam), { rule_id: null });
  });
});
