// A webhook phase survives kill -9 of the server process delivering it (issue 39), with two server
// processes on one PostgreSQL database: the first starts a run and is killed while its receiver
// holds the delivery; the second's scheduler tick, once the lease has expired, delivers the phase
// again with the same Idempotency-Key, and the run moves on once.
// Included only when SOLSERVER_TEST_POSTGRES_URL names a server (vitest.config.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getWorkflowRun } from "../../src/index";
import { openTestControlPlane } from "../../src/testing";
import { heldReceiver } from "../held-receiver";
import { startWorkers, type TWorkerPool } from "./worker-pool";

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let pool: TWorkerPool;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "webhook-kill" });
  pool = await startWorkers(2, opened.database.url);
}, 120_000);
afterAll(async () => {
  await pool?.stop();
  await opened?.close();
});

describe("a webhook phase and kill -9", () => {
  it("is delivered again by another process after the lease expires, and its outcome is stored once", async () => {
    const { password: _, ...editor } = await opened.account("jam");
    const receiver = await heldReceiver("killed-mid-delivery");
    try {
      const first = receiver.request();
      const [started] = await pool.race([
        { task: { kind: "start-workflow", actor: editor, definition: receiver.definition }, load: null },
      ]);
      if (!started?.result.ok) throw new Error(`start failed: ${JSON.stringify(started?.result)}`);
      const runId = started.result.value.run_id;
      expect(started.result.value.status).toBe("awaiting_worker");
      // Process 0 is delivering (the receiver holds the request): kill it.
      await first;
      await pool.kill(0);
      expect((await getWorkflowRun(opened.as(editor), { run_id: runId })).status).toBe("awaiting_worker");

      // Process 1 ticks at a clock past the dead process's lease: it delivers the phase again.
      const second = receiver.request();
      const tick = pool.race([
        { task: { kind: "tick", clocks: [new Date(Date.now() + 3_600_000).toISOString()] }, load: null },
      ]);
      await second;
      expect(receiver.held.map((h) => h.key)).toEqual([`${runId}:check:1:1`, `${runId}:check:1:1`]);
      receiver.held[1]?.answer();
      const [ticked] = await tick;
      expect(ticked?.result.every((r) => r.ok)).toBe(true);

      const run = await getWorkflowRun(opened.as(editor), { run_id: runId });
      expect(run).toMatchObject({ status: "awaiting_decision", checkpoint: { prompt: "Publish?" } });
      const row = await opened.db.workflowRun.findUniqueOrThrow({ where: { id: runId } });
      expect(row).toMatchObject({ leaseId: null, queue: null });
      expect(
        (row.state as { context: { phases: { iteration_counts: Record<string, number> } } }).context.phases
          .iteration_counts,
      ).toMatchObject({ check: 1 });
    } finally {
      receiver.close();
    }
  });
});
