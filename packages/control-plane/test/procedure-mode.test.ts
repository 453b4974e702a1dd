// Procedure mode (seed 004) through the whole turn pipeline on a real SQLite file: a water-pump
// diagnosis from the complaint to the final report (views, replies and trace per turn), a restart
// of the control plane in the middle of a diagnosis, the rebuild of a lost or unreadable state,
// "auto" detection and the choose-system question, binding rules, plain chat, bad input,
// idempotent replays, replans, concurrent turns and what the model is given.
import {
  DomainError,
  type TChatRespondResponse,
  type TProcedureChoice,
  type TProcedureView,
} from "@solserver/contracts";
import { getStep, RV_SERVICE_CATALOG, type TStep } from "@solserver/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openControlPlane } from "../src/control-plane";
import { getThread, getThreadProcedure, respondToTurn, type TServiceContext } from "../src/index";
import { createOfflineModel } from "../src/model/offline-model";
import type { TModelInput, TModelProvider } from "../src/model/provider";
import { openTestControlPlane, TEST_BASE_URL, type TTestActor } from "../src/testing";
import { barrier } from "./support/barrier";

// ---- the model: the offline model, recording its input, optionally held at a barrier ------------

const offline = createOfflineModel();
const modelInputs: TModelInput[] = [];
/** When set, every model call waits for it first (to hold concurrent turns after they planned). */
let holdModel: (() => Promise<void>) | null = null;
const model: TModelProvider = {
  name: "offline-recording",
  async generate(input, options) {
    modelInputs.push(input);
    if (holdModel) await holdModel();
    return offline.generate(input, options);
  },
};

// ---- the control plane under test and small helpers ---------------------------------------------

type TOpened = Awaited<ReturnType<typeof openTestControlPlane>>;

let opened: TOpened;
let tech: TTestActor;
let requests = 0;

/** The auth options openTestControlPlane uses, to reopen its database file after a "restart". */
const AUTH = {
  secret: "test-secret-test-secret-test-secret-0123",
  baseURL: TEST_BASE_URL,
  trustedOrigins: [TEST_BASE_URL],
};

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "procedure", model, limits: { chatTurnsPerMinute: 10_000 } });
  tech = await opened.account("user");
});
afterAll(async () => opened?.close());

/** Who sends turns, to which control plane (the shared one and its technician by default). */
type TClient = TServiceContext;
const shared = (): TClient => opened.as(tech);

type TTurnOptions = { thread?: string; procedure?: TProcedureChoice; requestId?: string; client?: TClient };

/** One chat turn of the technician; a fresh request_id unless one is given. */
function turn(message: string, opts: TTurnOptions = {}): Promise<TChatRespondResponse> {
  return respondToTurn(opts.client ?? shared(), {
    request_id: opts.requestId ?? `proc-${process.pid}-${++requests}`,
    message,
    ...(opts.thread === undefined ? {} : { thread_id: opts.thread }),
    ...(opts.procedure === undefined ? {} : { procedure: opts.procedure }),
  });
}

/** Sends `messages` in order on one thread (the first binds it to `system`); returns every response. */
async function conversation(system: TProcedureChoice, messages: string[]): Promise<TChatRespondResponse[]> {
  const responses: TChatRespondResponse[] = [];
  for (const message of messages) {
    const thread = responses[0]?.thread_id;
    responses.push(await turn(message, { procedure: system, ...(thread === undefined ? {} : { thread }) }));
  }
  return responses;
}

/** The i-th response (negative: from the end), failing the test when there is none. */
function nth(responses: readonly TChatRespondResponse[], i: number): TChatRespondResponse {
  const response = responses.at(i);
  if (response === undefined) throw new Error(`no response ${i} among ${responses.length}`);
  return response;
}

/** The procedure view of a response, failing the test when there is none. */
function viewOf(response: TChatRespondResponse): TProcedureView {
  expect(response.procedure).not.toBeNull();
  return response.procedure as TProcedureView;
}

