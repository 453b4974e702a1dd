// The messages between multi-process.test.ts and its worker processes (race-worker.ts). A race is
// three steps, so that every worker has parsed its task and warmed its connections before any of
// them starts: the parent sends a task, each worker answers "armed", the parent sends "go" to all
// of them at once, and each answers "done" with what its calls returned.
import type { TActor } from "../../src/services/deps";

export type TWorkerActor = Extract<TActor, { kind: "user" }>;

/** What one service call came back with, as it crosses the process boundary. */
export type TOutcome<T> = { ok: true; value: T } | { ok: false; code: string; field: string | null; message: string };

export type TTask =
  /** Decides each proposal in this order, as this editor; every call's outcome in that order. */
  | { kind: "promote"; actor: TWorkerActor; proposals: { proposal_id: string; action: "approve_create" | "reject" }[] }
  /** One decision on a run waiting at its checkpoint. */
  | { kind: "decide"; actor: TWorkerActor; run_id: string; version: number; label: string; feedback?: string }
  /** Ticks the schedules once at each clock (ISO), in order. */
  | { kind: "tick"; clocks: string[] }
  /** A chat turn per message, all at once (each on a new thread), under a limit of `limit` per minute. */
  | { kind: "chat"; actor: TWorkerActor; messages: string[]; limit: number; tag: string; thread_id?: string }
  /** One memento write based on `version`, adding `marker` to the summary's decisions. */
  | { kind: "put-memento"; actor: TWorkerActor; thread_id: string; version: number; marker: string }
  /**
   * `count` read-modify-write cycles on the memento, each adding one marker (`tag`-1, `tag`-2 …),
   * reading again and writing again after every CONFLICT, as a client that follows the ETag does.
   */
  | { kind: "memento-loop"; actor: TWorkerActor; thread_id: string; count: number; tag: string }
  /**
   * `count` turns on a procedure thread; with `retry`, a turn refused as CONFLICT is sent again
   * (as the refusal asks) until it lands.
   */
  | { kind: "procedure-turns"; actor: TWorkerActor; thread_id: string; count: number; tag: string; retry: boolean }
  /** Starts a workflow from its definition (its webhook phases go on in this process's background). */
  | { kind: "start-workflow"; actor: TWorkerActor; definition: string };

type TTickItemView = { workflow: string; due_ts: string; outcome: string; run_id: string | null };

/** What each kind of task answers. */
export type TTaskResults = {
  promote: { proposal_id: string; outcome: TOutcome<{ status: string; promotion_id: string }> }[];
  decide: TOutcome<{ status: string; version: number }>;
  tick: TOutcome<TTickItemView[]>[];
  chat: TOutcome<{ packet_id: string }>[];
  "put-memento": TOutcome<{ version: number }>;
  "memento-loop": { versions: number[]; conflicts: number; failures: TOutcome<never>[] };
  "start-workflow": TOutcome<{ run_id: string; status: string }>;
  "procedure-turns": {
    landed: { packet_id: string; version: number | null }[];
    refused: TOutcome<never>[];
  };
};

/**
 * Chat turns a worker sends one after another on its own thread while it runs its task (the
 * "load" on the pool and the database); each must simply land.
 */
export type TLoad = { actor: TWorkerActor; turns: number };

export type TToWorker =
  | { type: "task"; id: number; task: TTask; load: TLoad | null }
  | { type: "go"; id: number }
  | { type: "exit" };

export type TFromWorker =
  | { type: "ready" }
  | { type: "armed"; id: number }
  | { type: "done"; id: number; result: unknown; load: TOutcome<{ packet_id: string }>[] }
  | { type: "failed"; id: number | null; message: string };
