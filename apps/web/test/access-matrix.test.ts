// The access matrix: for EVERY tRPC procedure of the app router and EVERY REST route handler,
// what an anonymous caller, a user on their own resource, a user on another user's resource
// (where the procedure is about a thread-owned resource, or a CFB private to a user: issue 19,
// PRIVATE_CFB_ROWS) and a Jam editor get. Table-driven: a
// procedure or route without a row fails the completeness tests, so nothing new is born open.
// Refusals are UNAUTHORIZED / 401 and FORBIDDEN / 403, write nothing, and their messages carry
// no data of the resource (no title, message text, email or id beyond what was asked about).
// Every case runs through createCaller, through the tRPC route handler over HTTP and (for REST)
// through the Next route handlers, signed in by session cookie and by API token.
import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { loadWorkflowOrThrow, startRun } from "@solserver/checkpoint";
import { REPETITION_KINDS, type TRepetitionKind } from "@solserver/contracts";
import {
  addRoutingExample,
  createCfb,
  createToken,
  getMemento,
  promoteProposal,
  respondToTurn,
  retireCfb,
  startWorkflow,
  type TActor,
  updateCfb,
  warmUp,
} from "@solserver/control-plane";
import { createRepositories } from "@solserver/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createInnerContext } from "@/server/trpc/init";
import { appRouter, createCaller } from "@/server/trpc/root";
import {
  ANONYMOUS,
  cfbDraft,
  clientShape,
  openWebServer,
  rest,
  rowCounts,
  type THeaders,
  type THttpResult,
  type TRestRoute,
  type TWebAccount,
  type TWebServer,
  trpcError,
  trpcHttp,
  trpcHttpData,
  trpcHttpError,
} from "./helpers";

/** Who calls: nobody; a user on their own resource; the same user on another user's; a Jam editor. */
type TWho = "anonymous" | "user" | "userOther" | "jam";
// PRECONDITION_FAILED: the caller passed the access check and the service refused on the data.
type TOutcome = "ok" | "UNAUTHORIZED" | "FORBIDDEN" | "PRECONDITION_FAILED";
const HTTP_STATUS: Record<TOutcome, number> = { ok: 200, UNAUTHORIZED: 401, FORBIDDEN: 403, PRECONDITION_FAILED: 412 };
const UNAUTHENTICATED_MESSAGE = "sign in (or send an API token) to use this";

/** The usual expectations of each access tier. */
const PUBLIC = { anonymous: "ok", user: "ok", jam: "ok" } as const;
const SIGNED_IN = { anonymous: "UNAUTHORIZED", user: "ok", jam: "ok" } as const;
const OWNED = { anonymous: "UNAUTHORIZED", user: "ok", userOther: "FORBIDDEN", jam: "ok" } as const;
const JAM_ONLY = { anonymous: "UNAUTHORIZED", user: "FORBIDDEN", jam: "ok" } as const;

type TExpect = { anonymous: TOutcome; user: TOutcome; userOther?: TOutcome; jam: TOutcome };
type TCallContext = { who: TWho; me: TWebAccount | null };
/** A job row as a queue would leave it (the jobs procedures read and retry it); its id. */
async function storedJob(fields: {
  name: string;
  state: string;
  retryLimit: number;
  retryCount?: number;
  error?: string;
  output?: { kept: boolean };
}): Promise<string> {
  const id = `matrix-job-${next()}`;
  const at = new Date();
  await web.db.job.create({
    data: {
      id,
      data: {},
      retryDelayMs: 1000,
      expireMs: 600_000,
      startAfter: at,
      createdAt: at,
      finishedAt: at,
      ...fields,
    },
  });
  return id;
}

type TRow = {
  expect: TExpect;
  /** The input for this caller: own resources are Alice's, another's are Bob's; Jam acts on Alice's. */
  input: (c: TCallContext) => Promise<unknown>;
  /** What a successful answer must show. */
  check: (result: unknown, input: unknown, c: TCallContext) => void | Promise<void>;
};

let web: TWebServer;
let alice: TWebAccount;
let bob: TWebAccount;
let jam: TWebAccount;
/** Request headers per signed-in account and credential kind. */
const headers: Record<"cookie" | "token", { alice: THeaders; jam: THeaders }> = {
  cookie: { alice: {}, jam: {} },
  token: { alice: {}, jam: {} },
};
type TTurn = { thread_id: string; response_id: string; proposal_id: string; title: string; message: string };
let aliceTurn: TTurn;
let bobTurn: TTurn;
/** Threads in procedure mode (seed 004), Alice's and Bob's. */
let aliceDiagnosis: string;
let bobDiagnosis: string;
let seededCfb: string;
let jamTokenId: string;
/** Data of resources; an error may only show what the caller already sent. */
const secrets = new Set<string>();
let counter = 0;
const next = () => ++counter;

/** A fresh turn of `owner` with exactly one pending proposal. */
async function freshTurn(owner: TWebAccount): Promise<TTurn> {
  const n = next();
  const message = `We decided to adopt Matrixtool${n} for the build farm.`;
  const turn = await respondToTurn(web.as(owner.actor), { request_id: `matrix-${n}`, message });
  const preview = turn.ui_hints.proposal_previews[0];
  if (!preview) throw new Error("the offline model made no proposal");
  const fresh = {
    thread_id: turn.thread_id,
    response_id: turn.response_id,
    proposal_id: preview.proposal_id,
    title: preview.title,
    message,
  };
  for (const secret of [fresh.thread_id, fresh.response_id, fresh.title, fresh.message, `Matrixtool${n}`]) {
    secrets.add(secret);
  }
  return fresh;
}

/** A fresh water-pump diagnosis of `owner`: its thread id. */
async function freshDiagnosis(owner: TWebAccount): Promise<string> {
  const message = `Pump${next()} makes no noise: the water pump won't run`;
  const turn = await respondToTurn(web.as(owner.actor), {
    request_id: `matrix-diagnosis-${next()}`,
    message,
    procedure: "water_pump",
  });
  secrets.add(turn.thread_id);
  secrets.add(message);
  return turn.thread_id;
}