function pumpStep(id: string): TStep {
  const step = getStep(RV_SERVICE_CATALOG, "water_pump", id);
  if (step === null) throw new Error(`the catalog has no water_pump step ${id}`);
  return step;
}

/** The catalog answer of a water-pump step by its finding ("pump_runs=no"). */
function pumpAnswer(stepId: string, finding: string) {
  const answer = pumpStep(stepId).answers.find((a) => a.finding === finding);
  if (answer === undefined) throw new Error(`no answer ${finding} on ${stepId}`);
  return answer;
}

/** The trace events of phase "context" of one turn (via threads.get, as the dashboard reads them). */
async function contextTrace(response: TChatRespondResponse, client: TClient = shared()) {
  const thread = await getThread(client, { thread_id: response.thread_id });
  const turnTrace = thread.turns.find((t) => t.packet_id === response.packet_id);
  expect(turnTrace).toBeDefined();
  return (turnTrace?.trace ?? []).filter((e) => e.phase === "context");
}

async function contextRow(threadId: string) {
  return opened.db.conversationContext.findUnique({ where: { threadId } });
}

/** The DomainError a call rejects with; fails the test when it succeeds or throws something else. */
async function domainError(call: Promise<unknown>): Promise<DomainError> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected a DomainError, got ${JSON.stringify(value).slice(0, 200)}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

/** Where a view stands, in one comparable object. */
function standing(view: TProcedureView) {
  return {
    system_id: view.system_id,
    mode: view.mode,
    submode: view.submode,
    active_step: view.active_step?.id ?? null,
    completed: view.completed_steps.map((s) => s.id),
  };
}

const COMPLAINT = "The fresh water system stopped working this morning.";

// ---- a whole diagnosis ---------------------------------------------------------------------------

type TScriptedTurn = {
  message: string;
  standing: ReturnType<typeof standing>;
  directive: string;
  /** Lines the offline model's reply must contain. */
  says: string[];
  /** The turn's "context" trace summaries, exactly and in order. */
  trace: string[];
};

const PUMP_STEPS = RV_SERVICE_CATALOG.systems.find((s) => s.id === "water_pump")?.procedure.steps.length;
const FUSE = pumpStep("fuse");
const VOLTAGE = pumpStep("voltage_at_pump");
const RUNS = pumpStep("pump_runs");
const PUMP_DEAD = pumpAnswer("pump_runs", "pump_runs=no");

const pumpStanding = (
  mode: TProcedureView["mode"],
  submode: TProcedureView["submode"],
  active: string | null,
  completed: string[],
) => ({
  system_id: "water_pump",
  mode,
  submode,
  active_step: active,
  completed,
});

