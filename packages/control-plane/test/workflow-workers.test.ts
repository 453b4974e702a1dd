// Worker phases, checkpoint assignees and timeouts on the server (issue 25), on a real SQLite
// file: two workers racing for one phase (exactly one wins), a worker that crashes mid-phase (its
// lease expires, another completes the phase, exactly once), a failure retried by the gap check,
// a long-polling claim, a timeout taking its default, an escalation, and assignees enforced.
import type { TWorkflowRun } from "@solserver/contracts";
import { isDomainError } from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  cancelWorkflow,
  claimWorkflowPhase,
  completeWorkflowPhase,
  decideWorkflow,
  getWorkflowRun,
  heartbeatWorkflowPhase,
  listJobs,
  retryJob,
  startJobWorkers,
  startWorkflow,
  tickSchedules,
  waitingCheckpoints,
} from "../src/index";
import { openJobQueue } from "../src/jobs/jobs";
import type { TServiceContext } from "../src/services/context";
import { deliverWebhookPhases } from "../src/services/workflow-webhooks";
import { openTestControlPlane, type TTestActor } from "../src/testing";
import { heldReceiver } from "./held-receiver";

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let jam: TTestActor;
let other: TTestActor;
let n = 0;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "workflow-workers" });
  jam = await opened.account("jam");
  other = await opened.account("jam");
});
afterAll(async () => opened?.close());

/** The caller's context with the clock moved `ms` ahead. */
const at = (actor: TTestActor, ms = 0): TServiceContext => {
  const ctx = opened.as(actor);
  return { ...ctx, deps: { ...ctx.deps, now: () => new Date(Date.now() + ms) } };
};

const error = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a DomainError");
    },
    (e: unknown) => {
      if (!isDomainError(e)) throw e;
      return e;
    },
  );

/** A definition with one worker phase of a fresh queue, then an approval checkpoint. */
function workerFlow(extra = ""): { definition: string; queue: string } {
  const queue = `q${++n}`;
  return {
    queue,
    definition: `name: worker-flow-${n}
phases:
  - id: summarize
    run:
      worker: ${queue}
      lease: 2s
${extra}  - id: review
    checkpoint:
      approval_required: true
`,
  };
}