/** Alice's resource for herself and for a Jam editor; Bob's for Alice acting on another's. */
const target = (c: TCallContext) => (c.who === "userOther" ? bobTurn : aliceTurn);
const ownerOf = (c: TCallContext) => (c.who === "userOther" ? bob : alice);
const field = (value: unknown, key: string) => (value as Record<string, unknown>)[key];
const items = (value: unknown) => field(value, "items") as Record<string, unknown>[];

/** A fresh open promotion trigger (a missing query counted past a threshold of 1); its id. */
const EVERY_ONCE = Object.fromEntries(REPETITION_KINDS.map((k) => [k, 1])) as Record<TRepetitionKind, number>;

/** A domain_mismatch trigger (a routing suggestion), open. */
async function openMismatch(): Promise<string> {
  const key = `ops${next()}`;
  const repos = createRepositories(web.db);
  const label = `routed to "solserver", answered as "${key}" (first: "who is on call tonight ${key}")`;
  await repos.triggers.count([{ kind: "domain_mismatch", routerDomain: "solserver", key, label }], EVERY_ONCE);
  const found = (await repos.triggers.list(EVERY_ONCE, 500)).find((t) => t.key === key);
  if (!found) throw new Error("trigger was not raised");
  return found.trigger_id;
}

async function openTrigger(): Promise<string> {
  const key = `matrix query ${next()}`;
  const repos = createRepositories(web.db);
  await repos.triggers.count([{ kind: "missing_query", routerDomain: "general", key, label: key }], EVERY_ONCE);
  const open = await repos.triggers.list(EVERY_ONCE, 100);
  const found = open.find((t) => t.key === key);
  if (!found) throw new Error("trigger was not raised");
  return found.trigger_id;
}

/** Once: a CFB a Jam editor created by approving a proposal of Bob's; the CFB and the proposal. */
let bobsCfb: { cfb_id: string; proposal_id: string } | undefined;
async function cfbFromBobsProposal() {
  if (bobsCfb) return bobsCfb;
  const { proposal_id } = await freshTurn(bob);
  const res = await promoteProposal(web.as(jam.actor), { proposal_id, action: "approve_create" });
  if (!res.final_cfb_id) throw new Error("approve_create wrote no CFB");
  bobsCfb = { cfb_id: res.final_cfb_id, proposal_id };
  return bobsCfb;
}

/**
 * One proposal of Alice's, rejected (again, if a reopen made it pending): each reopen is a new
 * decision round of the same proposal, so the rows need no new turn each (turns fill the pages
 * other rows read).
 */
let reopened: string | undefined;
async function rejectedProposal(): Promise<string> {
  reopened ??= (await freshTurn(alice)).proposal_id;
  const current = await createRepositories(web.db).proposals.get(reopened);
  if (current?.status === "pending") {
    await promoteProposal(web.as(jam.actor), { proposal_id: reopened, action: "reject" });
  }
  return reopened;
}

/** The title each CFB a revert row made had at version 1 (what the revert brings back). */
const firstTitles = new Map<string, string>();

/** A fresh CFB authored by the Jam editor (its title a secret no refusal may show). */
async function freshCfb(label: string) {
  const created = await createCfb(web.as(jam.actor), cfbDraft({ title: `Matrix ${label} ${next()}` }));
  secrets.add(created.title);
  return created;
}

/** A word no other turn of the matrix uses ("zokalo…"), so the offline model proposes a new CFB. */
const SYLLABLES = ["ka", "lo", "mi", "nu", "pe", "ri", "so", "tu", "va", "xe"];
const uniqueWord = () => `zo${[...String(next())].map((d) => SYLLABLES[Number(d)]).join("")}`;

/**
 * A CFB private to `owner`: their own approval of a proposal of their own thread (issue 19),
 * about words no other CFB holds; its id and version. The message and title are secrets.
 */
async function freshPrivateCfb(owner: TWebAccount = alice): Promise<{ cfb_id: string; version: number }> {
  const message = `We decided to ${uniqueWord()} the ${uniqueWord()} ${uniqueWord()}.`;
  const turn = await respondToTurn(web.as(owner.actor), { request_id: `matrix-${next()}`, message });
  const preview = turn.ui_hints.proposal_previews[0];
  if (preview?.op !== "create") throw new Error("the offline model proposed no new CFB");
  for (const secret of [turn.thread_id, turn.response_id, preview.title, message]) secrets.add(secret);
  const res = await promoteProposal(web.as(owner.actor), {
    proposal_id: preview.proposal_id,
    action: "approve_create",
  });
  if (res.cfb?.visibility !== "private") throw new Error("a user's approval was not private");
  return { cfb_id: res.cfb.cfb_id, version: res.cfb.version };
}

/** Private CFBs of Alice's made before the rows run, one per endorse a Jam editor makes. */
const endorsable: { cfb_id: string; version: number }[] = [];

/** Once per owner: the CFB private to them that the read rows ask for. */
const privateCfbs = new Map<string, string>();
async function privateCfbOf(owner: TWebAccount): Promise<string> {
  const known = privateCfbs.get(owner.userId);
  if (known) return known;
  const { cfb_id } = await freshPrivateCfb(owner);
  privateCfbs.set(owner.userId, cfb_id);
  return cfb_id;
}

/** A one-phase workflow of its own name that pauses for approval (no two runs of a name at once). */
const approvalWorkflow = () =>
  `name: matrix-${next()}\nphases:\n  - id: only\n    checkpoint:\n      approval_required: true\n`;

/** A fresh run paused at its checkpoint; its id and version. */
async function pausedRun(): Promise<{ run_id: string; version: number }> {
  const run = await startWorkflow(web.as(jam.actor), { definition: approvalWorkflow() });
  if (run.status !== "awaiting_decision") throw new Error(`run is ${run.status}`);
  return { run_id: run.run_id, version: run.version };
}

/** A run left `running` with a phase to run (as when the server stopped mid-phase); its id. */
async function stalledRun(): Promise<string> {
  const definition = `name: matrix-${next()}\nphases:\n  - id: stats\n    run: umbra.recompute_stats\n`;
  const state = startRun(loadWorkflowOrThrow(definition), { now: new Date() });
  const row = await createRepositories(web.db).workflows.create({
    name: state.workflow,
    definition,
    status: state.status,
    state,
    startedById: null,
    startedVia: "api",
    exclusive: false,
  });
  return row.id;
}