const DIAGNOSIS: TScriptedTurn[] = [
  {
    message: COMPLAINT,
    standing: pumpStanding("diagnostic", "main", "fuse", []),
    directive: "ask_step",
    says: ["Let's diagnose the 12 V fresh-water pump step by step", FUSE.question],
    trace: ["Procedure chosen: water_pump", "Complaint recorded", "Directive ask_step (step fuse)"],
  },
  {
    message: "where is the fuse panel?",
    standing: pumpStanding("diagnostic", "locate", "fuse", []),
    directive: "answer_clarification",
    says: [FUSE.locate ?? "(no locate text)", `Back to the step: ${FUSE.question}`],
    trace: [
      "Intent LOCATE at step fuse",
      "Sub-topic locate opened on step fuse",
      "Directive answer_clarification (step fuse)",
    ],
  },
  {
    message: "fuse is good",
    standing: pumpStanding("diagnostic", "main", "voltage_at_pump", ["fuse"]),
    directive: "ask_step",
    says: ["Recorded: Fuse intact / breaker on.", VOLTAGE.question],
    trace: [
      "Sub-topic locate closed: back to the main line",
      "Intent ANSWER at step fuse (answer ok)",
      "Step fuse completed: fuse=ok (+5 min labor draft)",
      "Directive ask_step (step voltage_at_pump)",
    ],
  },
  {
    message: "12 volts",
    standing: pumpStanding("diagnostic", "main", "pump_runs", ["fuse", "voltage_at_pump"]),
    directive: "ask_step",
    says: ["Recorded: About 12 V at the pump.", RUNS.question],
    trace: [
      "Intent ANSWER at step voltage_at_pump (answer ok)",
      "Step voltage_at_pump completed: pump_voltage=ok (+10 min labor draft)",
      "Directive ask_step (step pump_runs)",
    ],
  },
  {
    message: "no, it doesn't run",
    standing: pumpStanding("authorization", "main", null, ["fuse", "voltage_at_pump", "pump_runs"]),
    directive: "request_authorization",
    says: [
      "The diagnosis is complete.",
      `Cause: ${PUMP_DEAD.cause}`,
      `Proposed correction: ${PUMP_DEAD.correction}`,
      "Do you authorize the repair? Answer yes or no.",
    ],
    trace: [
      "Intent ANSWER at step pump_runs (answer no)",
      "Step pump_runs completed: pump_runs=no (+5 min labor draft)",
      "Mode diagnostic → authorization",
      "Directive request_authorization (step pump_runs)",
    ],
  },
  {
    message: "yes",
    standing: pumpStanding("final_report", "main", null, ["fuse", "voltage_at_pump", "pump_runs"]),
    directive: "final_report",
    says: [
      "Final report",
      `Complaint: ${COMPLAINT}`,
      `Cause: ${PUMP_DEAD.cause}`,
      "Labor (draft): 20 min",
      "Repair authorized.",
    ],
    trace: [
      "Intent ANSWER (answer yes)",
      "Mode authorization → final_report",
      "Directive final_report (step pump_runs)",
    ],
  },
];

/** Runs scripted turns on `thread` (a new one when undefined) and checks each against its script. */
async function runScript(
  script: TScriptedTurn[],
  opts: { thread?: string; firstVersion: number; client?: TClient },
): Promise<TChatRespondResponse[]> {
  const responses: TChatRespondResponse[] = [];
  let thread = opts.thread;
  for (const [i, step] of script.entries()) {
    const response = await turn(step.message, {
      procedure: "water_pump",
      ...(thread === undefined ? {} : { thread }),
      ...(opts.client ? { client: opts.client } : {}),
    });
    thread = response.thread_id;
    const view = viewOf(response);
    expect(standing(view), step.message).toEqual(step.standing);
    expect(view.directive_kind).toBe(step.directive);
    expect(view.version).toBe(opts.firstVersion + i);
    expect(view.state_source).toBe("stored");
    for (const line of step.says) expect(response.assistant_text).toContain(line);
    const trace = await contextTrace(response, opts.client);
    expect(trace.map((e) => e.summary)).toEqual(step.trace);
    responses.push(response);
  }
  return responses;
}

