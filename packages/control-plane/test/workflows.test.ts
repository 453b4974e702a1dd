// Checkpoint workflows on the server (seed 003), on a real SQLite file: the Umbra beat pauses for
// review with its summary, and each decision (continue, repeat, skip with feedback, abort) does
// what the seed says; a paused run resumes from another process; stale and racing decisions are
// CONFLICT with exactly one landing; two beats never run at once; bad definitions are refused
// before anything runs.
import { isDomainError, type TCfbDraft, ZProposalListRequest, ZWorkflowRunListRequest } from "@solserver/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openControlPlane } from "../src/control-plane";
import {
  decideWorkflow,
  getProposal,
  getWorkflowRun,
  listProposals,
  listWorkflowRuns,
  parseInput,
  promoteProposal,
  respondToTurn,
  startWorkflow,
} from "../src/index";
import { openTestControlPlane, scriptedModel, type TTestActor, testCfb } from "../src/testing";

type TSuggestion = {
  op: "create" | "update";
  title: string;
  delta_summary: string;
  summary?: string;
  tags: string[];
  entities: string[];
  confidence: number;
  target_cfb_id?: string;
};
let next: TSuggestion[] = [];
const scripted = scriptedModel(() => ({ suggestions: next }));

const cfb = (title: string, summary: string, tags: string[], trust_tier: TCfbDraft["trust_tier"] = "user_approved") =>
  testCfb({ title, summary, tags, trust_tier });

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let n = 0;
async function propose(s: TSuggestion): Promise<string> {
  next = [s];
  const res = await respondToTurn(opened.as(user), { request_id: `wf-${++n}`, message: "We decided." });
  return res.ui_hints.proposal_previews[0]?.proposal_id as string;
}
const beat = () => startWorkflow(opened.as(jam), { workflow: "umbra-beat" });
const status = async (id: string) => (await getProposal(opened.as(jam), { proposal_id: id })).status;

/** Fresh pending work for each beat: an update resolve is sure of, a sure create, an unsure one. */
let work: { update: string; create: string; unsure: string; target: string };
// New subjects that share no words, one per beat (resolve compares texts: two rotas worded alike
// are one rota with new facts).
const NEW_SUBJECTS: [string, string][] = [
  ["Zanzibar rota", "Quokka owns the zanzibar rota."],
  ["Espresso machine descaling", "The kitchen espresso machine is descaled every second Friday."],
  ["Bicycle parking", "Bikes are locked in the courtyard cage; the code is at reception."],
  ["Plant watering", "Office plants are watered on Mondays by whoever opens."],
  ["Library loans", "Books from the shelf are signed out on the sheet by the door."],
  ["Printer toner", "Spare toner cartridges sit in the grey cabinet next to the printer."],
  ["Fire drill", "Fire drills happen twice a year; the assembly point is the car park."],
  ["Umbrella stand", "Loaner umbrellas live in the stand by the lifts."],
  ["Chess club", "The chess club meets on Thursdays after six in room four."],
  ["Mailroom hours", "Parcels can be collected from the mailroom between ten and four."],
  ["Aquarium feeding", "The lobby aquarium fish are fed flakes once a day at noon."],
  ["Piano tuning", "The lounge piano is tuned every spring by an outside tuner."],
  ["Kombucha brewing", "The kombucha crock on the third floor is refilled on Wednesdays."],
  ["Telescope night", "Stargazing with the roof telescope is booked through the events calendar."],
];

beforeEach(async () => {
  // Earlier tests' proposals are decided, so each beat sees only its own three.
  for (const item of (
    await listProposals(opened.as(jam), parseInput(ZProposalListRequest, { status: "pending", limit: 100 }))
  ).items)
    await promoteProposal(opened.as(jam), { proposal_id: item.proposal_id, action: "reject" });
  const k = ++n;
  const target = await opened.repos.cfbs.create(cfb(`Backup window ${k}`, "Backups run at 1am.", [`backup${k}`]));
  work = {
    target: target.cfb_id,
    update: await propose({
      op: "update",
      target_cfb_id: target.cfb_id,
      title: `Backup window ${k}`,
      delta_summary: "Backups run at 1am and finish by 3am.",
      summary: "Backups run at 1am and finish by 3am.",
      tags: [`backup${k}`],
      entities: [],
      confidence: 0.9,
    }),
    // A new subject each time (NEW_SUBJECTS).
    create: await propose({
      op: "create",
      title: (NEW_SUBJECTS[k % NEW_SUBJECTS.length] as [string, string])[0],
      delta_summary: (NEW_SUBJECTS[k % NEW_SUBJECTS.length] as [string, string])[1],
      tags: [`zanzibar${k}`],
      entities: [],
      confidence: 0.9,
    }),
    unsure: await propose({
      op: "create",
      title: `Maybe lunch ${k}`,
      delta_summary: `Perhaps lunch moves to noon${k}.`,
      tags: [`lunch${k}`],
      entities: [],
      confidence: 0.3,
    }),
  };
});

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "workflows", model: scripted, limits: { chatTurnsPerMinute: 1000 } });
  user = await opened.account("user");
  jam = await opened.account("jam");
});
afterAll(async () => opened?.close());