/** A run waiting for a worker of its own queue (a unique queue per call). */
async function workerRun(): Promise<{ runId: string; queue: string }> {
  const queue = `matrix-${next()}`;
  const definition = `name: matrix-${next()}\nphases:\n  - id: work\n    run:\n      worker: ${queue}\n`;
  const state = startRun(loadWorkflowOrThrow(definition), { now: new Date() });
  const row = await createRepositories(web.db).workflows.create({
    name: state.workflow,
    definition,
    status: "awaiting_worker",
    queue,
    state,
    startedById: null,
    startedVia: "api",
    exclusive: false,
  });
  return { runId: row.id, queue };
}

/** A worker run claimed through the repository: its run id and lease. */
async function claimedRun(): Promise<{ run_id: string; lease_id: string }> {
  const { queue } = await workerRun();
  const lease = await createRepositories(web.db).workflows.claim({
    queue,
    owner: "matrix",
    leaseMs: () => 60_000,
    now: new Date(),
  });
  if (!lease) throw new Error("the matrix's worker run could not be claimed");
  return { run_id: lease.runId, lease_id: lease.leaseId };
}

// ---- tRPC procedures ---------------------------------------------------------------------------
const TRPC_ROWS: Record<string, TRow> = {
  "chat.respond": {
    expect: OWNED,
    input: async (c) => ({ request_id: `matrix-chat-${next()}`, thread_id: target(c).thread_id, message: "Hello?" }),
    check: (result, input) => {
      expect(field(result, "thread_id")).toBe(field(input, "thread_id"));
      expect(field(result, "replayed")).toBe(false);
    },
  },
  "proposals.list": {
    expect: OWNED,
    input: async (c) => ({ response_id: target(c).response_id }),
    check: (result, input) => {
      expect(items(result).length).toBeGreaterThan(0);
      for (const p of items(result)) expect(p.response_id).toBe(field(input, "response_id"));
    },
  },
  "proposals.get": {
    expect: OWNED,
    input: async (c) => ({ proposal_id: target(c).proposal_id }),
    check: (result, input) => expect(field(result, "proposal_id")).toBe(field(input, "proposal_id")),
  },
  "proposals.review": {
    expect: OWNED,
    input: async (c) => ({ proposal_id: target(c).proposal_id }),
    check: (result, input) => {
      expect(field(field(result, "proposal"), "proposal_id")).toBe(field(input, "proposal_id"));
      expect(typeof field(field(result, "source"), "user_message")).toBe("string");
    },
  },
  "promotion.promote": {
    expect: OWNED,
    input: async (c) => ({ proposal_id: (await freshTurn(ownerOf(c))).proposal_id, action: "reject" }),
    check: (result, input) => {
      expect(field(result, "proposal_id")).toBe(field(input, "proposal_id"));
      expect(field(result, "status")).toBe("rejected");
    },
  },
  "cfbs.list": {
    expect: SIGNED_IN,
    input: async () => ({ limit: 100 }),
    check: (result) => expect(items(result).map((c) => c.cfb_id)).toContain(seededCfb),
  },
  "cfbs.get": {
    expect: SIGNED_IN,
    input: async () => ({ cfb_id: seededCfb }),
    check: (result) => expect(field(result, "cfb_id")).toBe(seededCfb),
  },
  "cfbs.activity": {
    expect: SIGNED_IN,
    input: async () => ({ cfb_id: (await cfbFromBobsProposal()).cfb_id, days: 7 }),
    check: (result, input, c) => {
      expect(field(result, "cfb_id")).toBe(field(input, "cfb_id"));
      expect(field(result, "stats")).toMatchObject({ usage_30d: expect.any(Number) });
      expect(field(result, "usage_by_day")).toHaveLength(7);
      // The CFB is shared knowledge; the proposal behind it came from Bob's thread: Jam only.
      const bobs = (field(result, "proposals") as Record<string, unknown>[]).find(
        (p) => p.proposal_id === bobsCfb?.proposal_id,
      );
      if (c.who === "jam") expect(bobs).toMatchObject({ relation: "promoted_into", action: "approve_create" });
      else expect(bobs).toBeUndefined();
    },
  },
  "cfbs.create": {
    expect: JAM_ONLY,
    input: async () => cfbDraft({ title: `Matrix authored ${next()}` }),
    check: (result, input) => {
      expect(field(result, "title")).toBe(field(input, "title"));
      expect(field(result, "version")).toBe(1);
    },
  },
  "cfbs.update": {
    expect: JAM_ONLY,
    input: async () => {
      const created = await createCfb(web.as(jam.actor), cfbDraft({ title: `Matrix edited ${next()}` }));
      secrets.add(created.title);
      return { ...cfbDraft({ title: `Matrix edit ${next()}` }), cfb_id: created.cfb_id, version: created.version };
    },
    check: (result, input) => {
      expect(field(result, "cfb_id")).toBe(field(input, "cfb_id"));
      expect(field(result, "version")).toBe(2);
      expect(field(result, "title")).toBe(field(input, "title"));
    },
  },
  "cfbs.revert": {
    expect: JAM_ONLY,
    input: async () => {
      const created = await freshCfb("reverted");
      const edited = await updateCfb(web.as(jam.actor), {
        ...cfbDraft({ title: `Matrix revert edit ${next()}` }),
        cfb_id: created.cfb_id,
        version: created.version,
      });
      firstTitles.set(created.cfb_id, created.title);
      return { cfb_id: created.cfb_id, version: edited.version, to_version: 1 };
    },
    check: (result, input) => {
      expect(field(result, "cfb_id")).toBe(field(input, "cfb_id"));
      expect(field(result, "version")).toBe(3);
      expect(field(result, "title")).toBe(firstTitles.get(field(input, "cfb_id") as string));
    },
  },
  "cfbs.retire": {
    expect: JAM_ONLY,
    input: async () => ({ cfb_id: (await freshCfb("retired")).cfb_id, version: 1 }),
    check: (result, input) => {
      expect(field(result, "cfb_id")).toBe(field(input, "cfb_id"));
      expect(field(result, "version")).toBe(2);
      expect(field(result, "retired_ts")).not.toBeNull();
    },
  },
  "cfbs.restore": {
    expect: JAM_ONLY,
    input: async () => {
      const created = await freshCfb("restored");
      const retired = await retireCfb(web.as(jam.actor), { cfb_id: created.cfb_id, version: created.version });
      return { cfb_id: created.cfb_id, version: retired.version };
    },
    check: (result, input) => {
      expect(field(result, "cfb_id")).toBe(field(input, "cfb_id"));
      expect(field(result, "version")).toBe(3);
      expect(field(result, "retired_ts")).toBeNull();
    },
  },
  "cfbs.merge": {
    expect: JAM_ONLY,
    input: async () => {
      const [survivor, merged] = [await freshCfb("survivor"), await freshCfb("merged")];
      return { cfb_id: survivor.cfb_id, version: 1, merge_cfb_id: merged.cfb_id, merge_version: 1 };
    },
    check: (result, input) => {
      expect(field(result, "merged_cfb_id")).toBe(field(input, "merge_cfb_id"));
      expect(field(field(result, "cfb"), "cfb_id")).toBe(field(input, "cfb_id"));
      expect(field(field(result, "cfb"), "version")).toBe(2);
    },
  },
  "proposals.reopen": {
    expect: JAM_ONLY,
    input: async () => ({ proposal_id: await rejectedProposal() }),
    check: (result, input) => {
      expect(field(result, "proposal_id")).toBe(field(input, "proposal_id"));
      expect(field(result, "status")).toBe("pending");
      const earlier = field(result, "earlier_decisions") as Record<string, unknown>[];
      expect(earlier.length).toBeGreaterThan(0);
      for (const d of earlier) expect(d).toMatchObject({ action: "reject", editor: "jam" });
    },
  },
  "proposals.queues": {
    expect: SIGNED_IN,
    input: async () => undefined,
    check: (result) => {
      const domains = field(result, "domains") as Record<string, unknown>[];
      expect(domains.length).toBeGreaterThan(0);
      for (const d of domains) expect(Number(d.pending) + Number(d.decided_24h)).toBeGreaterThan(0);
      expect(typeof field(result, "assigned_to_me")).toBe("number");
    },
  },
  "proposals.assign": {
    expect: JAM_ONLY,
    input: async () => ({ proposal_ids: [aliceTurn.proposal_id], assignee_id: jam.userId }),
    check: (result) => {
      expect(field(result, "assigned")).toBe(1);
      expect(field(field(result, "assignee"), "email")).toBe(jam.email);
    },
  },
  "proposals.comment": {
    expect: OWNED,
    input: async (c) => ({ proposal_id: target(c).proposal_id, body: `a note ${next()}` }),
    check: (result, input) => {
      expect(field(result, "proposal_id")).toBe(field(input, "proposal_id"));
      expect(field(result, "kind")).toBe("comment");
      expect(field(result, "body")).toBe(field(input, "body"));
    },
  },
  "proposals.comments": {
    expect: OWNED,
    input: async (c) => ({ thread_id: target(c).thread_id }),
    check: (result) => {
      for (const item of items(result)) expect(["comment", "request_changes", "reject_reason"]).toContain(item.kind);
    },
  },
  "cfbs.endorse": {
    expect: JAM_ONLY,
    // A refused call changes nothing: only the Jam editor's needs a CFB of its own.
    input: async (c) =>
      c.who === "jam" ? (endorsable.pop() ?? freshPrivateCfb()) : { cfb_id: await privateCfbOf(alice), version: 1 },
    check: (result, input) => {
      expect(field(result, "cfb_id")).toBe(field(input, "cfb_id"));
      expect(result).toMatchObject({ visibility: "shared", private_to: null, version: 2 });
    },
  },
  "threads.list": {
    expect: SIGNED_IN,
    input: async () => ({ limit: 100 }),
    check: (result, _input, c) => {
      const ids = items(result).map((t) => t.thread_id);
      expect(ids).toContain(aliceTurn.thread_id);
      // A user's list is their own threads; a Jam editor's is everyone's.
      if (c.who === "jam") expect(ids).toContain(bobTurn.thread_id);
      else expect(ids).not.toContain(bobTurn.thread_id);
    },
  },
  "threads.get": {
    expect: OWNED,
    input: async (c) => ({ thread_id: target(c).thread_id }),
    check: (result, input) => {
      expect(field(result, "thread_id")).toBe(field(input, "thread_id"));
      expect(field(result, "owner_email")).toBe(alice.email);
    },
  },
  "mementos.get": {
    expect: OWNED,
    input: async (c) => ({ thread_id: target(c).thread_id }),
    check: (result, input) => {
      expect(field(result, "thread_id")).toBe(field(input, "thread_id"));
      expect(field(result, "version")).toBeGreaterThanOrEqual(1);
    },
  },
  "mementos.put": {
    expect: OWNED,
    input: async (c) => {
      const current = await getMemento(web.as(ownerOf(c).actor), { thread_id: target(c).thread_id });
      return { thread_id: current.thread_id, version: current.version, memento: current.memento };
    },
    check: (result, input) => expect(field(result, "version")).toBe((field(input, "version") as number) + 1),
  },
  "procedures.catalog": {
    expect: SIGNED_IN,
    input: async () => undefined,
    check: (result) => {
      const systems = field(result, "systems") as { system_id: string }[];
      expect(systems.map((x) => x.system_id)).toEqual(["water_pump", "roof_ac", "furnace", "slide_out"]);
    },
  },
  "procedures.get": {
    expect: OWNED,
    input: async (c) => ({ thread_id: c.who === "userOther" ? bobDiagnosis : aliceDiagnosis }),
    check: (result) => {
      expect(field(result, "system_id")).toBe("water_pump");
      expect(field(result, "active_step")).toMatchObject({ id: "fuse" });
      expect(field(result, "version")).toBeGreaterThanOrEqual(1);
    },
  },
  "me.get": {
    expect: SIGNED_IN,
    input: async () => undefined,
    check: (result, _input, c) => expect(field(result, "email")).toBe(c.me?.email),
  },
  "tokens.list": {
    expect: JAM_ONLY,
    input: async () => undefined,
    check: (result) => expect(items(result).map((t) => t.id)).toContain(jamTokenId),
  },
  "tokens.create": {
    expect: JAM_ONLY,
    input: async () => ({ user_id: alice.userId, name: `matrix token ${next()}` }),
    check: (result) => {
      expect(field(result, "token")).toMatch(/^sol_/);
      expect(field(result, "user_id")).toBe(alice.userId);
    },
  },
  "tokens.revoke": {
    expect: JAM_ONLY,
    input: async () => {
      const created = await createToken(web.as(jam.actor), { user_id: bob.userId, name: `r${next()}` });
      secrets.add(created.token);
      return { token_id: created.id };
    },
    check: (result, input) => {
      expect(field(result, "id")).toBe(field(input, "token_id"));
      expect(field(result, "revoked_ts")).not.toBeNull();
    },
  },
  "users.list": {
    expect: JAM_ONLY,
    input: async () => undefined,
    check: (result) =>
      expect(items(result).map((u) => u.id)).toEqual(expect.arrayContaining([alice.userId, bob.userId])),
  },
  "users.create": {
    expect: JAM_ONLY,
    input: async () => ({ email: `matrix-new-${next()}@web.test`, name: "New person", password: "a-long-password-1" }),
    check: (result, input) => {
      expect(field(result, "email")).toBe(field(input, "email"));
      expect(field(result, "role")).toBe("user");
    },
  },
  "users.setRole": {
    expect: JAM_ONLY,
    input: async () => ({ user_id: (await web.account("user", "promoted")).userId, role: "jam" }),
    check: (result, input) => expect(result).toEqual(input),
  },
  "users.setDisabled": {
    expect: JAM_ONLY,
    input: async () => ({ user_id: (await web.account("user", `disabled${next()}`)).userId, disabled: true }),
    check: (result, input) => {
      expect(field(result, "id")).toBe(field(input, "user_id"));
      expect(typeof field(result, "disabled_ts")).toBe("string");
    },
  },
  "users.delete": {
    expect: JAM_ONLY,
    input: async () => {
      const doomed = await web.account("user", `deleted${next()}`);
      return { user_id: doomed.userId, confirm_email: doomed.email };
    },
    check: (result, input) =>
      expect(result).toEqual({ user_id: field(input, "user_id"), email: field(input, "confirm_email") }),
  },
  "users.resetPassword": {
    expect: JAM_ONLY,
    input: async () => ({ user_id: (await web.account("user", `reset${next()}`)).userId }),
    check: (result, input) => {
      expect(field(result, "user_id")).toBe(field(input, "user_id"));
      expect(String(field(result, "password"))).toMatch(/^[\w-]{24}$/);
    },
  },
  "resolve.agreement": {
    expect: JAM_ONLY,
    input: async () => ({ limit: 50 }),
    check: (result) => expect(field(result, "agreed")).toBeLessThanOrEqual(Number(field(result, "compared"))),
  },
  "resolve.rules": {
    expect: JAM_ONLY,
    input: async () => undefined,
    check: (result) => expect(Array.isArray(result)).toBe(true),
  },
  "resolve.refit": {
    // The matrix's database holds fewer approved proposals than a refit needs.
    expect: { anonymous: "UNAUTHORIZED", user: "FORBIDDEN", jam: "PRECONDITION_FAILED" },
    input: async () => ({}),
    check: () => undefined,
  },
  "resolve.activate": {
    expect: JAM_ONLY,
    input: async () => ({ rule_id: null }),
    check: (result) => expect(result).toEqual({ active_rule_id: null }),
  },
  "routing.overview": {
    expect: JAM_ONLY,
    input: async () => undefined,
    check: (result) => expect(field(result, "fallback_domain")).toBe("general"),
  },
  "routing.add": {
    expect: JAM_ONLY,
    input: async () => ({ domain: "ops", text: `who holds the pager tonight ${next()}` }),
    check: (result, input) =>
      expect(result).toMatchObject({ domain: "ops", text: field(input, "text"), source: "manual" }),
  },
  "routing.remove": {
    expect: JAM_ONLY,
    input: async () => ({
      id: (await addRoutingExample(web.as(jam.actor), { domain: "ops", text: `rollback the release ${next()}` })).id,
    }),
    check: (result, input) => expect(result).toEqual({ id: field(input, "id"), removed: true }),
  },
  "routing.teach": {
    expect: JAM_ONLY,
    input: async () => ({ trigger_id: await openMismatch(), domain: "ops" }),
    check: (result, input) =>
      expect(result).toMatchObject({ domain: "ops", source: "suggestion", source_ref: field(input, "trigger_id") }),
  },
  "audit.list": {
    expect: JAM_ONLY,
    input: async () => ({ target_type: "token" }),
    check: (result) => {
      expect(items(result).length).toBeGreaterThan(0);
      for (const e of items(result)) expect(e.target_type).toBe("token");
    },
  },
  "feedback.give": {
    expect: OWNED,
    input: async (c) => ({ response_id: target(c).response_id, polarity: "negative", tag: "outdated" }),
    check: (result) => {
      expect(typeof field(result, "feedback_id")).toBe("string");
      expect(typeof field(result, "trigger_raised")).toBe("boolean");
    },
  },
  "workflows.start": {
    expect: JAM_ONLY,
    input: async () => ({ definition: approvalWorkflow() }),
    check: (result) => {
      expect(field(result, "status")).toBe("awaiting_decision");
      expect(field(field(result, "checkpoint"), "prompt")).toBe("Continue with next phase?");
    },
  },
  "workflows.decide": {
    expect: JAM_ONLY,
    input: async () => ({ ...(await pausedRun()), label: "Continue" }),
    check: (result, input) => {
      expect(field(result, "run_id")).toBe(field(input, "run_id"));
      expect(field(result, "status")).toBe("done");
    },
  },
  "workflows.get": {
    expect: JAM_ONLY,
    input: async () => ({ run_id: (await pausedRun()).run_id }),
    check: (result, input) => expect(field(result, "run_id")).toBe(field(input, "run_id")),
  },
  "jobs.list": {
    expect: JAM_ONLY,
    input: async () => ({ state: "failed", limit: 200 }),
    check: (result) => {
      expect(field(result, "engine")).toBe("sqlite");
      for (const job of items(result)) expect(job.state).toBe("failed");
    },
  },
  "jobs.get": {
    expect: JAM_ONLY,
    input: async () => ({
      id: await storedJob({ name: "resolve-refit", state: "completed", retryLimit: 0, output: { kept: false } }),
    }),
    check: (result, input) => {
      expect(field(result, "id")).toBe(field(input, "id"));
      expect(field(result, "output")).toEqual({ kept: false });
    },
  },
  "jobs.retry": {
    expect: JAM_ONLY,
    input: async () => ({
      id: await storedJob({
        name: "retention-prune",
        state: "failed",
        retryCount: 3,
        retryLimit: 3,
        error: "disk full",
      }),
    }),
    check: async (result, input) => {
      expect(result).toEqual({ ok: true });
      const row = await web.db.job.findUniqueOrThrow({ where: { id: String(field(input, "id")) } });
      expect(row).toMatchObject({ state: "retry", retryCount: 3, retryLimit: 4 });
    },
  },
  "workflows.list": {
    expect: JAM_ONLY,
    input: async () => {
      await pausedRun();
      return { status: "awaiting_decision", limit: 100 };
    },
    check: (result) => expect(items(result).length).toBeGreaterThan(0),
  },
  "workflows.resume": {
    expect: JAM_ONLY,
    input: async () => ({ run_id: await stalledRun() }),
    check: (result, input) => {
      expect(field(result, "run_id")).toBe(field(input, "run_id"));
      expect(field(result, "status")).toBe("done");
    },
  },
  "workflows.waiting": {
    expect: JAM_ONLY,
    input: async () => {
      await pausedRun();
      return undefined;
    },
    check: (result) => expect(Number(field(result, "count"))).toBeGreaterThan(0),
  },
  "workflows.cancel": {
    expect: JAM_ONLY,
    input: async () => {
      const { runId } = await workerRun();
      const row = await createRepositories(web.db).workflows.get(runId);
      return { run_id: runId, version: row?.version ?? 1, reason: "the queue name was mistyped" };
    },
    check: (result, input) => {
      expect(field(result, "run_id")).toBe(field(input, "run_id"));
      expect(field(result, "status")).toBe("aborted");
    },
  },
  "workflows.claimPhase": {
    expect: JAM_ONLY,
    input: async () => ({ queue: (await workerRun()).queue, worker: "matrix-worker" }),
    check: (result) => expect(field(field(result, "claim"), "phase_id")).toBe("work"),
  },
  "workflows.heartbeat": {
    expect: JAM_ONLY,
    input: claimedRun,
    check: (result) => expect(typeof field(result, "lease_expires_ts")).toBe("string"),
  },
  "workflows.completePhase": {
    expect: JAM_ONLY,
    input: async () => ({ ...(await claimedRun()), outcome: "done", data: { answer: 42 } }),
    check: (result, input) => {
      expect(field(result, "run_id")).toBe(field(input, "run_id"));
      expect(field(result, "status")).toBe("done");
    },
  },
  "workflows.schedule": {
    expect: JAM_ONLY,
    input: async () => ({}),
    check: (result) => expect(field(result, "workflow")).toBe("umbra-beat"),
  },
  "workflows.setSchedule": {
    expect: JAM_ONLY,
    // Off, so the matrix never leaves a due beat behind.
    input: async () => ({ enabled: false, cadence: "weekly", time_of_day: "05:45", weekday: 2 }),
    check: (result) => {
      expect(field(result, "time_of_day")).toBe("05:45");
      expect(field(result, "next_run_ts")).toBeNull();
    },
  },
  "triggers.list": {
    expect: JAM_ONLY,
    input: async () => {
      await openTrigger();
      return { limit: 100 };
    },
    check: (result) => expect(items(result).length).toBeGreaterThan(0),
  },
  "triggers.dismiss": {
    expect: JAM_ONLY,
    input: async () => ({ trigger_id: await openTrigger() }),
    check: (result, input) => {
      expect(field(result, "trigger_id")).toBe(field(input, "trigger_id"));
      expect(field(result, "dismissed")).toBe(true);
    },
  },
  "gate.evaluate": {
    expect: SIGNED_IN,
    input: async () => ({
      baseline: { output: "Hello! How can I help with your account today?", cost_usd: 1 },
      candidate: { output: "Contact me at hi@example.com and I will follow up.", cost_usd: 1.4 },
      label: `matrix-${next()}`,
    }),
    check: (result) => {
      const decision = field(result, "decision") as { status: string; reason_codes: string[] };
      expect(decision.status).toBe("BLOCK");
      expect(decision.reason_codes).toEqual(["COST_BLOCK_INCREASE", "PII_BLOCK_EMAIL"]);
      expect(typeof field(result, "evaluation_id")).toBe("string");
    },
  },
  "gate.list": {
    expect: SIGNED_IN,
    input: async () => ({ source: "turn" }),
    check: (result, _input, c) => {
      // Every turn is gated, so there is something to see; a user sees only their own threads'.
      expect(items(result).length).toBeGreaterThan(0);
      if (c.who === "user") for (const e of items(result)) expect(e.thread_id).not.toBe(bobTurn.thread_id);
      if (c.who === "jam") expect(items(result).some((e) => e.thread_id === bobTurn.thread_id)).toBe(true);
    },
  },
  "system.health": {
    expect: PUBLIC,
    input: async () => undefined,
    check: (result) => expect(field(result, "status")).toBe("ok"),
  },
  "system.semantic": {
    expect: SIGNED_IN,
    input: async () => undefined,
    check: (result) => expect(["off", "loading", "ready", "unavailable"]).toContain(field(result, "state")),
  },
};