describe("a water-pump diagnosis from the complaint to the final report", () => {
  it("follows the engine turn by turn: views, replies, versions and trace", async () => {
    const responses = await runScript(DIAGNOSIS, { firstVersion: 1 });
    const first = nth(responses, 0);
    const locate = nth(responses, 1);
    const authorization = nth(responses, 4);
    const final = nth(responses, 5);

    // The first turn: the active step with its options, nothing completed, no report.
    expect(viewOf(first)).toMatchObject({
      system_title: "12 V fresh-water pump",
      procedure_id: "water_pump_isolation",
      active_step: { id: "fuse", question: FUSE.question, options: FUSE.answers.map((a) => a.label) },
      completed_steps: [],
      report: null,
      total_steps: PUMP_STEPS,
    });
    // The locate clarification answers from the registry and asks nothing new.
    expect(locate.assistant_text).not.toContain(VOLTAGE.question);
    // Authorization: the diagnosis is complete and no step is active.
    expect(viewOf(authorization).completed_steps).toEqual([
      // The catalog's finding keys, and the answers as the technician reads them.
      { id: "fuse", question: FUSE.question, finding: "fuse=ok", label: "Fuse intact / breaker on" },
      {
        id: "voltage_at_pump",
        question: VOLTAGE.question,
        finding: "pump_voltage=ok",
        label: "About 12 V at the pump",
      },
      { id: "pump_runs", question: RUNS.question, finding: "pump_runs=no", label: "Pump does not run" },
    ]);

    const view = viewOf(final);
    expect(view.report).toEqual({
      complaint: COMPLAINT,
      cause: PUMP_DEAD.cause,
      correction: PUMP_DEAD.correction,
      steps_performed: [
        { step: "fuse", question: FUSE.question, finding: "fuse=ok" },
        { step: "voltage_at_pump", question: VOLTAGE.question, finding: "pump_voltage=ok" },
        { step: "pump_runs", question: RUNS.question, finding: "pump_runs=no" },
      ],
      evidence: { fuse: "ok", pump_voltage: "ok", pump_runs: "no" },
      labor: {
        draft_minutes: 20,
        lines: [
          { step: "fuse", minutes: 5 },
          { step: "voltage_at_pump", minutes: 10 },
          { step: "pump_runs", minutes: 5 },
        ],
      },
      authorized: true,
      escalation: null,
      resolution: null,
      repair: null,
      not_checked: [],
      observations: [],
      doctrine: [],
      notes: [],
      revision: 1,
      revised_because: null,
      translation: null,
    });
    expect(view).toMatchObject({ language: "en", unchecked_steps: [], safety: null, report_history: [] });
    expect(final.assistant_text.startsWith("Final report")).toBe(true);

    // What procedures.get reads back is what the last turn returned.
    const threadId = final.thread_id;
    expect(await getThreadProcedure(opened.as(tech), { thread_id: threadId })).toEqual(view);
    expect(await contextRow(threadId)).toMatchObject({ systemId: "water_pump", version: 6 });
  });

  it("records the directive in the trace with its kind, step and mode", async () => {
    const trace = await contextTrace(nth(await conversation("water_pump", [COMPLAINT]), 0));
    const directive = trace.at(-1);
    expect(directive?.summary).toBe("Directive ask_step (step fuse)");
    expect(directive?.metadata).toMatchObject({
      kind: "ask_step",
      step_id: "fuse",
      mode: "diagnostic",
      submode: "main",
      active_step: "fuse",
      completed: 0,
      labor_draft_minutes: 0,
    });
    const complaint = trace.find((e) => e.summary === "Complaint recorded");
    expect(complaint?.metadata).toMatchObject({ type: "intent", intent: "COMPLAINT" });
  });
});

// ---- a restart in the middle ---------------------------------------------------------------------

describe("a restart of the control plane in the middle of a diagnosis", () => {
  it("continues on a new instance from the stored state, same step, versions continuing", async () => {
    const own = await openTestControlPlane({
      label: "procedure-restart",
      model,
      limits: { chatTurnsPerMinute: 10_000 },
    });
    let second: Awaited<ReturnType<typeof openControlPlane>> | null = null;
    try {
      const actor = await own.account("user");
      const before = await runScript(DIAGNOSIS.slice(0, 3), {
        firstVersion: 1,
        client: own.as(actor),
      });
      const threadId = nth(before, 0).thread_id;
      const last = viewOf(nth(before, -1));
      await own.db.$disconnect();

      second = await openControlPlane({ databaseUrl: own.database.url, model, auth: AUTH });
      const reread = await getThreadProcedure({ deps: second.deps, caller: actor }, { thread_id: threadId });
      expect(reread).toMatchObject({ state_source: "stored", version: 3 });
      expect(standing(reread)).toEqual(standing(last));
      expect(reread.evidence).toEqual({ fuse: "ok" });

      const after = await runScript(DIAGNOSIS.slice(3), {
        thread: threadId,
        firstVersion: 4,
        client: { deps: second.deps, caller: actor },
      });
      const final = viewOf(nth(after, -1));
      expect(final.version).toBe(6);
      expect(final.report).toMatchObject({
        complaint: COMPLAINT,
        authorized: true,
        steps_performed: [{ step: "fuse" }, { step: "voltage_at_pump" }, { step: "pump_runs" }],
      });
      const packets = await second.db.packet.count({ where: { threadId } });
      expect(packets).toBe(6);
    } finally {
      await own.db.$disconnect();
      await second?.db.$disconnect();
      own.database.cleanup();
    }
  });
});