describe("worker phases", () => {
  it("wait for a worker; of two racing for the phase exactly one gets it; its data and files land once", async () => {
    const { definition, queue } = workerFlow();
    const started = await startWorkflow(at(jam), { definition });
    expect(started.status).toBe("awaiting_worker");
    expect(started.worker).toMatchObject({ queue, phase_id: "summarize", lease_owner: null });

    const claims = await Promise.all([
      claimWorkflowPhase(at(jam), { queue, worker: "w1", wait_ms: 0 }),
      claimWorkflowPhase(at(jam), { queue, worker: "w2", wait_ms: 0 }),
    ]);
    const won = claims.flatMap((c) => (c.claim ? [c.claim] : []));
    expect(won).toHaveLength(1);
    const claim = won[0] as NonNullable<(typeof claims)[number]["claim"]>;
    expect(claim).toMatchObject({ run_id: started.run_id, phase_id: "summarize", iteration: 1, attempt: 1 });
    expect((await getWorkflowRun(at(jam), { run_id: started.run_id })).worker?.lease_owner).toMatch(/^w[12] \(/);

    const done = await completeWorkflowPhase(at(jam), {
      run_id: claim.run_id,
      lease_id: claim.lease_id,
      outcome: "done",
      data: { summary_words: 120 },
      artifacts: [{ path: "out/summary.md", content: "# Summary" }],
    });
    expect(done.status).toBe("awaiting_decision");
    // The same lease again: nothing happens twice.
    const again = await error(
      completeWorkflowPhase(at(jam), { run_id: claim.run_id, lease_id: claim.lease_id, outcome: "done" }),
    );
    expect(again.code).toBe("CONFLICT");
    expect(again.field).toBe("lease_id");
    const decided = await decideWorkflow(at(jam), { run_id: done.run_id, version: done.version, label: "Continue" });
    expect(decided.status).toBe("done");
  });

  it("a crashed worker's lease expires: another claims the phase and completes it; the first is refused", async () => {
    const { definition, queue } = workerFlow();
    const run = await startWorkflow(at(jam), { definition });
    const first = (await claimWorkflowPhase(at(jam), { queue, worker: "crashy", wait_ms: 0 })).claim;
    expect(first).not.toBeNull();
    // Still held: nobody else gets it, and a heartbeat keeps it.
    expect((await claimWorkflowPhase(at(jam), { queue, worker: "w2", wait_ms: 0 })).claim).toBeNull();
    const beat = await heartbeatWorkflowPhase(at(jam), { run_id: run.run_id, lease_id: first?.lease_id as string });
    expect(Date.parse(beat.lease_expires_ts)).toBeGreaterThan(Date.now());
    // Three seconds later (the lease is 2 s) the phase is claimable again.
    const second = (await claimWorkflowPhase(at(jam, 3_000), { queue, worker: "w2", wait_ms: 0 })).claim;
    expect(second?.run_id).toBe(run.run_id);
    expect(second?.lease_id).not.toBe(first?.lease_id);
    const stale = await error(
      heartbeatWorkflowPhase(at(jam, 3_000), { run_id: run.run_id, lease_id: first?.lease_id as string }),
    );
    expect(stale.code).toBe("CONFLICT");
    const late = await error(
      completeWorkflowPhase(at(jam, 3_000), {
        run_id: run.run_id,
        lease_id: first?.lease_id as string,
        outcome: "done",
      }),
    );
    expect(late.code).toBe("CONFLICT");
    const done = await completeWorkflowPhase(at(jam, 3_000), {
      run_id: run.run_id,
      lease_id: second?.lease_id as string,
      outcome: "done",
      data: { by: "w2" },
    });
    expect(done.status).toBe("awaiting_decision");
  });

  it("a failed phase is retried by its gap check, then fails the run with the worker's message", async () => {
    const { definition, queue } = workerFlow(
      '    gap_check:\n      condition: "context.retry == true"\n      max_retries: 1\n',
    );
    const run = await startWorkflow(at(jam), { definition });
    const first = (await claimWorkflowPhase(at(jam), { queue, worker: "w", wait_ms: 0 })).claim;
    const retried = await completeWorkflowPhase(at(jam), {
      run_id: run.run_id,
      lease_id: first?.lease_id as string,
      outcome: "failed",
      error: "model timed out",
    });
    expect(retried.status).toBe("awaiting_worker");
    const second = (await claimWorkflowPhase(at(jam), { queue, worker: "w", wait_ms: 0 })).claim;
    expect(second?.attempt).toBe(2);
    const failed = await completeWorkflowPhase(at(jam), {
      run_id: run.run_id,
      lease_id: second?.lease_id as string,
      outcome: "failed",
      error: "model timed out again",
    });
    expect(failed.status).toBe("failed");
    expect(failed.error).toContain("model timed out again");
  });

  it("a long-polling claim returns the phase that becomes claimable while it waits", async () => {
    const { definition, queue } = workerFlow();
    // A barrier on the claim's first look (it found nothing and now waits): the run starts after it.
    const repo = opened.deps.repos.workflows;
    const claim = repo.claim;
    let looked: () => void = () => {};
    const firstLook = new Promise<void>((resolve) => {
      looked = resolve;
    });
    repo.claim = async (...args) => {
      const lease = await claim.apply(repo, args);
      looked();
      return lease;
    };
    try {
      // The longest wait the API allows: only the run started meanwhile can end it with a claim.
      const waiting = claimWorkflowPhase(at(jam), { queue, worker: "poller", wait_ms: 30_000 });
      await firstLook;
      const run = await startWorkflow(at(jam), { definition });
      expect((await waiting).claim?.run_id).toBe(run.run_id);
    } finally {
      repo.claim = claim;
    }
    // Nothing to claim: null after the wait.
    expect(
      (await claimWorkflowPhase(at(jam), { queue: `empty${n}`, worker: "poller", wait_ms: 250 })).claim,
    ).toBeNull();
  });

  it("a run waiting for a worker nobody serves can be cancelled, which frees the workflow", async () => {
    const { definition } = workerFlow();
    const run = await startWorkflow(at(jam), { definition });
    const again = await error(startWorkflow(at(jam), { definition }));
    expect(again.code).toBe("CONFLICT");
    const stale = await error(
      cancelWorkflow(at(jam), { run_id: run.run_id, version: run.version + 1, reason: "typo" }),
    );
    expect(stale.code).toBe("CONFLICT");
    const cancelled = await cancelWorkflow(at(jam), {
      run_id: run.run_id,
      version: run.version,
      reason: "the queue name was mistyped",
    });
    expect(cancelled).toMatchObject({ status: "aborted", exit_code: 2, worker: null });
    expect(cancelled.log.at(-1)?.message).toContain(`the queue name was mistyped (${jam.email})`);
    const done = await error(
      cancelWorkflow(at(jam), { run_id: run.run_id, version: cancelled.version, reason: "twice" }),
    );
    expect(done.code).toBe("CONFLICT");
    // The workflow may start again.
    expect((await startWorkflow(at(jam), { definition })).status).toBe("awaiting_worker");
  });

  it("worker artifacts keep to relative paths", async () => {
    const { definition, queue } = workerFlow();
    const run = await startWorkflow(at(jam), { definition });
    const claim = (await claimWorkflowPhase(at(jam), { queue, worker: "w", wait_ms: 0 })).claim;
    const bad = await error(
      completeWorkflowPhase(at(jam), {
        run_id: run.run_id,
        lease_id: claim?.lease_id as string,
        outcome: "done",
        artifacts: [{ path: "../etc/passwd", content: "x" }],
      }),
    );
    expect(bad.code).toBe("BAD_INPUT");
    expect(bad.field).toBe("artifacts.0.path");
    // Refused before anything was stored: the lease still holds and a proper completion lands.
    const done = await completeWorkflowPhase(at(jam), {
      run_id: run.run_id,
      lease_id: claim?.lease_id as string,
      outcome: "done",
      artifacts: [{ path: "./out/./draft.md", content: "# Draft" }],
    });
    expect(done.status).toBe("awaiting_decision");
  });

  it("the server refuses command executors (they are the CLI's) and unknown named steps", async () => {
    const command = await error(
      startWorkflow(at(jam), {
        definition: "name: cmd\nphases:\n  - id: build\n    run:\n      command: [make, build]\n",
      }),
    );
    expect(command.code).toBe("BAD_INPUT");
    expect(command.message).toContain("phases.build.run: command executors are not run here");
    const unknown = await error(
      startWorkflow(at(jam), { definition: "name: unk\nphases:\n  - id: a\n    run: deploy.prod\n" }),
    );
    expect(unknown.message).toContain('phases.a.run: unknown step "deploy.prod"');
  });

  it("a new definition may sign only with SOLSERVER_WEBHOOK_SECRET_*; a run stored before the rule still cancels", async () => {
    const signed = (key: string, name: string) => `name: ${name}
notify: { webhook: "https://hooks.example.com/x", secret_env: ${key} }
phases:
  - id: review
    checkpoint:
      approval_required: true
`;
    const refused = await error(startWorkflow(at(jam), { definition: signed("HOME", "probe") }));
    expect(refused).toMatchObject({ code: "BAD_INPUT", field: "definition" });
    expect(refused.message).toContain(
      "notify.secret_env: must name a variable starting with SOLSERVER_WEBHOOK_SECRET_",
    );
    // A run stored with such a name (before the rule) is read again, decided or cancelled as any other.
    const run = await startWorkflow(at(jam), { definition: signed("SOLSERVER_WEBHOOK_SECRET_OK", "legacy") });
    await opened.db.workflowRun.update({ where: { id: run.run_id }, data: { definition: signed("HOME", "legacy") } });
    const cancelled = await cancelWorkflow(at(jam), { run_id: run.run_id, version: run.version, reason: "old key" });
    expect(cancelled.status).toBe("aborted");
  });
});

describe("checkpoint assignees and timeouts", () => {
  const timed = (timeout: string, assignees = "") => `name: timed-${++n}
phases:
  - id: review
    checkpoint:
      prompt: "Ship it?"
${assignees}      timeout: ${timeout}
      options:
        - label: Ship
          on_select: { action: continue }
        - label: Hold
          on_select: { action: abort }
`;

  it("a timeout takes its default option, recorded as timed out", async () => {
    const run = await startWorkflow(at(jam), { definition: timed("{ after: 1m, option: Hold }") });
    expect(run.checkpoint).toMatchObject({ on_timeout: 'takes "Hold"', can_decide: true });
    expect(Date.parse(run.checkpoint?.deadline as string) - Date.parse(run.created_ts)).toBeGreaterThanOrEqual(59_000);
    // Not yet due: nothing happens.
    await tickSchedules(opened.deps, new Date(Date.now() + 30_000));
    expect((await getWorkflowRun(at(jam), { run_id: run.run_id })).status).toBe("awaiting_decision");
    const report = await tickSchedules(opened.deps, new Date(Date.now() + 120_000));
    expect(report.checkpoints).toContainEqual({ run_id: run.run_id, outcome: "taken", detail: null });
    const after = await getWorkflowRun(at(jam), { run_id: run.run_id });
    expect(after.status).toBe("aborted");
    expect(after.decisions.at(-1)).toMatchObject({ phase: "review", timed_out: true });
  });

  it("assignees decide; others may not; an escalation hands the checkpoint over", async () => {
    const definition = timed(
      `{ after: 1h, escalate_to: { accounts: [${other.email}] } }`,
      `      assignees: { accounts: [${jam.email}] }\n`,
    );
    const run = await startWorkflow(at(jam), { definition });
    const seenByOther: TWorkflowRun = await getWorkflowRun(at(other), { run_id: run.run_id });
    expect(seenByOther.checkpoint?.can_decide).toBe(false);
    expect(seenByOther.checkpoint?.on_timeout).toBe(`escalates to ${other.email}`);
    const refused = await error(decideWorkflow(at(other), { run_id: run.run_id, version: run.version, label: "Ship" }));
    expect(refused.code).toBe("FORBIDDEN");
    const waitingForJam = (await waitingCheckpoints(at(jam))).count;
    const waitingForOther = (await waitingCheckpoints(at(other))).count;
    const report = await tickSchedules(opened.deps, new Date(Date.now() + 2 * 3_600_000));
    expect(report.checkpoints).toContainEqual({ run_id: run.run_id, outcome: "escalated", detail: null });
    const escalated = await getWorkflowRun(at(other), { run_id: run.run_id });
    expect(escalated.status).toBe("awaiting_decision");
    expect(escalated.checkpoint).toMatchObject({ can_decide: true, deadline: null });
    expect(escalated.decisions.at(-1)).toMatchObject({ decision: "escalated", timed_out: true });
    expect((await waitingCheckpoints(at(other))).count).toBe(waitingForOther + 1);
    expect((await waitingCheckpoints(at(jam))).count).toBe(waitingForJam - 1);
    const shipped = await decideWorkflow(at(other), { run_id: run.run_id, version: escalated.version, label: "Ship" });
    expect(shipped.status).toBe("done");
  });
});

/** The run once it reaches `status` (a webhook phase is delivered in the background). */
async function settled(runId: string, status: TWorkflowRun["status"]): Promise<TWorkflowRun> {
  let run: TWorkflowRun | undefined;
  await vi.waitFor(
    async () => {
      run = await getWorkflowRun(at(jam), { run_id: runId });
      expect(run.status).toBe(status);
    },
    { timeout: 20_000, interval: 20 },
  );
  return run as TWorkflowRun;
}

describe("webhook phases run beside the request that reaches them (issue 39)", () => {
  const allowPrivate = () => {
    const settings = opened.deps.workflows;
    opened.deps.workflows = { ...settings, allowPrivateNetworks: true };
    return () => {
      opened.deps.workflows = settings;
    };
  };

  it("a receiver that has not answered holds no request: the start returns, the phase lands when it answers", async () => {
    const restore = allowPrivate();
    const receiver = await heldReceiver(`held-${++n}`);
    try {
      const arrived = receiver.request();
      const started = await startWorkflow(at(jam), { definition: receiver.definition });
      expect(started.status).toBe("awaiting_worker");
      await arrived;
      expect(receiver.held).toHaveLength(1);
      expect((await getWorkflowRun(at(jam), { run_id: started.run_id })).status).toBe("awaiting_worker");
      receiver.held[0]?.answer();
      const run = await settled(started.run_id, "awaiting_decision");
      expect(run.checkpoint?.prompt).toBe("Publish?");
    } finally {
      receiver.close();
      restore();
    }
  });

  it("with the job queue (the web server), the delivery is a job: the start returns, the jobs page shows it running, then done", async () => {
    const restore = allowPrivate();
    const receiver = await heldReceiver(`held-${++n}`);
    const queue = await openJobQueue(opened.db, opened.database.url);
    opened.deps.jobs = queue;
    try {
      await startJobWorkers(opened.deps, queue, {
        schedulerIntervalMs: 0,
        pruneIntervalMs: 0,
        firstPruneDelayMs: 0,
        log: () => {},
      });
      const arrived = receiver.request();
      const started = await startWorkflow(at(jam), { definition: receiver.definition });
      expect(started.status).toBe("awaiting_worker");
      await arrived;
      const jobOf = async () =>
        (await listJobs(at(jam), { limit: 50 })).items.find((j) => j.data.run_id === started.run_id);
      await vi.waitFor(async () => expect(await jobOf()).toMatchObject({ name: "workflow-webhooks", state: "active" }));
      receiver.held[0]?.answer();
      await settled(started.run_id, "awaiting_decision");
      await vi.waitFor(async () => expect((await jobOf())?.state).toBe("completed"), { timeout: 20_000 });
      // Jobs are Jam editors' to see and retry; a job that has not failed is not retried.
      const job = (await jobOf())?.id as string;
      await expect(listJobs(opened.as(await opened.account("user")), { limit: 5 })).rejects.toMatchObject({
        code: "FORBIDDEN",
      });
      await expect(retryJob(at(jam), { id: job })).rejects.toThrow(`job ${job} is not a failed job`);
    } finally {
      opened.deps.jobs = undefined;
      await queue.stop();
      receiver.close();
      restore();
    }
  });

  it("a deliverer that died mid-delivery: once its lease expires the phase is delivered again, with the same key, and stored once", async () => {
    const restore = allowPrivate();
    const receiver = await heldReceiver(`held-${++n}`);
    const starter = at(jam);
    try {
      const first = receiver.request();
      const started = await startWorkflow(starter, { definition: receiver.definition });
      // The first delivery hangs, as in a process killed with the request in flight.
      await first;
      // Another process's tick, after the lease expired: it claims the phase and delivers it again.
      const second = receiver.request();
      const later = at(jam, 10 * 60_000);
      const tick = tickSchedules(later.deps, later.deps.now());
      await second;
      expect(receiver.held.map((h) => h.key)).toEqual([`${started.run_id}:check:1:1`, `${started.run_id}:check:1:1`]);
      receiver.held[1]?.answer();
      await tick;
      const run = await settled(started.run_id, "awaiting_decision");
      // The first deliverer's answer comes too late: its claim is gone, nothing is stored twice.
      receiver.held[0]?.answer();
      await vi.waitFor(async () => {
        const again = await getWorkflowRun(at(jam), { run_id: started.run_id });
        expect(again).toMatchObject({ status: "awaiting_decision", version: run.version });
      });
    } finally {
      // The first deliverer, answered late, goes on claiming with this test's settings: let it end
      // before the next test queues a run it would take.
      await deliverWebhookPhases(starter.deps);
      receiver.close();
      restore();
    }
  });
});

describe("webhook steps and checkpoint notifications, driven by the server over real HTTP", () => {
  it("posts the signed context, merges the answer, and tells the notify hook the run waits", async () => {
    const { createServer } = await import("node:http");
    const { createHmac } = await import("node:crypto");
    const seen: { path: string; body: Record<string, unknown>; signed: boolean; key: string }[] = [];
    let notifiedNow: () => void = () => undefined;
    const notifiedOnce = new Promise<void>((resolve) => {
      notifiedNow = resolve;
    });
    const server = createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => {
        raw += c;
      });
      req.on("end", () => {
        const stamp = String(req.headers["x-solserver-timestamp"]);
        const expected = `sha256=${createHmac("sha256", "s3cret").update(`${stamp}.${raw}`).digest("hex")}`;
        seen.push({
          path: req.url ?? "",
          body: JSON.parse(raw),
          signed: req.headers["x-solserver-signature"] === expected,
          key: String(req.headers["idempotency-key"]),
        });
        res.setHeader("content-type", "application/json");
        res.end(req.url === "/check" ? JSON.stringify({ data: { findings: 2 } }) : "{}");
        if (req.url === "/notify") notifiedNow();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    const settings = opened.deps.workflows;
    // As SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE=1 and SOLSERVER_BASE_URL configure it (env.ts).
    opened.deps.workflows = {
      baseURL: "https://sol.example",
      allowPrivateNetworks: true,
      webhookSecrets: { SOLSERVER_WEBHOOK_SECRET_HOOK: "s3cret" },
    };
    try {
      const definition = `name: hooked-${++n}
notify: { webhook: "http://127.0.0.1:${port}/notify", secret_env: SOLSERVER_WEBHOOK_SECRET_HOOK }
phases:
  - id: check
    run: { webhook: "http://127.0.0.1:${port}/check", secret_env: SOLSERVER_WEBHOOK_SECRET_HOOK }
  - id: triage
    checkpoint:
      condition: "context.findings > 0"
      prompt: "Findings: publish anyway?"
      options:
        - label: Publish
          on_select: { action: continue }
`;
      const started = await startWorkflow(at(jam), { definition });
      // The webhook phase is delivered beside the request, not in it.
      expect(started.status).toBe("awaiting_worker");
      const run = await settled(started.run_id, "awaiting_decision");
      expect(run.checkpoint?.prompt).toBe("Findings: publish anyway?");
      const check = seen.find((s) => s.path === "/check");
      expect(check).toMatchObject({ signed: true, key: `${run.run_id}:check:1:1` });
      expect(check?.body).toMatchObject({ run_id: run.run_id, phase_id: "check" });
      // The notification is sent beside the request: wait until the receiver has it.
      await notifiedOnce;
      const notified = seen.find((s) => s.path === "/notify");
      expect(notified?.signed).toBe(true);
      expect(notified?.body).toMatchObject({
        event: "checkpoint.waiting",
        run_id: run.run_id,
        phase_id: "triage",
        options: ["Publish"],
        url: expect.stringMatching(/^https:\/\/sol\.example\/workflows/),
      });
    } finally {
      opened.deps.workflows = settings;
      server.close();
    }
  });
});