// ---- CFBs private to a user (issue 19): the same procedures on another user's knowledge --------
/** Rows beyond one per procedure: `procedure` is called; own CFBs are Alice's, another's Bob's. */
const PRIVATE_CFB_ROWS: Record<string, TRow & { procedure: string }> = {
  "cfbs.get, a private CFB": {
    procedure: "cfbs.get",
    expect: OWNED,
    input: async (c) => ({ cfb_id: await privateCfbOf(ownerOf(c)) }),
    check: (result, input) => {
      expect(field(result, "cfb_id")).toBe(field(input, "cfb_id"));
      expect(result).toMatchObject({ visibility: "private", private_to: alice.email });
    },
  },
  "cfbs.activity, a private CFB": {
    procedure: "cfbs.activity",
    expect: OWNED,
    input: async (c) => ({ cfb_id: await privateCfbOf(ownerOf(c)), days: 7 }),
    check: (result, input) => expect(field(result, "cfb_id")).toBe(field(input, "cfb_id")),
  },
  "cfbs.list, private CFBs": {
    procedure: "cfbs.list",
    expect: SIGNED_IN,
    input: async () => {
      await Promise.all([privateCfbOf(alice), privateCfbOf(bob)]);
      return { visibility: "private", limit: 100 };
    },
    check: (result, _input, c) => {
      const owners = new Map(items(result).map((cfb) => [cfb.cfb_id, cfb.private_to] as const));
      expect(owners.get(privateCfbs.get(alice.userId) as string)).toBe(alice.email);
      // A user lists their own private CFBs; a Jam editor everyone's, with the owner.
      if (c.who === "jam") expect(owners.get(privateCfbs.get(bob.userId) as string)).toBe(bob.email);
      else expect(owners.has(privateCfbs.get(bob.userId) as string)).toBe(false);
    },
  },
};