// ---- rebuilding a lost or unreadable state -------------------------------------------------------

describe("a lost or unreadable state is rebuilt from the thread's messages", () => {
  it("a deleted ConversationContext row: procedures.get rebuilds it, the next turn stores it again", async () => {
    const responses = await conversation("water_pump", [
      COMPLAINT,
      "where is the fuse panel?",
      "fuse is good",
      "12 volts",
    ]);
    const threadId = nth(responses, 0).thread_id;
    const before = await getThreadProcedure(opened.as(tech), { thread_id: threadId });
    expect(before).toMatchObject({ state_source: "stored", version: 4 });

    expect((await opened.db.conversationContext.deleteMany({ where: { threadId } })).count).toBe(1);
    const rebuilt = await getThreadProcedure(opened.as(tech), { thread_id: threadId });
    // Its version counts the turns replayed: it continues where the lost state stopped.
    expect(rebuilt).toMatchObject({ state_source: "rebuilt", version: 4 });
    expect(standing(rebuilt)).toEqual(standing(before));
    expect(rebuilt.completed_steps).toEqual(before.completed_steps);
    expect(rebuilt.evidence).toEqual(before.evidence);
    expect(rebuilt.labor).toEqual(before.labor);
    // Reading does not write.
    expect(await contextRow(threadId)).toBeNull();

    const next = await turn("no, it doesn't run", { thread: threadId });
    expect(viewOf(next)).toMatchObject({ state_source: "stored", version: 5, mode: "authorization" });
    const trace = await contextTrace(next);
    const rebuiltEvent = trace.find((e) => e.summary.startsWith("State rebuilt from"));
    expect(rebuiltEvent?.summary).toBe("State rebuilt from 4 message(s): no stored state");
    expect(rebuiltEvent?.metadata).toMatchObject({ system_id: "water_pump", replayed: 4 });
    expect(await contextRow(threadId)).toMatchObject({ version: 5 });
    expect(await getThreadProcedure(opened.as(tech), { thread_id: threadId })).toMatchObject({
      state_source: "stored",
      version: 5,
    });
  });

  it("a stored state that no longer parses is rebuilt too, and the next write bumps the stored version", async () => {
    const responses = await conversation("water_pump", [COMPLAINT, "fuse is good", "12 volts", "no, it doesn't run"]);
    const threadId = nth(responses, 0).thread_id;
    const before = await getThreadProcedure(opened.as(tech), { thread_id: threadId });
    expect(before).toMatchObject({ mode: "authorization", version: 4 });

    await opened.db.conversationContext.update({ where: { threadId }, data: { state: {} } });
    const rebuilt = await getThreadProcedure(opened.as(tech), { thread_id: threadId });
    expect(rebuilt).toMatchObject({ state_source: "rebuilt", version: 4 });
    expect(standing(rebuilt)).toEqual(standing(before));

    const final = await turn("yes", { thread: threadId });
    expect(viewOf(final)).toMatchObject({ state_source: "stored", version: 5, mode: "final_report" });
    expect(viewOf(final).report).toMatchObject({ complaint: COMPLAINT, authorized: true });
    const trace = await contextTrace(final);
    expect(trace.map((e) => e.summary)).toContain(
      "State rebuilt from 4 message(s): the stored state does not fit the catalog",
    );
  });
});

// ---- choosing the procedure ----------------------------------------------------------------------

