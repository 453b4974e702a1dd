// One server process of multi-process.test.ts: its own control plane (its own connection pool) on
// the shared PostgreSQL database, driven over IPC (race-protocol.ts). It prepares each task when
// it arrives (reads what the task builds on), says "armed", and only on "go" makes the racing
// calls, sending chat turns on a thread of its own meanwhile as load. Every call's outcome goes
// back to the parent, which judges them together with the database.
// Started by worker-pool.ts: fork(race-worker.ts, [databaseUrl], { execArgv: ["--import", "tsx"] }).
import { isDomainError, type TThreadMemento } from "@solserver/contracts";
import { openControlPlane } from "../../src/control-plane";
import {
  decideWorkflow,
  getMemento,
  promoteProposal,
  putMemento,
  respondToTurn,
  startWorkflow,
  tickSchedules,
} from "../../src/index";
import type { TServiceContext } from "../../src/services/context";
import type { TFromWorker, TLoad, TOutcome, TTask, TTaskResults, TToWorker, TWorkerActor } from "./race-protocol";

const databaseUrl = process.argv[2];
if (!databaseUrl || !process.send) throw new Error("usage: fork race-worker.ts <databaseUrl>, with an IPC channel");

/** A retry loop that never lands is a finding, not a hang: it gives up and says so. */
const MAX_ATTEMPTS = 100;

const LOAD_MESSAGES = [
  "How do I check the water pump fuse?",
  "What voltage should the pump see?",
  "Where is the pressure switch?",
];
const PROCEDURE_MESSAGES = ["where is the fuse?", "fuse is good", "12 volts at the pump"];

function send(message: TFromWorker): void {
  process.send?.(message);
}

// Every turn is allowed here: only the "chat" task runs under a real limit (its own deps below).
// (webhook receivers are the test's own, on 127.0.0.1)
const { deps, db } = await openControlPlane({
  databaseUrl,
  limits: { chatTurnsPerMinute: 1_000_000 },
  workflows: { allowPrivateNetworks: true },
});
const ctx = (actor: TWorkerActor, d = deps): TServiceContext => ({ deps: d, caller: actor });

let requests = 0;
/** A request_id no other call of any process uses. */
const requestId = (tag: string) => `${tag}-${process.pid}-${++requests}`;

async function outcome<T>(call: () => Promise<T>): Promise<TOutcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (isDomainError(error))
      return { ok: false, code: error.code, field: error.field ?? null, message: error.message };
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { ok: false, code: "INTERNAL", field: null, message };
  }
}

const failure = (o: TOutcome<unknown>): TOutcome<never> =>
  o.ok ? { ok: false, code: "INTERNAL", field: null, message: "not a failure" } : o;

/** The memento with one more line in its summary's decisions. */
function withMarker(memento: TThreadMemento, marker: string): TThreadMemento {
  return { ...memento, shape: { ...memento.shape, decisions: [...memento.shape.decisions, marker] } };
}

/** Each load actor's thread in this process (its first load turn creates it). */
const loadThreads = new Map<string, string>();

async function runLoad(load: TLoad | null): Promise<TOutcome<{ packet_id: string }>[]> {
  const results: TOutcome<{ packet_id: string }>[] = [];
  for (let i = 0; load && i < load.turns; i++) {
    const threadId = loadThreads.get(load.actor.userId);
    results.push(
      await outcome(async () => {
        const response = await respondToTurn(ctx(load.actor), {
          request_id: requestId("load"),
          message: LOAD_MESSAGES[i % LOAD_MESSAGES.length] as string,
          ...(threadId ? { thread_id: threadId } : {}),
        });
        loadThreads.set(load.actor.userId, response.thread_id);
        return { packet_id: response.packet_id };
      }),
    );
  }
  return results;
}