/** Every tRPC case: [label, procedure, row]. */
const TRPC_CASES: [string, string, TRow][] = [
  ...Object.entries(TRPC_ROWS).map(([name, row]) => [name, name, row] as [string, string, TRow]),
  ...Object.entries(PRIVATE_CFB_ROWS).map(([label, row]) => [label, row.procedure, row] as [string, string, TRow]),
];

// ---- REST routes (every route.ts under src/app except better-auth's and tRPC's) ----------------
const REST_ROWS: Record<TRestRoute, TRow> = {
  "POST /chat/respond": TRPC_ROWS["chat.respond"] as TRow,
  "POST /chat/respond/stream": TRPC_ROWS["chat.respond"] as TRow,
  "GET /umbra/proposals": {
    ...(TRPC_ROWS["proposals.list"] as TRow),
    input: async (c) => `?response_id=${target(c).response_id}`,
    check: (result, query) => {
      expect(items(result).length).toBeGreaterThan(0);
      for (const p of items(result)) expect(`?response_id=${p.response_id}`).toBe(query);
    },
  },
  "POST /umbra/promote": TRPC_ROWS["promotion.promote"] as TRow,
  "GET /threads/[id]/memento": {
    ...(TRPC_ROWS["mementos.get"] as TRow),
    input: async (c) => target(c).thread_id,
    check: (result, id) => expect(field(result, "thread_id")).toBe(id),
  },
  "PUT /threads/[id]/memento": TRPC_ROWS["mementos.put"] as TRow,
  "GET /threads/[id]/procedure": {
    ...(TRPC_ROWS["procedures.get"] as TRow),
    input: async (c) => (c.who === "userOther" ? bobDiagnosis : aliceDiagnosis),
  },
  "GET /procedures": TRPC_ROWS["procedures.catalog"] as TRow,
  "POST /gate/evaluate": TRPC_ROWS["gate.evaluate"] as TRow,
  // Probes for a proxy or orchestrator (issue 20): anyone, and a status word is all they say.
  "GET /healthz": {
    expect: PUBLIC,
    input: async () => "",
    check: (result) => expect(result).toEqual({ status: "ok" }),
  },
  "GET /readyz": {
    expect: PUBLIC,
    input: async () => "",
    check: (result) => expect(result).toMatchObject({ status: "ok", checks: { database: "ok" } }),
  },
};

