// The parent's side of multi-process.test.ts: starts race-worker.ts processes on one database and
// runs races on the first n of them (task, "armed" from all, "go" to all, "done" from all).
import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";
import type { TFromWorker, TLoad, TOutcome, TTask, TTaskResults, TToWorker } from "./race-protocol";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const WORKER = path.resolve(import.meta.dirname, "race-worker.ts");
/** Longest wait for one answer of a worker: start-up on a busy 2-core machine, or one race. */
const ANSWER_TIMEOUT_MS = 180_000;

type TWaiter = { resolve: (m: TFromWorker) => void; reject: (e: Error) => void };

class RaceWorker {
  readonly child: ChildProcess;
  /** The tail of what it printed, shown when it fails. */
  private output = "";
  private readonly waiters = new Map<string, TWaiter>();
  private exited: Error | null = null;

  constructor(
    readonly index: number,
    databaseUrl: string,
  ) {
    this.child = fork(WORKER, [databaseUrl], {
      cwd: ROOT,
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-4000);
    };
    this.child.stdout?.on("data", keep);
    this.child.stderr?.on("data", keep);
    this.child.on("message", (m: TFromWorker) => this.receive(m));
    this.child.on("exit", (code, signal) => {
      this.exited = new Error(`worker ${index} exited (${signal ?? code}):\n${this.output}`);
      for (const w of this.waiters.values()) w.reject(this.exited);
      this.waiters.clear();
    });
  }

  private receive(m: TFromWorker): void {
    if (m.type === "failed") {
      const error = new Error(`worker ${this.index} failed: ${m.message}`);
      for (const w of this.waiters.values()) w.reject(error);
      this.waiters.clear();
      return;
    }
    const key = m.type === "ready" ? "ready" : `${m.type}:${m.id}`;
    const waiter = this.waiters.get(key);
    this.waiters.delete(key);
    waiter?.resolve(m);
  }

  /** The worker's next message of this kind (registered before the message that triggers it is sent). */
  expect<T extends TFromWorker["type"]>(type: T, id?: number): Promise<Extract<TFromWorker, { type: T }>> {
    if (this.exited) return Promise.reject(this.exited);
    const key = id === undefined ? type : `${type}:${id}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(key);
        reject(new Error(`worker ${this.index}: no "${key}" within ${ANSWER_TIMEOUT_MS} ms:\n${this.output}`));
      }, ANSWER_TIMEOUT_MS);
      this.waiters.set(key, {
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m as Extract<TFromWorker, { type: T }>);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
    });
  }

  send(message: TToWorker): void {
    this.child.send(message);
  }

  /** Asks it to close its pool and exit; kills it (this process only) if it does not. */
  async stop(): Promise<void> {
    if (this.exited || this.child.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.send({ type: "exit" });
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 10_000);
    await gone;
    clearTimeout(timer);
  }
}

/** One worker's part in a race: its task, and the chat turns it sends meanwhile. */
export type TPart<K extends TTask["kind"]> = { task: Extract<TTask, { kind: K }>; load: TLoad | null };

/** What one worker answered: its task's result and its load turns' outcomes. */
export type TAnswer<K extends TTask["kind"]> = { result: TTaskResults[K]; load: TOutcome<{ packet_id: string }>[] };

export type TWorkerPool = {
  size: number;
  /** Runs part i on worker i, all released at once; the answers in the same order. */
  race<K extends TTask["kind"]>(parts: TPart<K>[]): Promise<TAnswer<K>[]>;
  /** Kills worker i with SIGKILL (a crash: nothing closed, nothing finished) and drops it from the pool. */
  kill(index: number): Promise<void>;
  stop(): Promise<void>;
};

export async function startWorkers(count: number, databaseUrl: string): Promise<TWorkerPool> {
  const workers = Array.from({ length: count }, (_, i) => new RaceWorker(i, databaseUrl));
  try {
    await Promise.all(workers.map((w) => w.expect("ready")));
  } catch (error) {
    await Promise.all(workers.map((w) => w.stop()));
    throw error;
  }
  let races = 0;
  return {
    get size() {
      return workers.length;
    },
    async race<K extends TTask["kind"]>(parts: TPart<K>[]): Promise<TAnswer<K>[]> {
      if (parts.length > workers.length) throw new Error(`a race of ${parts.length} needs as many workers`);
      const id = ++races;
      const racing = workers.slice(0, parts.length);
      const armed = racing.map((w) => w.expect("armed", id));
      racing.forEach((w, i) => {
        const part = parts[i] as TPart<K>;
        w.send({ type: "task", id, task: part.task, load: part.load });
      });
      await Promise.all(armed);
      const done = racing.map((w) => w.expect("done", id));
      for (const w of racing) w.send({ type: "go", id });
      return (await Promise.all(done)).map((m) => ({ result: m.result as TTaskResults[K], load: m.load }));
    },
    async kill(index) {
      const [worker] = workers.splice(index, 1);
      if (!worker || worker.child.exitCode !== null) return;
      const gone = new Promise<void>((resolve) => worker.child.once("exit", () => resolve()));
      worker.child.kill("SIGKILL");
      await gone;
    },
    async stop() {
      await Promise.all(workers.map((w) => w.stop()));
    },
  };
}