describe("binding a thread to a procedure", () => {
  it('"auto" binds to the system the first message names', async () => {
    const response = await turn("my furnace blows cold air", { procedure: "auto" });
    const furnace = RV_SERVICE_CATALOG.systems.find((s) => s.id === "furnace");
    expect(viewOf(response)).toMatchObject({
      system_id: "furnace",
      mode: "diagnostic",
      active_step: { id: furnace?.procedure.steps[0]?.id },
      version: 1,
    });
    const trace = await contextTrace(response);
    expect(trace[0]?.summary).toMatch(/^Procedure detected: furnace \(score \d+\)$/);
    expect(await contextRow(response.thread_id)).toMatchObject({ systemId: "furnace", version: 1 });
  });

  it('"auto" with no system in the message asks which one and leaves the thread unbound', async () => {
    const asked = await turn("it is broken", { procedure: "auto" });
    expect(asked.procedure).toBeNull();
    expect(asked.assistant_text).toContain("Which system is this about?");
    for (const system of RV_SERVICE_CATALOG.systems) expect(asked.assistant_text).toContain(system.name);
    const trace = await contextTrace(asked);
    expect(trace.map((e) => e.summary)).toEqual([
      "No catalog system recognised in the message: the model asks which one",
    ]);
    expect(trace[0]?.metadata).toMatchObject({ systems: RV_SERVICE_CATALOG.systems.map((s) => s.id) });
    expect(await contextRow(asked.thread_id)).toBeNull();
    expect(await opened.db.thread.findUnique({ where: { id: asked.thread_id } })).toMatchObject({
      procedureSystemId: null,
    });
    const notBound = await domainError(getThreadProcedure(opened.as(tech), { thread_id: asked.thread_id }));
    expect(notBound.code).toBe("NOT_FOUND");

    // A later turn naming the system binds it then; that message is the complaint.
    const bound = await turn("the pump won't run", { thread: asked.thread_id, procedure: "water_pump" });
    expect(viewOf(bound)).toMatchObject({ system_id: "water_pump", active_step: { id: "fuse" }, version: 1 });
    expect((await contextTrace(bound))[0]?.summary).toBe("Procedure chosen: water_pump");
    expect(bound.assistant_text).toContain(FUSE.question);
  });

  it("a bound thread keeps its procedure whatever later turns send", async () => {
    const thread = nth(await conversation("water_pump", [COMPLAINT]), 0).thread_id;
    const other = await turn("fuse is good", { thread, procedure: "furnace" });
    expect(standing(viewOf(other))).toEqual(pumpStanding("diagnostic", "main", "voltage_at_pump", ["fuse"]));
    expect(viewOf(other).version).toBe(2);
    const none = await turn("12 volts", { thread, procedure: "none" });
    expect(standing(viewOf(none))).toEqual(
      pumpStanding("diagnostic", "main", "pump_runs", ["fuse", "voltage_at_pump"]),
    );
    expect(viewOf(none).version).toBe(3);
    const omitted = await turn("where is the pump?", { thread });
    expect(viewOf(omitted)).toMatchObject({ submode: "locate", version: 4 });
    expect(await opened.db.thread.findUnique({ where: { id: thread } })).toMatchObject({
      procedureSystemId: "water_pump",
    });
  });

  it('a turn without `procedure`, or with "none", is plain chat', async () => {
    const omitted = await turn("The pump is silent and the fuse is good.");
    const none = await turn("The furnace blows cold air.", { procedure: "none" });
    for (const response of [omitted, none]) {
      expect(response.procedure).toBeNull();
      expect(response.assistant_text).not.toContain(FUSE.question);
      expect(await contextRow(response.thread_id)).toBeNull();
      expect((await contextTrace(response)).length).toBe(0);
    }
    // A later plain turn on the same thread stays plain.
    const later = await turn("fuse is good", { thread: omitted.thread_id });
    expect(later.procedure).toBeNull();
    expect(await contextRow(omitted.thread_id)).toBeNull();
  });

  it('a system the catalog does not have ("awning") is BAD_INPUT on "procedure" and writes nothing', async () => {
    const bound = nth(await conversation("water_pump", [COMPLAINT]), 0).thread_id;
    const counts = async () => ({
      threads: await opened.db.thread.count(),
      packets: await opened.db.packet.count(),
      messages: await opened.db.message.count(),
      contexts: await opened.db.conversationContext.count(),
    });
    const before = await counts();
    for (const thread of [undefined, bound]) {
      const error = await domainError(
        turn("the awning won't extend", { procedure: "awning", ...(thread === undefined ? {} : { thread }) }),
      );
      expect(error.code).toBe("BAD_INPUT");
      expect(error.field).toBe("procedure");
      expect(error.message).toContain("water_pump");
    }
    expect(await counts()).toEqual(before);
    expect(await getThreadProcedure(opened.as(tech), { thread_id: bound })).toMatchObject({
      version: 1,
    });
  });
});