/** REST routes about a thread-owned resource (the rest need only an account). */
const OWNED_REST: TRestRoute[] = [
  "POST /chat/respond",
  "POST /chat/respond/stream",
  "GET /umbra/proposals",
  "POST /umbra/promote",
  "GET /threads/[id]/memento",
  "PUT /threads/[id]/memento",
  "GET /threads/[id]/procedure",
];

/** query or mutation, per procedure: queries go over GET, mutations over POST. */
const procedureTypes = Object.fromEntries(
  Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: "query" | "mutation" } }>).map(
    ([name, procedure]) => [name, procedure._def.type],
  ),
);

const WHOS: TWho[] = ["anonymous", "user", "userOther", "jam"];
const casesOf = (row: TRow) =>
  WHOS.flatMap((who) => {
    const outcome = row.expect[who];
    return outcome === undefined ? [] : [{ who, outcome }];
  });

function account(who: TWho): TWebAccount | null {
  if (who === "anonymous") return null;
  return who === "jam" ? jam : alice;
}

function actorOf(who: TWho): TActor {
  return account(who)?.actor ?? ANONYMOUS;
}

function headersOf(who: TWho, via: "cookie" | "token"): THeaders {
  if (who === "anonymous") return {};
  return who === "jam" ? headers[via].jam : headers[via].alice;
}