/** Reads what the task builds on; the returned call makes the racing calls. */
async function prepare(task: TTask): Promise<() => Promise<TTaskResults[TTask["kind"]]>> {
  switch (task.kind) {
    case "promote":
      return async () => {
        const results: TTaskResults["promote"] = [];
        for (const p of task.proposals) {
          const decided = await outcome(() => promoteProposal(ctx(task.actor), p));
          results.push({
            proposal_id: p.proposal_id,
            outcome: decided.ok
              ? { ok: true, value: { status: decided.value.status, promotion_id: decided.value.promotion_id } }
              : decided,
          });
        }
        return results;
      };
    case "decide":
      return () =>
        outcome(async () => {
          const run = await decideWorkflow(ctx(task.actor), {
            run_id: task.run_id,
            version: task.version,
            label: task.label,
            ...(task.feedback ? { feedback: task.feedback } : {}),
          });
          return { status: run.status, version: run.version };
        });
    case "tick":
      return async () => {
        const results: TTaskResults["tick"] = [];
        for (const clock of task.clocks) {
          results.push(
            await outcome(async () =>
              (await tickSchedules(deps, new Date(clock))).handled.map((h) => ({
                workflow: h.workflow,
                due_ts: h.due_ts,
                outcome: h.outcome,
                run_id: h.run_id,
              })),
            ),
          );
        }
        return results;
      };
    case "chat": {
      const limited = { ...deps, limits: { ...deps.limits, chatTurnsPerMinute: task.limit } };
      return () =>
        Promise.all(
          task.messages.map((message) =>
            outcome(async () => {
              const response = await respondToTurn(ctx(task.actor, limited), {
                request_id: requestId(task.tag),
                message,
                ...(task.thread_id ? { thread_id: task.thread_id } : {}),
              });
              return { packet_id: response.packet_id };
            }),
          ),
        );
    }
    case "put-memento": {
      const current = await getMemento(ctx(task.actor), { thread_id: task.thread_id });
      const memento = withMarker(current.memento, task.marker);
      return () =>
        outcome(async () => {
          const written = await putMemento(ctx(task.actor), {
            thread_id: task.thread_id,
            version: task.version,
            memento,
          });
          return { version: written.version };
        });
    }
    case "memento-loop":
      return async () => {
        const result: TTaskResults["memento-loop"] = { versions: [], conflicts: 0, failures: [] };
        for (let k = 1; k <= task.count; k++) {
          for (let attempt = 1; ; attempt++) {
            const written = await outcome(async () => {
              const current = await getMemento(ctx(task.actor), { thread_id: task.thread_id });
              return putMemento(ctx(task.actor), {
                thread_id: task.thread_id,
                version: current.version,
                memento: withMarker(current.memento, `${task.tag}-${k}`),
              });
            });
            if (written.ok) {
              result.versions.push(written.value.version);
              break;
            }
            if (written.code !== "CONFLICT" || attempt >= MAX_ATTEMPTS) {
              result.failures.push(written);
              break;
            }
            result.conflicts++;
          }
        }
        return result;
      };
    case "start-workflow":
      return () =>
        outcome(async () => {
          const run = await startWorkflow(ctx(task.actor), { definition: task.definition });
          return { run_id: run.run_id, status: run.status };
        });
    case "procedure-turns":
      return async () => {
        const result: TTaskResults["procedure-turns"] = { landed: [], refused: [] };
        for (let k = 0; k < task.count; k++) {
          for (let attempt = 1; ; attempt++) {
            const turn = await outcome(() =>
              respondToTurn(ctx(task.actor), {
                request_id: requestId(task.tag),
                message: PROCEDURE_MESSAGES[k % PROCEDURE_MESSAGES.length] as string,
                thread_id: task.thread_id,
              }),
            );
            if (turn.ok) {
              result.landed.push({ packet_id: turn.value.packet_id, version: turn.value.procedure?.version ?? null });
              break;
            }
            result.refused.push(failure(turn));
            if (!task.retry || turn.code !== "CONFLICT" || attempt >= MAX_ATTEMPTS) break;
          }
        }
        return result;
      };
  }
}

const armed = new Map<number, { run: () => Promise<unknown>; load: TLoad | null }>();

async function handle(message: TToWorker): Promise<void> {
  if (message.type === "exit") {
    await db.$disconnect();
    process.exit(0);
  }
  if (message.type === "task") {
    armed.set(message.id, { run: await prepare(message.task), load: message.load });
    send({ type: "armed", id: message.id });
    return;
  }
  const task = armed.get(message.id);
  if (!task) throw new Error(`"go" for task ${message.id}, which this worker was never given`);
  armed.delete(message.id);
  const [result, load] = await Promise.all([task.run(), runLoad(task.load)]);
  send({ type: "done", id: message.id, result, load });
}

process.on("message", (message: TToWorker) => {
  handle(message).catch((error: unknown) => {
    const id = message.type === "exit" ? null : message.id;
    send({ type: "failed", id, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  });
});
// The parent went away (a crashed or interrupted test run): nothing left to serve.
process.on("disconnect", () => {
  void db.$disconnect().finally(() => process.exit(0));
});

// A few connections of the pool opened before the first race, as a running server has them.
await Promise.all(Array.from({ length: 4 }, () => db.user.count()));
send({ type: "ready" });