// ---- replays, replans, concurrency ---------------------------------------------------------------

describe("retries, corrections and concurrent turns", () => {
  it("a replayed request_id answers the stored text with the current view and does not advance", async () => {
    const first = await turn(COMPLAINT, { procedure: "water_pump", requestId: `replay-a-${process.pid}` });
    const thread = first.thread_id;
    const second = await turn("fuse is good", { thread, requestId: `replay-b-${process.pid}` });
    expect(viewOf(second).version).toBe(2);
    const packets = await opened.db.packet.count({ where: { threadId: thread } });

    const again = await turn("fuse is good", { thread, requestId: `replay-b-${process.pid}` });
    expect(again.replayed).toBe(true);
    expect(again.assistant_text).toBe(second.assistant_text);
    expect(again.packet_id).toBe(second.packet_id);
    expect(viewOf(again)).toMatchObject({ version: 2, active_step: { id: "voltage_at_pump" } });

    // Replaying the first turn gives its text but the view as it is now, not as it was then.
    const firstAgain = await turn(COMPLAINT, { procedure: "water_pump", requestId: `replay-a-${process.pid}` });
    expect(firstAgain.replayed).toBe(true);
    expect(firstAgain.assistant_text).toBe(first.assistant_text);
    expect(viewOf(firstAgain)).toMatchObject({ version: 2, completed_steps: [{ id: "fuse" }] });

    expect(await opened.db.packet.count({ where: { threadId: thread } })).toBe(packets);
    expect(await contextRow(thread)).toMatchObject({ version: 2 });
  });

  it('"actually wait, the fuse was blown" after later steps rolls back and follows the blown-fuse branch', async () => {
    const responses = await conversation("water_pump", [COMPLAINT, "fuse is good", "12 volts"]);
    const thread = nth(responses, 0).thread_id;
    const recheck = getStep(RV_SERVICE_CATALOG, "water_pump", "fuse_recheck") as TStep;

    const replan = await turn("actually wait, the fuse was blown", { thread });
    const view = viewOf(replan);
    expect(standing(view)).toEqual(pumpStanding("diagnostic", "replan", "fuse_recheck", ["fuse"]));
    expect(view).toMatchObject({
      directive_kind: "replan",
      version: 4,
      completed_steps: [{ id: "fuse", finding: "fuse=blown" }],
      evidence: { fuse: "blown" },
      labor: { draft_minutes: 5 },
    });
    expect(replan.assistant_text).toContain(
      'You corrected an earlier answer: "Fuse intact / breaker on" is now "Fuse blown / breaker tripped"',
    );
    expect(replan.assistant_text).toContain("Steps set aside (asked again if still needed): voltage_at_pump.");
    // a blown fuse is a signal to find the cause: the new fuse is tried before anything is concluded
    expect(replan.assistant_text).toContain(recheck.question);
    expect(replan.assistant_text).not.toContain("Do you authorize the repair?");

    const trace = await contextTrace(replan);
    const event = trace.find((e) => e.summary.startsWith("Replan:"));
    expect(event?.summary).toBe("Replan: fuse was fuse=ok, now fuse=blown; rolled back fuse, voltage_at_pump");
    expect(trace.at(-1)?.summary).toBe("Directive replan (step fuse_recheck)");
  });

  it("two turns at once on one procedure thread: the stored version counts exactly the turns that landed", async () => {
    const thread = nth(await conversation("water_pump", [COMPLAINT]), 0).thread_id;
    const results = await Promise.allSettled([turn("fuse is good", { thread }), turn("fuse is good", { thread })]);
    const landed = results.filter((r) => r.status === "fulfilled").length;
    expect(landed).toBeGreaterThanOrEqual(1);
    for (const r of results) {
      if (r.status === "rejected") {
        expect(r.reason).toBeInstanceOf(DomainError);
        expect(r.reason).toMatchObject({ code: "CONFLICT", field: "procedure_version" });
      }
    }
    expect(await contextRow(thread)).toMatchObject({ version: 1 + landed });
    expect(await opened.db.packet.count({ where: { threadId: thread } })).toBe(1 + landed);
    expect(await opened.db.message.count({ where: { threadId: thread } })).toBe(2 * (1 + landed));
  });

  it("two turns that both planned on the same version: exactly one lands, the other is CONFLICT and writes nothing", async () => {
    const thread = nth(await conversation("water_pump", [COMPLAINT]), 0).thread_id;
    holdModel = barrier(2);
    let results: PromiseSettledResult<TChatRespondResponse>[];
    try {
      results = await Promise.allSettled([turn("fuse is good", { thread }), turn("where is the fuse?", { thread })]);
    } finally {
      holdModel = null;
    }
    const landed = results.filter((r) => r.status === "fulfilled");
    const failed = results.filter((r) => r.status === "rejected");
    expect(landed).toHaveLength(1);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.reason).toBeInstanceOf(DomainError);
    expect(failed[0]?.reason).toMatchObject({ code: "CONFLICT", field: "procedure_version" });

    const winner = (landed[0] as PromiseFulfilledResult<TChatRespondResponse>).value;
    expect(viewOf(winner).version).toBe(2);
    expect(await getThreadProcedure(opened.as(tech), { thread_id: thread })).toEqual(viewOf(winner));
    expect(await opened.db.packet.count({ where: { threadId: thread } })).toBe(2);
    expect(await opened.db.message.count({ where: { threadId: thread } })).toBe(4);
  });
});