/** No resource data in a refusal, beyond what the caller sent. */
function expectNoLeak(text: string, input: unknown) {
  const sent = JSON.stringify(input ?? null);
  for (const secret of secrets) {
    if (!sent.includes(secret)) expect(text, `leaked "${secret}"`).not.toContain(secret);
  }
}

beforeAll(async () => {
  // Without the sentence model, and warmed up as a started server is: /readyz is a row below.
  web = await openWebServer("web-access-matrix", { SOLSERVER_EMBEDDINGS: "off" });
  await warmUp(web.deps);
  alice = await web.account("user", "alice");
  bob = await web.account("user", "bob");
  jam = await web.account("jam", "jam");
  for (const a of [alice, bob, jam]) {
    secrets.add(a.email);
    secrets.add(a.userId);
  }
  headers.cookie = { alice: await web.browser(alice), jam: await web.browser(jam) };
  const aliceToken = await web.bearer(jam, alice);
  const jamToken = await createToken(web.as(jam.actor), { user_id: jam.userId, name: "jam service" });
  jamTokenId = jamToken.id;
  headers.token = { alice: aliceToken, jam: { authorization: `Bearer ${jamToken.token}` } };
  for (const h of [aliceToken.authorization, jamToken.token]) secrets.add(String(h).replace("Bearer ", ""));
  // Private CFBs first: their turns are then older than every turn a row looks for (gate.list's page).
  await privateCfbOf(alice);
  await privateCfbOf(bob);
  for (let i = 0; i < 3; i++) endorsable.push(await freshPrivateCfb());
  aliceTurn = await freshTurn(alice);
  bobTurn = await freshTurn(bob);
  aliceDiagnosis = await freshDiagnosis(alice);
  bobDiagnosis = await freshDiagnosis(bob);
  const cfb = await createCfb(web.as(jam.actor), cfbDraft({ title: "Matrix seeded knowledge" }));
  seededCfb = cfb.cfb_id;
});