describe("the Umbra beat", () => {
  it("pauses for review with the summary, and Continue promotes exactly the plan, then recomputes stats", async () => {
    const run = await beat();
    expect(run.status).toBe("awaiting_decision");
    expect(run.checkpoint?.prompt).toBe("Review 3 proposals before promoting?");
    const file = run.checkpoint?.files[0];
    expect(file?.path).toBe("out/umbra/beat-summary.md");
    expect(file?.content).toContain("# Umbra beat: review before promotion");
    // Each row names the update's target by id and title, and why it is held back (– for nothing).
    expect(file?.content).toMatch(
      new RegExp(`\\| ${work.update} \\| .* \\| approve_update \\| ${work.target} Backup window \\d+ \\| – \\|`),
    );
    expect(file?.content).toMatch(new RegExp(`\\| ${work.create} \\| .* \\| approve_create \\| new \\| – \\|`));
    expect(file?.content).toMatch(new RegExp(`\\| ${work.unsure} \\| .* \\| model confidence 0.30 < 0.8 \\|`));
    expect(run.phases.map((p) => [p.id, p.state])).toEqual([
      ["collect_triggers", "done"],
      ["resolve_pending", "done"],
      ["review", "current"],
      ["promote", "upcoming"],
      ["recompute_stats", "upcoming"],
    ]);
    // Nothing is promoted before the person decides.
    expect(await status(work.update)).toBe("pending");

    const done = await decideWorkflow(opened.as(jam), {
      run_id: run.run_id,
      version: run.version,
      label: "Continue",
    });
    expect(done.status).toBe("done");
    expect(done.exit_code).toBe(0);
    expect(done.decisions).toEqual([{ phase: "review", decision: "continue", timestamp: expect.any(String) }]);
    expect(await status(work.update)).toBe("approved");
    expect(await status(work.create)).toBe("approved");
    expect(await status(work.unsure)).toBe("pending");
    const updated = await opened.repos.cfbs.get(work.target);
    expect(updated?.version).toBe(2);
    expect(updated?.summary).toBe("Backups run at 1am and finish by 3am.");
    expect(done.phases.every((p) => p.state === "done")).toBe(true);
    expect(done.log.map((l) => l.message).join("\n")).toMatch(/recompute_stats/);
  });

  it("the plan is offered per item: what a person leaves out stays in the queue, the rest is promoted", async () => {
    const run = await beat();
    expect(run.checkpoint?.plan?.map((p) => [p.proposal_id, p.action, p.target_cfb_id])).toEqual(
      expect.arrayContaining([
        [work.update, "approve_update", work.target],
        [work.create, "approve_create", null],
      ]),
    );
    expect(run.checkpoint?.plan?.map((p) => p.proposal_id)).not.toContain(work.unsure);
    // Leaving out something that is not in the plan is refused, naming the field; nothing moves.
    await expect(
      decideWorkflow(opened.as(jam), {
        run_id: run.run_id,
        version: run.version,
        label: "Continue",
        exclude: [work.unsure],
      }),
    ).rejects.toMatchObject({ code: "BAD_INPUT", field: "exclude" });
    const done = await decideWorkflow(opened.as(jam), {
      run_id: run.run_id,
      version: run.version,
      label: "Continue",
      exclude: [work.create],
    });
    expect(done.status).toBe("done");
    expect(await status(work.update)).toBe("approved");
    expect(await status(work.create)).toBe("pending");
  });

  it("holds back what needs a look (here: an update of curated knowledge) until a person includes it", async () => {
    const curated = await opened.repos.cfbs.create(
      cfb(`Release notes ${n}`, "Release notes are written on Mondays.", [`notes${n}`], "repo_adr"),
    );
    const held = await propose({
      op: "update",
      target_cfb_id: curated.cfb_id,
      title: `Release notes ${n}`,
      delta_summary: "Release notes are written on Mondays and reviewed on Tuesdays.",
      summary: "Release notes are written on Mondays and reviewed on Tuesdays.",
      tags: [`notes${n}`],
      entities: [],
      confidence: 0.9,
    });
    const run = await beat();
    const row = run.checkpoint?.plan?.find((p) => p.proposal_id === held);
    expect(row).toMatchObject({ action: "approve_update", target_cfb_id: curated.cfb_id, target_title: curated.title });
    expect(row?.held.map((h) => h.code)).toEqual(["curated"]);
    expect(run.checkpoint?.plan?.find((p) => p.proposal_id === work.update)?.held).toEqual([]);
    expect(run.checkpoint?.files[0]?.content).toContain(`changes curated knowledge: ${curated.cfb_id}`);
    // Including what is not held back is refused, naming the field.
    await expect(
      decideWorkflow(opened.as(jam), {
        run_id: run.run_id,
        version: run.version,
        label: "Continue",
        include: [work.update],
      }),
    ).rejects.toMatchObject({ code: "BAD_INPUT", field: "include" });
    // Continue without including it: the rest lands, it stays in the queue.
    const done = await decideWorkflow(opened.as(jam), { run_id: run.run_id, version: run.version, label: "Continue" });
    expect(done.status).toBe("done");
    expect(await status(work.update)).toBe("approved");
    expect(await status(held)).toBe("pending");

    // The next beat, with it included, promotes it.
    const again = await beat();
    const promoted = await decideWorkflow(opened.as(jam), {
      run_id: again.run_id,
      version: again.version,
      label: "Continue",
      include: [held],
    });
    expect(promoted.status).toBe("done");
    expect(await status(held)).toBe("approved");
  });

  it("Skip promotion with feedback skips it, records the feedback in the seed's shape, promotes nothing", async () => {
    const run = await beat();
    const done = await decideWorkflow(opened.as(jam), {
      run_id: run.run_id,
      version: run.version,
      label: "Skip promotion",
      feedback: "Audit week: nothing lands",
    });
    expect(done.status).toBe("done");
    expect(done.decisions).toEqual([
      {
        phase: "review",
        decision: "skip_phases",
        skipped: ["promote"],
        feedback: "Audit week: nothing lands",
        timestamp: expect.any(String),
      },
    ]);
    expect(done.phases.find((p) => p.id === "promote")?.state).toBe("skipped");
    expect(done.phases.find((p) => p.id === "recompute_stats")?.state).toBe("done");
    for (const id of [work.update, work.create, work.unsure]) expect(await status(id)).toBe("pending");
  });

  it("Repeat resolve plans again (iteration 2) and pauses again; Abort ends with exit code 2, nothing promoted", async () => {
    const run = await beat();
    const again = await decideWorkflow(opened.as(jam), {
      run_id: run.run_id,
      version: run.version,
      label: "Repeat resolve",
    });
    expect(again.status).toBe("awaiting_decision");
    expect(again.phases.find((p) => p.id === "resolve_pending")?.iterations).toBe(2);
    expect(again.decisions[0]).toMatchObject({ decision: "repeat_phase", target: "resolve_pending" });
    const aborted = await decideWorkflow(opened.as(jam), {
      run_id: run.run_id,
      version: again.version,
      label: "Abort",
    });
    expect(aborted.status).toBe("aborted");
    expect(aborted.exit_code).toBe(2);
    expect(aborted.decisions.map((d) => d.decision)).toEqual(["repeat_phase", "abort"]);
    expect(await status(work.update)).toBe("pending");
  });

  it("a paused run resumes in another process (a restart), from where it stopped", async () => {
    const run = await beat();
    const restarted = await openControlPlane({ databaseUrl: opened.database.url, model: scripted });
    try {
      const done = await decideWorkflow(
        { deps: restarted.deps, caller: jam },
        {
          run_id: run.run_id,
          version: run.version,
          label: "Continue",
        },
      );
      expect(done.status).toBe("done");
      expect(done.phases.find((p) => p.id === "collect_triggers")?.iterations).toBe(1);
      expect(await status(work.create)).toBe("approved");
    } finally {
      await restarted.db.$disconnect();
    }
  });

  it("a decision on a run that moved is CONFLICT; of two at once exactly one lands", async () => {
    const run = await beat();
    const stale = await decideWorkflow(opened.as(jam), {
      run_id: run.run_id,
      version: run.version - 1,
      label: "Continue",
    }).catch((e: unknown) => e);
    expect(isDomainError(stale) && stale.code).toBe("CONFLICT");
    const results = await Promise.allSettled([
      decideWorkflow(opened.as(jam), { run_id: run.run_id, version: run.version, label: "Continue" }),
      decideWorkflow(opened.as(jam), { run_id: run.run_id, version: run.version, label: "Abort" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(isDomainError(refused.reason) && refused.reason.code).toBe("CONFLICT");
    const final = await getWorkflowRun(opened.as(jam), { run_id: run.run_id });
    expect(final.decisions).toHaveLength(1);
  });

  it("never runs twice at once: a second beat while one waits is CONFLICT naming it", async () => {
    const run = await beat();
    const second = await beat().catch((e: unknown) => e);
    expect(isDomainError(second) && second.code).toBe("CONFLICT");
    expect((second as Error).message).toContain(run.run_id);
    await decideWorkflow(opened.as(jam), { run_id: run.run_id, version: run.version, label: "Abort" });
    const third = await beat();
    expect(third.status).toBe("awaiting_decision");
    await decideWorkflow(opened.as(jam), { run_id: third.run_id, version: third.version, label: "Abort" });
  });
});

describe("definitions and decisions", () => {
  it("refuses, before anything runs, unknown steps and conditions that do not parse, naming each", async () => {
    const definition = [
      "name: broken",
      "phases:",
      "  - id: one",
      "    run: shell.exec",
      "  - id: two",
      "    checkpoint:",
      '      condition: "context.x >"',
      "      prompt: Go?",
      "      options:",
      "        - label: Go",
      "          on_select: { action: continue }",
    ].join("\n");
    const error = await startWorkflow(opened.as(jam), { definition }).catch((e: unknown) => e);
    expect(isDomainError(error) && error.code).toBe("BAD_INPUT");
    expect((error as Error).message).toMatch(/condition/);
    expect((error as Error).message).toBe(
      "definition: phases[1].checkpoint.condition: cannot parse: Expected expression after > at character 11",
    );
    const unknown = await startWorkflow(opened.as(jam), {
      definition: "name: x\nphases:\n  - id: one\n    run: shell.exec\n",
    }).catch((e: unknown) => e);
    expect(isDomainError(unknown) && unknown.code).toBe("BAD_INPUT");
    expect((unknown as Error).message).toBe(
      'definition: phases.one.run: unknown step "shell.exec" (named steps here: umbra.collect_triggers, umbra.resolve_pending, umbra.promote_approved, umbra.recompute_stats)',
    );
    expect(
      (await listWorkflowRuns(opened.as(jam), parseInput(ZWorkflowRunListRequest, { limit: 100 }))).items.some(
        (r) => r.name === "x",
      ),
    ).toBe(false);
  });

  it("an unknown option, or feedback on an option without it, is BAD_INPUT and the run stays paused", async () => {
    const definition = "name: approve-me\nphases:\n  - id: only\n    checkpoint:\n      approval_required: true\n";
    const run = await startWorkflow(opened.as(jam), { definition });
    expect(run.checkpoint?.options.map((o) => o.label)).toEqual(["Continue", "Abort"]);
    const unknown = await decideWorkflow(opened.as(jam), {
      run_id: run.run_id,
      version: run.version,
      label: "Maybe",
    }).catch((e: unknown) => e);
    expect(isDomainError(unknown) && unknown.code).toBe("BAD_INPUT");
    expect(isDomainError(unknown) && unknown.field).toBe("label");
    const feedback = await decideWorkflow(opened.as(jam), {
      run_id: run.run_id,
      version: run.version,
      label: "Continue",
      feedback: "sure",
    }).catch((e: unknown) => e);
    expect(isDomainError(feedback) && feedback.field).toBe("feedback");
    const still = await getWorkflowRun(opened.as(jam), { run_id: run.run_id });
    expect([still.status, still.version]).toEqual(["awaiting_decision", run.version]);
    const done = await decideWorkflow(opened.as(jam), {
      run_id: run.run_id,
      version: run.version,
      label: "Continue",
    });
    expect(done.status).toBe("done");
  });

  it("is Jam editors' work: a user may not start, decide or list runs", async () => {
    for (const call of [
      () => startWorkflow(opened.as(user), { workflow: "umbra-beat" }),
      () => listWorkflowRuns(opened.as(user), parseInput(ZWorkflowRunListRequest, { limit: 5 })),
      () => decideWorkflow(opened.as(user), { run_id: "WR-0001", version: 1, label: "Continue" }),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(isDomainError(error) && error.code).toBe("FORBIDDEN");
    }
  });
});