// ---- what the model is given ---------------------------------------------------------------------

describe("the model's input in procedure mode", () => {
  it("carries the engine's directive: ask_step on the fuse for the first turn", async () => {
    await turn(COMPLAINT, { procedure: "water_pump" });
    const input = modelInputs.at(-1);
    expect(input?.message).toBe(COMPLAINT);
    expect(input?.procedure?.kind).toBe("directive");
    if (input?.procedure?.kind !== "directive") return;
    expect(input.procedure).toMatchObject({
      system: "12 V fresh-water pump",
      procedure: "12 V water pump: no water, no pressure or cycling",
      mode: "diagnostic",
      directive: {
        kind: "ask_step",
        step_id: "fuse",
        registry: { question: FUSE.question, howto: FUSE.howto },
        options: FUSE.answers.map((a) => a.label),
      },
    });
    expect(input.procedure.directive.constraints.every((c) => /^(Safety|Warranty): /.test(c))).toBe(true);
    expect(input.procedure.events).toEqual([
      { type: "intent", detail: expect.objectContaining({ intent: "COMPLAINT", noted: [], language: "en" }) },
    ]);
  });

  it("is choose_system with every catalog system for an unrecognised auto message, and null for plain chat", async () => {
    await turn("it is broken", { procedure: "auto" });
    expect(modelInputs.at(-1)?.procedure).toEqual({
      kind: "choose_system",
      systems: RV_SERVICE_CATALOG.systems.map((s) => ({ id: s.id, name: s.name, keywords: s.detect.keywords })),
    });
    await turn("it is broken");
    expect(modelInputs.at(-1)?.procedure).toBeNull();
  });
});