afterAll(async () => {
  await web?.close();
});

describe("completeness", () => {
  it("every tRPC procedure of appRouter has a row, and every row is a procedure", () => {
    const procedures = Object.keys(appRouter._def.procedures).sort();
    expect(procedures.length).toBeGreaterThan(0);
    expect(Object.keys(TRPC_ROWS).sort()).toEqual(procedures);
  });

  it("every REST route handler under src/app has a row, and every row is a route", async () => {
    const appDir = path.resolve(import.meta.dirname, "../src/app");
    const files = readdirSync(appDir, { recursive: true, encoding: "utf8" })
      .filter((f) => path.basename(f) === "route.ts")
      .map((f) => f.split(path.sep).join("/"))
      .filter((f) => !f.startsWith("api/auth/") && !f.startsWith("api/trpc/"));
    expect(files.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const file of files) {
      const mod = (await import(pathToFileURL(path.join(appDir, file)).href)) as Record<string, unknown>;
      const methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter(
        (m) => typeof mod[m] === "function",
      );
      expect(methods, file).not.toEqual([]);
      for (const method of methods) found.push(`${method} /${path.posix.dirname(file)}`);
    }
    expect(Object.keys(REST_ROWS).sort()).toEqual(found.sort());
  });

  it("rows about thread-owned resources include a user on another user's resource", () => {
    const owned = [
      "chat.respond",
      "feedback.give",
      "proposals.list",
      "proposals.get",
      "proposals.review",
      "proposals.comment",
      "proposals.comments",
      "promotion.promote",
      "threads.get",
      "mementos.get",
      "mementos.put",
      "procedures.get",
    ];
    for (const name of owned) expect(TRPC_ROWS[name]?.expect.userOther, name).toBe("FORBIDDEN");
    for (const route of OWNED_REST) expect(REST_ROWS[route].expect.userOther, route).toBe("FORBIDDEN");
  });

  it("rows about private CFBs call real procedures, and another user's private CFB is FORBIDDEN", () => {
    for (const [label, row] of Object.entries(PRIVATE_CFB_ROWS)) {
      expect(Object.keys(appRouter._def.procedures), label).toContain(row.procedure);
      if (row.expect.userOther !== undefined) expect(row.expect.userOther, label).toBe("FORBIDDEN");
    }
  });
});

describe("tRPC procedures through createCaller", () => {
  for (const [label, name, row] of TRPC_CASES) {
    it.each(casesOf(row))(`${label}: $who -> $outcome`, async ({ who, outcome }) => {
      const c: TCallContext = { who, me: account(who) };
      const input = await row.input(c);
      const ctx = createInnerContext({ deps: web.deps, actor: actorOf(who) });
      const procedure = name
        .split(".")
        .reduce<unknown>((o, key) => (o as Record<string, unknown>)[key], createCaller(ctx)) as (
        input: unknown,
      ) => Promise<unknown>;
      if (outcome === "ok") {
        await row.check(await procedure(input), input, c);
        return;
      }
      const before = await rowCounts(web.db);
      const error = await trpcError(procedure(input));
      expect(error.code).toBe(outcome);
      const shape = clientShape(ctx, error, name);
      expect(shape.data).toMatchObject({ code: outcome, httpStatus: HTTP_STATUS[outcome] });
      if (outcome === "UNAUTHORIZED") expect(shape.message).toBe(UNAUTHENTICATED_MESSAGE);
      expectNoLeak(JSON.stringify(shape), input);
      expect(await rowCounts(web.db)).toEqual(before);
    });
  }
});

describe.each(["cookie", "token"] as const)("tRPC procedures over HTTP, signed in by %s", (via) => {
  for (const [label, name, row] of TRPC_CASES) {
    const type = procedureTypes[name];
    it.each(casesOf(row))(`${label}: $who -> $outcome`, async ({ who, outcome }) => {
      const c: TCallContext = { who, me: account(who) };
      const input = await row.input(c);
      const before = await rowCounts(web.db);
      const result = await trpcHttp(web, name, type ?? "query", input, headersOf(who, via));
      expect(result.status, result.text).toBe(HTTP_STATUS[outcome]);
      if (outcome === "ok") {
        const data = trpcHttpData(result);
        await row.check(data, input, c);
        if (name === "me.get") expect(field(data, "via")).toBe(via);
        return;
      }
      const error = trpcHttpError(result);
      expect(error.data.code).toBe(outcome);
      if (outcome === "UNAUTHORIZED") expect(error.message).toBe(UNAUTHENTICATED_MESSAGE);
      expectNoLeak(result.text, input);
      expect(await rowCounts(web.db)).toEqual(before);
    });
  }
});

describe.each(["cookie", "token"] as const)("REST routes, signed in by %s", (via) => {
  for (const [route, row] of Object.entries(REST_ROWS) as [TRestRoute, TRow][]) {
    it.each(casesOf(row))(`${route}: $who -> $outcome`, async ({ who, outcome }) => {
      const c: TCallContext = { who, me: account(who) };
      const input = await row.input(c);
      const before = await rowCounts(web.db);
      const request = route.startsWith("GET ")
        ? { headers: headersOf(who, via), query: String(input) }
        : { headers: headersOf(who, via), body: input };
      const result: THttpResult = await rest(web, route, request);
      expect(result.status, result.text).toBe(HTTP_STATUS[outcome]);
      if (outcome === "ok") {
        await row.check(result.json, input, c);
        return;
      }
      expect(result.json).toMatchObject({
        error: { code: outcome === "UNAUTHORIZED" ? "UNAUTHENTICATED" : "FORBIDDEN" },
      });
      if (outcome === "UNAUTHORIZED")
        expect(result.json).toMatchObject({ error: { message: UNAUTHENTICATED_MESSAGE } });
      expectNoLeak(result.text, input);
      expect(await rowCounts(web.db)).toEqual(before);
    });
  }
});
