// The context engine (state v2, issue 22): every transition and guard, the ADR's acceptance
// criteria as scenarios (criterion 6, single flow authority, is in context-authority.test.ts),
// findings recorded at once, non-answers, explicit consent, report revisions, safety stops and
// evidence rules, a full water-pump diagnosis, persistence round trips, determinism, and property
// tests over random conversations.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ContextEngineError,
  contextTurn,
  DIRECTIVE_KINDS,
  getConstraints,
  localSystem,
  MAX_NON_ANSWERS,
  MAX_REASKS,
  parseContextState,
  RV_SERVICE_CATALOG,
  startContext,
  type TContextEvent,
  type TContextState,
  type TContextTurn,
  type TSystem,
  ZContextState,
} from "../src/index";
import { drive, last } from "./drive";

const catalog = RV_SERVICE_CATALOG;

function at(turns: readonly TContextTurn[], index: number): TContextTurn {
  const turn = turns[index];
  if (turn === undefined) throw new Error(`no turn ${index}`);
  return turn;
}

const eventsOf = (turn: TContextTurn, type: TContextEvent["type"]) => turn.events.filter((e) => e.type === type);
const PUMP = "water pump";
const TECHNICIAN = "@technician";

function stepOf(systemId: string, stepId: string) {
  const step = catalog.systems.find((s) => s.id === systemId)?.procedure.steps.find((s) => s.id === stepId);
  if (step === undefined) throw new Error(`no step ${stepId}`);
  return step;
}

function getStepQuestion(systemId: string, stepId: string): string {
  return stepOf(systemId, stepId).question;
}

/** An answer's label as the catalog (English) gives it. */
function labelOf(systemId: string, stepId: string, answerId: string): string {
  const answer = stepOf(systemId, stepId).answers.find((a) => a.id === answerId);
  if (answer === undefined) throw new Error(`no answer ${stepId}.${answerId}`);
  return answer.label ?? answer.id;
}

/** The steps a conversation asked (ask_step / rephrase / replan directives), in order. */
const askedSteps = (turns: readonly TContextTurn[]) =>
  turns.filter((t) => ["ask_step", "rephrase", "replan"].includes(t.directive.kind)).map((t) => t.directive.step_id);

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("startContext", () => {
  it("opens a version-2 diagnostic case at the first step, with nothing recorded", () => {
    expect(startContext(catalog, "water_pump")).toEqual({
      v: 2,
      system_id: "water_pump",
      procedure_id: "water_pump_isolation",
      mode: "diagnostic",
      submode: "main",
      active_step: "fuse",
      completed: [],
      evidence: {},
      evidence_log: [],
      topic_stack: [],
      guard: { reasks: {}, last_directive_kind: null, more_info_asked_last: false },
      labor: { draft_minutes: 0, lines: [] },
      turn: 0,
      complaint: null,
      report: null,
      language: "en",
      not_checked: {},
      pending_findings: {},
      safety: null,
      observations: [],
      report_history: [],
      reopened_because: null,
    });
  });

  it("rejects an unknown system", () => {
    expect(() => startContext(catalog, "awning")).toThrow(ContextEngineError);
  });
});

describe("the first message (complaint)", () => {
  it("is recorded as the complaint and step 1 is asked", () => {
    const turn = last(drive("water_pump", ["My water pump makes no noise at all"]));
    expect(turn.state.complaint).toBe("My water pump makes no noise at all");
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "fuse" });
    expect(turn.directive.text).toMatch(/^Acknowledge the complaint/);
    expect(turn.directive.options).toEqual(["Fuse intact / breaker on", "Fuse blown / breaker tripped"]);
    expect(turn.state.completed).toEqual([]);
    expect(turn.directive.recorded).toBeUndefined();
  });

  it.each(["pump runs but no water", "pump won't run", "no water from the faucet", "the pump keeps cycling"])(
    "the system's symptom phrases are the complaint, not findings: %j records nothing",
    (complaint) => {
      const turn = last(drive("water_pump", [complaint]));
      expect(turn.state.evidence).toEqual({});
      expect(turn.state.completed).toEqual([]);
      expect(turn.state.pending_findings).toEqual({});
      expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "fuse" });
    },
  );

  it("records the specific findings it states at once; their steps are never asked", () => {
    const turns = drive("water_pump", [
      "water pump not working, fuse is fine and 12.6V at the pump",
      "the pump is dead",
      "yes",
    ]);
    const first = at(turns, 0);
    expect(first.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok" });
    expect(first.state.completed).toEqual(["fuse", "voltage_at_pump"]);
    expect(first.directive).toMatchObject({ kind: "ask_step", step_id: "pump_runs" });
    expect(first.directive.recorded_all).toEqual([
      labelOf("water_pump", "fuse", "ok"),
      labelOf("water_pump", "voltage_at_pump", "ok"),
    ]);
    expect(first.directive.text).toMatch(/^Acknowledge the complaint in one sentence\. From it, recorded: /);
    expect(askedSteps(turns)).not.toContain("fuse");
    expect(askedSteps(turns)).not.toContain("voltage_at_pump");
    expect(last(turns).state.report?.steps_performed.map((s) => s.finding)).toEqual([
      "fuse=ok",
      "pump_voltage=ok",
      "pump_runs=no",
    ]);
  });

  it("records a finding and one on its branch stated together (the branch is established by the first)", () => {
    const turn = last(drive("water_pump", ["the pump sputters, fuse ok, tank is half full"]));
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_runs: "no_water", tank_level: "ok" });
    expect(turn.state.active_step).toBe("voltage_at_pump");
  });

  it("never records the opposite of what it says ('runs but nothing comes out' is not 'runs normally')", () => {
    const turn = last(
      drive("water_pump", ["Customer says the water pump runs but nothing comes out of the kitchen faucet"]),
    );
    expect(turn.state.evidence.pump_runs).not.toBe("yes");
  });

  it('a symptom in the complaint never completes a test step ("slide won\'t move" is not the override test)', () => {
    const turns = drive("slide_out", [
      "slide won't move",
      "battery is good",
      "switch works",
      "it stalls",
      "nothing blocking",
    ]);
    const turn = last(turns);
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "manual_override" });
    expect(turn.state.completed).not.toContain("manual_override");
  });

  it("is never read as an answer to step 1 through generic words", () => {
    const turn = last(drive("water_pump", ["no idea, the pump is just not working"]));
    expect(turn.state.completed).toEqual([]);
    expect(turn.state.active_step).toBe("fuse");
  });
});

describe("ANSWER", () => {
  it("records the finding, completes the step, adds its labor and asks the next step", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse is fine"]));
    expect(turn.state.evidence).toEqual({ fuse: "ok" });
    expect(turn.state.completed).toEqual(["fuse"]);
    expect(turn.state.labor).toEqual({ draft_minutes: 5, lines: [{ step: "fuse", minutes: 5 }] });
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
    expect(turn.directive.text).toMatch(/^Recorded fuse=ok\./);
    expect(eventsOf(turn, "step_completed")).toEqual([
      { type: "step_completed", detail: { step: "fuse", finding: "fuse=ok", via: "answer", minutes: 5 } },
    ]);
  });

  it("follows answer.next (12 V at the pump skips the pump switch)", () => {
    expect(last(drive("water_pump", [PUMP, "fuse ok", "12 volts"])).state.active_step).toBe("pump_runs");
  });

  it("follows a branch: no voltage goes to the pump switch", () => {
    expect(last(drive("water_pump", [PUMP, "fuse ok", "no voltage"])).state.active_step).toBe("pump_switch");
  });

  it("passes over steps whose `requires` does not hold (tank/strainer only when the pump runs dry)", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse ok", "12 volts", "it keeps cycling", "stops then restarts"]));
    expect(turn.state.completed).toEqual(["fuse", "voltage_at_pump", "pump_runs", "pressure_switch"]);
    expect(turn.state.active_step).toBe("leaks");
  });

  it("falls through to the next step in order when an answer has no next", () => {
    const turn = last(drive("roof_ac", ["ac not cooling", "yes, breaker is on"]));
    expect(turn.state.active_step).toBe("thermostat");
  });

  it("an answer that ends the diagnosis asks for authorization", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse ok", "12 volts", "the pump is dead"]));
    expect(turn.state.mode).toBe("authorization");
    expect(turn.state.active_step).toBeNull();
    expect(turn.state.report).toBeNull();
    expect(turn.directive).toMatchObject({
      kind: "request_authorization",
      step_id: "pump_runs",
      options: ["yes", "no"],
    });
    expect(turn.directive.text).toContain("Proposed correction: Replace the water pump");
    expect(eventsOf(turn, "mode_change")).toEqual([
      { type: "mode_change", detail: { from: "diagnostic", to: "authorization" } },
    ]);
  });

  it("reads meter readings against the step's ranges", () => {
    const voltage = (reading: string) =>
      last(drive("water_pump", [PUMP, "fuse ok", reading])).state.evidence.pump_voltage;
    expect(voltage("12.6V")).toBe("ok");
    expect(voltage("12.6 V")).toBe("ok");
    expect(voltage("12,6 v")).toBe("ok");
    expect(voltage("0V")).toBe("none");
    expect(voltage("under 11 volts")).toBe("low");
    expect(voltage("11.2 volts")).toBe("low");
    expect(last(drive("slide_out", ["slide stuck", "12.6"])).state.evidence.battery).toBe("ok");
    expect(last(drive("slide_out", ["slide stuck", "12.2 volts"])).state.evidence.battery).toBe("low");
    expect(last(drive("roof_ac", ["ac not cooling", "118 volts"])).state.evidence.ac_power).toBe("ok");
  });

  it("a reading that names where it was taken is a measurement ('12.6 volts at the pump')", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse ok", "12.6 volts at the pump"]));
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok" });
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "pump_runs" });
  });
});

describe("branches of the v2 catalog", () => {
  it("a blown fuse is not the end: the new fuse is tried, and when it holds the diagnosis goes on to the voltage", () => {
    const turns = drive("water_pump", [PUMP, "the fuse is blown", "new fuse holds", "12 volts"]);
    expect(at(turns, 1).state.mode).toBe("diagnostic");
    expect(at(turns, 1).directive).toMatchObject({ kind: "ask_step", step_id: "fuse_recheck" });
    expect(at(turns, 2).directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
    expect(last(turns).state.evidence).toEqual({ fuse: "blown", fuse_recheck: "holds", pump_voltage: "ok" });
    expect(last(turns).state.active_step).toBe("pump_runs");
  });

  it.each([
    ["still blows with the pump unplugged", "wiring", "Short circuit in the pump wiring"],
    ["holds with the pump unplugged", "pump", "The pump motor draws too much current"],
  ])("a new fuse that blows again goes to the short check: %j → short_check=%s", (message, finding, cause) => {
    const turns = drive("water_pump", [PUMP, "the fuse is blown", "it blew again", message]);
    expect(at(turns, 2).directive).toMatchObject({ kind: "ask_step", step_id: "short_check" });
    const turn = last(turns);
    expect(turn.state.evidence).toEqual({ fuse: "blown", fuse_recheck: "blows", short_check: finding });
    expect(turn.directive).toMatchObject({ kind: "request_authorization", step_id: "short_check" });
    expect(turn.directive.diagnosis?.cause).toContain(cause);
  });

  it("the A/C breaker tripped: reset it; it holds → thermostat, it trips again → report", () => {
    const holds = drive("roof_ac", ["ac not cooling", "breaker tripped", "breaker holds"]);
    expect(at(holds, 1).directive).toMatchObject({ kind: "ask_step", step_id: "breaker_reset" });
    expect(last(holds).state.active_step).toBe("thermostat");
    const trips = last(drive("roof_ac", ["ac not cooling", "breaker tripped", "trips again"]));
    expect(trips.state.evidence).toEqual({ ac_power: "tripped", breaker_reset: "trips" });
    expect(trips.directive.kind).toBe("request_authorization");
  });

  it("a slide motor that does not run is fed 12 V directly: runs → wiring, the motor is NOT replaced; dead → replace it", () => {
    const base = ["slide stuck", "battery is good", "switch works", "motor does not run"];
    expect(last(drive("slide_out", base)).directive).toMatchObject({ kind: "ask_step", step_id: "motor_direct" });
    const runs = last(drive("slide_out", [...base, "runs on jumpers"]));
    expect(runs.state.evidence.motor_direct).toBe("runs");
    expect(runs.directive.diagnosis?.correction).toMatch(/^Do not replace the motor/);
    const dead = last(drive("slide_out", [...base, "still dead"]));
    expect(dead.state.evidence.motor_direct).toBe("dead");
    expect(dead.directive.diagnosis?.correction).toMatch(/^Replace the slide motor/);
  });
});

describe("clarification sub-topics (LOCATE / EXPLAIN / HOWTO)", () => {
  it.each([
    ["where is the fuse panel?", "locate", "LOCATE"],
    ["why check the fuse first?", "explain", "EXPLAIN"],
    ["how do I test the fuse?", "howto", "HOWTO"],
  ] as const)("%j pushes a %s topic and answers from the registry, then re-asks the step", (message, kind, intent) => {
    const turn = last(drive("water_pump", [PUMP, message]));
    expect(turn.state.submode).toBe(kind);
    expect(turn.state.topic_stack).toEqual([{ kind, step: "fuse" }]);
    expect(turn.state.active_step).toBe("fuse");
    expect(turn.state.completed).toEqual([]);
    expect(turn.directive).toMatchObject({ kind: "answer_clarification", step_id: "fuse" });
    expect(turn.directive.registry[kind]).toBeDefined();
    expect(turn.directive.text).toContain(`registry "${kind}" text`);
    expect(turn.directive.text).toContain('re-ask it: "Is the water pump fuse');
    expect(eventsOf(turn, "intent")[0]?.detail.intent).toBe(intent);
    expect(eventsOf(turn, "topic_push")).toEqual([{ type: "topic_push", detail: { kind, step: "fuse" } }]);
  });

  it("the next turn pops back to the main line", () => {
    const turn = last(drive("water_pump", [PUMP, "where is the fuse panel?", "fuse is fine"]));
    expect(turn.state.submode).toBe("main");
    expect(turn.state.topic_stack).toEqual([]);
    expect(eventsOf(turn, "topic_pop")).toEqual([{ type: "topic_pop", detail: { kind: "locate", step: "fuse" } }]);
    expect(turn.state.completed).toEqual(["fuse"]);
  });

  it("a question about another part is answered for that part, then the active step is re-asked", () => {
    const turn = last(drive("water_pump", [PUMP, "where is the water pump?"]));
    expect(turn.directive).toMatchObject({
      kind: "answer_clarification",
      step_id: "fuse",
      topic: "locate",
      part_step: "pump_runs",
    });
    expect(turn.directive.registry.locate).toBe(stepOf("water_pump", "pump_runs").locate);
    expect(turn.directive.registry.question).toBe(getStepQuestion("water_pump", "fuse"));
    expect(turn.state.active_step).toBe("fuse");
    expect(turn.state.completed).toEqual([]);
  });

  it("says so when the catalog has no text for the topic", () => {
    const noLocate = structuredClone(catalog);
    const fuse = noLocate.systems[0]?.procedure.steps[0];
    if (fuse) delete fuse.locate;
    let state = startContext(noLocate, "water_pump");
    state = contextTurn(noLocate, state, PUMP).state;
    const turn = contextTurn(noLocate, state, "where is it?");
    expect(turn.directive.registry.locate).toBeUndefined();
    expect(turn.directive.text).toContain('The catalog has no "locate" text');
  });

  it("does not count as a re-ask", () => {
    const turn = last(
      drive("water_pump", [PUMP, "where?", "where is it?", "why?", "how do I check it?", "what is it?"]),
    );
    expect(turn.state.guard.reasks).toEqual({});
    expect(turn.directive.kind).toBe("answer_clarification");
  });
});

describe("NEW_EVIDENCE", () => {
  it("that contradicts a completed step replans: rollback, new finding, branch switch", () => {
    const turns = drive("water_pump", [
      PUMP,
      "fuse ok",
      "12 volts",
      "pump runs fine",
      "actually, the pump keeps cycling",
    ]);
    expect(at(turns, 3).state.active_step).toBe("leaks");
    const turn = last(turns);
    expect(turn.directive).toMatchObject({ kind: "replan", step_id: "pressure_switch" });
    expect(turn.directive.text).toContain(
      'you said earlier "Runs and delivers water normally"; now "Runs, but won\'t shut off or keeps cycling", so we go back to step pump_runs',
    );
    expect(turn.state.submode).toBe("replan");
    expect(turn.state.completed).toEqual(["fuse", "voltage_at_pump", "pump_runs"]);
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok", pump_runs: "cycles" });
    expect(eventsOf(turn, "replan")).toEqual([
      {
        type: "replan",
        detail: { step: "pump_runs", from: "pump_runs=yes", to: "pump_runs=cycles", rolled_back: ["pump_runs"] },
      },
    ]);
  });

  it("rolls back every step completed after the corrected one, with its evidence and labor", () => {
    const turn = last(
      drive("water_pump", [PUMP, "fuse ok", "12 volts", "it sputters", "tank is full", "wait, the fuse was blown"]),
    );
    expect(eventsOf(turn, "replan")[0]?.detail.rolled_back).toEqual([
      "fuse",
      "voltage_at_pump",
      "pump_runs",
      "tank_level",
    ]);
    expect(turn.state.completed).toEqual(["fuse"]);
    expect(turn.state.evidence).toEqual({ fuse: "blown" });
    expect(turn.state.labor).toEqual({ draft_minutes: 5, lines: [{ step: "fuse", minutes: 5 }] });
    // a blown fuse is rechecked with a new one before anything else
    expect(turn.state.mode).toBe("diagnostic");
    expect(turn.directive).toMatchObject({ kind: "replan", step_id: "fuse_recheck" });
    expect(turn.directive.text).toContain(
      "Steps set aside and asked again if still needed: voltage_at_pump, pump_runs, tank_level.",
    );
  });

  it("the replan sub-mode lasts one turn", () => {
    const turn = last(
      drive("water_pump", [PUMP, "fuse ok", "12 volts", "pump runs fine", "actually the pump keeps cycling", "hmm"]),
    );
    expect(turn.state.submode).toBe("main");
  });

  it("replans from authorization mode back into the diagnosis", () => {
    const turns = drive("water_pump", [
      PUMP,
      "fuse ok",
      "12 volts",
      "it sputters",
      "tank is empty",
      "sorry, the tank is half full",
    ]);
    expect(at(turns, 4).state.mode).toBe("authorization");
    const turn = last(turns);
    expect(turn.state.mode).toBe("diagnostic");
    expect(turn.state.active_step).toBe("strainer");
    expect(eventsOf(turn, "mode_change")).toEqual([
      { type: "mode_change", detail: { from: "authorization", to: "diagnostic" } },
    ]);
  });

  it("a finding for another step is recorded at once, and that step is never asked", () => {
    const turns = drive("water_pump", [PUMP, "the pump keeps cycling", "fuse ok", "12 volts"]);
    const noted = at(turns, 1);
    expect(noted.directive).toMatchObject({ kind: "ask_step", step_id: "fuse" });
    expect(noted.directive.text).toMatch(/^Recorded what the technician stated/);
    expect(noted.directive.recorded_all).toEqual([labelOf("water_pump", "pump_runs", "cycles")]);
    expect(noted.state.completed).toEqual(["pump_runs"]);
    expect(noted.state.evidence).toEqual({ pump_runs: "cycles" });
    expect(eventsOf(noted, "step_completed")[0]?.detail).toMatchObject({ step: "pump_runs", via: "stated" });
    expect(last(turns).state.active_step).toBe("pressure_switch");
    expect(askedSteps(turns)).not.toContain("pump_runs");
  });

  it("a finding whose branch is not established yet waits in pending_findings and is recorded when its step comes up", () => {
    const turns = drive("water_pump", [PUMP, "tank is full", "fuse ok", "12 volts", "it sputters"]);
    const said = at(turns, 1);
    expect(said.state.pending_findings).toEqual({ tank_level: "tank_level=ok" });
    expect(said.state.completed).toEqual([]);
    expect(said.state.evidence).toEqual({});
    expect(said.state.active_step).toBe("fuse");
    const turn = last(turns);
    expect(turn.state.evidence).toMatchObject({ pump_runs: "no_water", tank_level: "ok" });
    expect(turn.state.pending_findings).toEqual({});
    expect(turn.state.active_step).toBe("strainer");
    expect(turn.directive.recorded_all).toEqual([
      labelOf("water_pump", "pump_runs", "no_water"),
      labelOf("water_pump", "tank_level", "ok"),
    ]);
    expect(askedSteps(turns)).not.toContain("tank_level");
  });

  it("a pending finding whose branch never holds is never recorded", () => {
    const turn = last(drive("water_pump", [PUMP, "tank is full", "fuse ok", "12 volts", "pump runs fine"]));
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok", pump_runs: "yes" });
    expect(turn.state.completed).not.toContain("tank_level");
    expect(turn.state.active_step).toBe("leaks");
  });

  it("correcting a finding stated early does not pass over the steps still to be asked before it", () => {
    const turn = last(drive("water_pump", [PUMP, "the pump keeps cycling", "actually the pump runs fine"]));
    expect(turn.state.evidence).toEqual({ pump_runs: "yes" });
    expect(turn.state.active_step).toBe("fuse");
  });

  it("an answer wins over an unmarked contradiction; a correction marker makes it a replan", () => {
    const base = [PUMP, "fuse ok", "12 volts", "it sputters", "tank is full"];
    // "pump runs" would contradict pump_runs=no_water, but the message answers the strainer step.
    const plain = last(drive("water_pump", [...base, "the pump runs but sucks air"]));
    expect(plain.directive.kind).toBe("request_authorization");
    expect(plain.state.evidence.strainer).toBe("air_leak");
    const marked = last(
      drive("water_pump", [...base, "actually the pump runs fine, water comes out, strainer is clean"]),
    );
    expect(marked.directive.kind).toBe("replan");
    expect(marked.state.evidence.pump_runs).toBe("yes");
  });

  it("a contradiction alone (no answer to the active step) replans without a marker", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse ok", "12 volts", "the fuse was blown"]));
    expect(turn.directive.kind).toBe("replan");
  });

  it("restating what was recorded changes nothing, and its generic 'yes' is not taken as the next answer", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse ok", "yes the fuse is fine"]));
    expect(eventsOf(turn, "replan")).toEqual([]);
    expect(turn.state.completed).toEqual(["fuse"]);
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
  });

  it("several findings in one message are all recorded at once", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse is good and 12.6 V at the pump, pump runs fine"]));
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok", pump_runs: "yes" });
    expect(turn.state.active_step).toBe("leaks");
  });

  it("in a self-correction the last statement wins", () => {
    const turn = last(drive("water_pump", [PUMP, "blown, no wait it's fine"]));
    expect(turn.state.evidence).toEqual({ fuse: "ok" });
  });
});

describe("non-answers (unknown is not no)", () => {
  it("records nothing the first time: the step stays active, marked not checked, with how to check it", () => {
    const turn = last(drive("water_pump", [PUMP, "no idea"]));
    expect(turn.directive).toMatchObject({
      kind: "non_answer",
      step_id: "fuse",
      not_checked: { reason: "unknown", passed: false, question: getStepQuestion("water_pump", "fuse") },
    });
    expect(turn.directive.text).toContain('"skip"');
    expect(turn.state.evidence).toEqual({});
    expect(turn.state.completed).toEqual([]);
    expect(turn.state.active_step).toBe("fuse");
    expect(turn.state.not_checked).toEqual({ fuse: { reason: "unknown", count: 1, passed: false } });
    expect(turn.state.guard.reasks).toEqual({});
  });

  it(`the ${MAX_NON_ANSWERS}nd non-answer passes the step as NOT CHECKED; the report lists it`, () => {
    const turns = drive("water_pump", [PUMP, "no idea", "dunno", "12.6V", "the pump is dead", "yes"]);
    const passed = at(turns, 2);
    expect(passed.directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
    expect(passed.directive.not_checked).toMatchObject({ reason: "unknown", passed: true });
    expect(passed.state.completed).toEqual(["fuse"]);
    expect(passed.state.evidence).toEqual({});
    expect(passed.state.labor.lines).toEqual([]);
    expect(passed.state.not_checked).toEqual({ fuse: { reason: "unknown", count: 2, passed: true } });
    const report = last(turns).state.report;
    expect(report?.not_checked).toEqual([
      { step: "fuse", question: getStepQuestion("water_pump", "fuse"), reason: "unknown" },
    ]);
    expect(report?.steps_performed.map((s) => s.step)).toEqual(["voltage_at_pump", "pump_runs"]);
    expect(askedSteps(turns.slice(3))).not.toContain("fuse");
  });

  it.each([
    ["no multimeter here", "no_tool"],
    ["haven't checked yet", "not_yet"],
    ["can't reach it", "no_access"],
    ["not sure", "unknown"],
  ])("%j is a non-answer (%s)", (message, reason) => {
    const turn = last(drive("water_pump", [PUMP, message]));
    expect(turn.directive.kind).toBe("non_answer");
    expect(turn.state.not_checked.fuse?.reason).toBe(reason);
    expect(turn.state.evidence).toEqual({});
  });

  it('"skip" passes the step at once; the first reason is kept', () => {
    const turns = drive("water_pump", [PUMP, "no multimeter here", "skip"]);
    expect(last(turns).state.not_checked).toEqual({ fuse: { reason: "no_tool", count: 2, passed: true } });
    expect(last(turns).state.active_step).toBe("voltage_at_pump");
    const direct = last(drive("water_pump", [PUMP, "skip"]));
    expect(direct.state.not_checked).toEqual({ fuse: { reason: "skipped", count: 1, passed: true } });
    expect(direct.state.active_step).toBe("voltage_at_pump");
  });

  it("a specific statement in another clause of the same message still counts", () => {
    const turn = last(drive("water_pump", [PUMP, "no idea why, but the fuse is blown"]));
    expect(turn.state.evidence).toEqual({ fuse: "blown" });
    expect(turn.state.not_checked).toEqual({});
  });

  it("never counts toward escalation", () => {
    const turns = drive("water_pump", [PUMP, "hmm", "no idea", "banana", "fuse ok"]);
    expect(turns.map((t) => t.directive.kind)).toEqual(["ask_step", "ask_step", "non_answer", "rephrase", "ask_step"]);
    expect(at(turns, 2).state.guard.reasks).toEqual({ fuse: 1 });
  });
});

describe("loop guard", () => {
  it("asks for more information once, then rephrases with the how-to and the options, then escalates", () => {
    const turns = drive("water_pump", [PUMP, "hmm", "banana", "zzz", "qwerty"]);
    const [, first, second, third, fourth] = turns;
    expect(first?.directive.kind).toBe("ask_step");
    expect(first?.directive.text).toMatch(/^The reply did not answer step "fuse"/);
    expect(first?.state.guard.more_info_asked_last).toBe(true);

    expect(second?.directive.kind).toBe("rephrase");
    expect(second?.directive.text).toContain("Do not ask for more information again");
    expect(second?.directive.text).toContain("Fuse intact / breaker on / Fuse blown / breaker tripped");
    expect(second?.directive.options).toEqual(["Fuse intact / breaker on", "Fuse blown / breaker tripped"]);
    expect(second?.state.guard.more_info_asked_last).toBe(false);
    expect(second && eventsOf(second, "loop_guard")[0]?.detail.rule).toBe("no_more_info_twice");

    expect(third?.directive.kind).toBe("escalate");
    expect(third?.directive.text).toContain("senior technician or the dealer");
    expect(third && eventsOf(third, "escalate")[0]?.detail.reason).toBe("loop_guard");
    expect(third?.state.mode).toBe("diagnostic");
    expect(third?.state.active_step).toBe("fuse");
    expect(third?.state.guard.reasks).toEqual({ fuse: MAX_REASKS + 1 });
    expect(fourth?.directive.kind).toBe("escalate");
  });

  it("the case continues after an escalation once the technician answers", () => {
    const turn = last(drive("water_pump", [PUMP, "hmm", "banana", "zzz", "fuse ok"]));
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
    expect(turn.state.guard.reasks).toEqual({});
  });

  it("a clarification between two unclear replies still never gives 'more information' twice for a step", () => {
    const turns = drive("water_pump", [PUMP, "hmm", "where is it?", "hmm"]);
    expect(last(turns).directive.kind).toBe("rephrase");
  });

  it("an ambiguous answer is unclear, and the event names the tied answers", () => {
    const turn = last(drive("water_pump", [PUMP, "intact, blown"]));
    expect(turn.directive.kind).toBe("ask_step");
    expect(eventsOf(turn, "intent")[0]?.detail).toMatchObject({ intent: "UNCLEAR", ambiguous: ["ok", "blown"] });
  });

  it("guards the authorization request the same way", () => {
    const turns = drive("water_pump", [PUMP, "fuse ok", "low voltage", "hmm", "banana", "zzz"]);
    expect(turns.slice(2).map((t) => t.directive.kind)).toEqual([
      "request_authorization",
      "request_authorization",
      "rephrase",
      "escalate",
    ]);
    expect(at(turns, 3).directive.text).toMatch(/^The reply did not answer the authorization request\./);
    expect(last(turns).state.guard.reasks).toEqual({ "@authorization": 3 });
    expect(last(turns).state.mode).toBe("authorization");
  });
});

describe("authorization and the final report", () => {
  const toAuthorization = [PUMP, "fuse ok", "12 volts", "the pump is dead"];

  it("yes → final report, authorized", () => {
    const turn = last(drive("water_pump", [...toAuthorization, "yes, go ahead"]));
    expect(turn.state.mode).toBe("final_report");
    expect(turn.directive.kind).toBe("final_report");
    expect(turn.directive.report).toEqual(turn.state.report);
    expect(turn.state.report).toMatchObject({
      complaint: PUMP,
      cause: "Pump motor failed: 12 V is present at the pump but the motor does not run.",
      correction: "Replace the water pump with one of the same flow and pressure rating.",
      authorized: true,
      escalation: null,
      resolution: null,
      revision: 1,
      revised_because: null,
      translation: null,
    });
    expect(turn.state.report_history).toEqual([]);
    expect(turn.directive.text).toContain("The repair is authorized.");
  });

  it.each(["yes", "yep", "y", "go ahead", "approved"])("%j is a plain yes: authorized", (message) => {
    expect(last(drive("water_pump", [...toAuthorization, message])).state.report?.authorized).toBe(true);
  });

  it.each(["no", "nope", "customer declined"])("%j is a plain no → final report, not authorized", (message) => {
    const turn = last(drive("water_pump", [...toAuthorization, message]));
    expect(turn.state.mode).toBe("final_report");
    expect(turn.state.report?.authorized).toBe(false);
    expect(turn.directive.text).toContain("NOT authorized");
  });

  it.each([
    ["ok, I need to ask the customer first", "deferral"],
    ["let me check with the owner", "deferral"],
    ["not yet", "deferral"],
    ["sure, but how much will it cost?", "cost"],
    ["yes if it's under warranty", "conditional"],
  ] as const)("%j is not consent: the case waits in authorization (%s)", (message, pending) => {
    const turn = last(drive("water_pump", [...toAuthorization, message]));
    expect(turn.directive).toMatchObject({ kind: "authorization_pending", pending, options: ["yes", "no"] });
    expect(turn.directive.text).toContain("The repair is NOT authorized");
    expect(turn.state.mode).toBe("authorization");
    expect(turn.state.report).toBeNull();
    // answered, not an unclear reply: no step toward escalation
    expect(turn.state.guard.reasks).toEqual({});
    // a plain yes afterwards authorizes
    expect(contextTurn(catalog, turn.state, "yes").state.report?.authorized).toBe(true);
  });

  it("a clarification during authorization returns to the authorization request", () => {
    const turn = last(drive("water_pump", [...toAuthorization, "where is the pump?"]));
    expect(turn.directive).toMatchObject({
      kind: "answer_clarification",
      step_id: "pump_runs",
      topic: "locate",
      options: ["yes", "no"],
    });
    expect(turn.directive.text).toContain("ask again for authorization");
    expect(turn.state.mode).toBe("authorization");
    expect(turn.state.report).toBeNull();
    expect(turn.state.guard.reasks).toEqual({});
  });

  it("a question naming the diagnosis' part and another is answered for the diagnosis' step", () => {
    const turn = last(drive("water_pump", [...toAuthorization, "why the pump and not the wiring?"]));
    expect(turn.directive).toMatchObject({
      kind: "answer_clarification",
      step_id: "pump_runs",
      options: ["yes", "no"],
    });
    expect(turn.directive.text).toContain("ask again for authorization");
    expect(turn.state.mode).toBe("authorization");
    expect(turn.state.guard.reasks).toEqual({});
  });

  describe("after the report", () => {
    const reported = [...toAuthorization, "yes"];
    const before = last(drive("water_pump", reported)).state;

    it.each(["thanks", "ok", "great"])("%j changes nothing", (message) => {
      const turn = contextTurn(catalog, before, message);
      expect(turn.directive).toMatchObject({ kind: "report_update", update: "none" });
      expect(turn.state.report).toEqual(before.report);
      expect(turn.state.report_history).toEqual([]);
      expect(turn.state.mode).toBe("final_report");
    });

    it("a note is added to a new revision; the first is kept in the history", () => {
      const turn = contextTurn(catalog, before, "customer wants the old pump back");
      expect(turn.directive).toMatchObject({ kind: "report_update", update: "note" });
      expect(turn.state.report).toMatchObject({
        notes: ["customer wants the old pump back"],
        revision: 2,
        revised_because: "note added",
        authorized: true,
      });
      expect(turn.state.report_history).toEqual([before.report]);
      expect(turn.directive.report).toEqual(turn.state.report);
      expect(turn.state.mode).toBe("final_report");
    });

    it("a labor change makes a new revision with the edited labor", () => {
      const set = contextTurn(catalog, before, "labor was 45 minutes");
      expect(set.directive).toMatchObject({ kind: "report_update", update: "labor", labor_minutes: 45 });
      expect(set.state.report).toMatchObject({ revision: 2, revised_because: "labor changed" });
      expect(set.state.report?.labor.draft_minutes).toBe(45);
      expect(set.state.report_history).toEqual([before.report]);
      const add = contextTurn(catalog, before, "add 30 min for access");
      expect(add.state.report?.labor.draft_minutes).toBe(before.labor.draft_minutes + 30);
      expect(add.state.report?.labor.lines.at(-1)).toMatchObject({ step: TECHNICIAN, minutes: 30 });
    });

    it("a corrected finding reopens the diagnosis; the next report is revision 2, revision 1 in the history", () => {
      const turns = drive("water_pump", [...reported, "actually the pump does run", "no leaks", "yes"]);
      const reopened = at(turns, reported.length);
      expect(reopened.directive).toMatchObject({ kind: "replan", step_id: "leaks" });
      expect(reopened.state.mode).toBe("diagnostic");
      expect(reopened.state.report).toBeNull();
      expect(reopened.state.report_history).toEqual([before.report]);
      expect(eventsOf(reopened, "report_revised")[0]?.detail).toMatchObject({ revision: 1, reopened: true });
      const turn = last(turns);
      expect(turn.state.report).toMatchObject({
        revision: 2,
        revised_because: "a finding was corrected",
        authorized: true,
      });
      expect(turn.state.report?.evidence.pump_runs).toBe("yes");
      expect(turn.state.report_history.map((r) => r.revision)).toEqual([1]);
      expect(turn.state.report_history[0]?.cause).toBe(before.report?.cause);
    });

    it("a correction that concludes at once goes back to authorization", () => {
      const turn = contextTurn(catalog, before, "actually the voltage was low");
      expect(turn.state.mode).toBe("authorization");
      expect(turn.state.evidence.pump_voltage).toBe("low");
      expect(turn.state.report).toBeNull();
      expect(turn.state.report_history).toEqual([before.report]);
    });

    it("a retraction ('I never checked the fuse, it's actually fine') reopens at that step", () => {
      const turn = contextTurn(catalog, before, "wait, I never checked the fuse, it's actually fine");
      expect(turn.state.mode).toBe("diagnostic");
      expect(turn.state.report).toBeNull();
      expect(turn.state.report_history).toEqual([before.report]);
      expect(turn.state.evidence).toEqual({ fuse: "ok" });
      expect(turn.state.completed).toEqual(["fuse"]);
      expect(turn.state.active_step).toBe("voltage_at_pump");
    });

    it("a question is answered and the report stands", () => {
      const turn = contextTurn(catalog, before, "where is the pump?");
      expect(turn.directive.kind).toBe("answer_clarification");
      expect(turn.directive.text).toContain("The report stands");
      expect(turn.state.report).toEqual(before.report);
      expect(turn.state.mode).toBe("final_report");
    });
  });
});

describe("repairs, evidence rules and safety", () => {
  it('"replaced the switch, works now" ends the case, repaired by the technician', () => {
    const turn = last(drive("water_pump", [PUMP, "fuse ok", "no voltage", "replaced the switch, works now"]));
    expect(turn.state.mode).toBe("final_report");
    expect(turn.directive).toMatchObject({ kind: "final_report", repair: "replaced the switch, works now" });
    expect(turn.state.report).toMatchObject({ resolution: "fixed_by_technician", authorized: null, escalation: null });
  });

  it.each(["refrigerant leak on the condenser coil", "there is oil on the condenser coil"])(
    "free-form evidence a rule knows (%j) stops the case with a warranty escalation that carries the observation",
    (message) => {
      const ac = last(drive("roof_ac", ["ac not cooling", "breaker is on", message]));
      expect(ac.directive).toMatchObject({ kind: "escalate", observation: { rule: "refrigerant_leak" } });
      expect(ac.state.mode).toBe("final_report");
      expect(ac.state.report?.escalation).toBe("warranty");
      expect(ac.state.report?.observations.map((o) => o.rule)).toEqual(["refrigerant_leak"]);
      expect(ac.state.report?.evidence).toEqual({ ac_power: "ok" });
    },
  );

  it("evidence without a warranty constraint escalates as 'evidence'", () => {
    const pump = last(drive("water_pump", [PUMP, "fuse ok", "found a melted wire at the pump plug"]));
    expect(pump.directive).toMatchObject({ kind: "escalate", observation: { rule: "wiring_heat_damage" } });
    expect(pump.state.report?.escalation).toBe("evidence");
    expect(pump.state.observations.map((o) => o.rule)).toEqual(["wiring_heat_damage"]);
  });

  it("a safety rule stops the case, from the first message on, until the hazard is cleared", () => {
    const turns = drive("furnace", ["I smell propane in the coach", "ok", "leak test passed", "stove lights"]);
    const stop = at(turns, 0);
    expect(stop.state.complaint).toBe("I smell propane in the coach");
    expect(stop.state.mode).toBe("safety_stop");
    expect(stop.state.safety).toEqual({ rule: "lp_smell", resume: "diagnostic" });
    expect(stop.directive).toMatchObject({ kind: "safety_stop", safety: { rule: "lp_smell", cleared: false } });
    expect(at(turns, 1).state.mode).toBe("safety_stop");
    expect(at(turns, 1).directive.kind).toBe("safety_stop");
    const cleared = at(turns, 2);
    expect(cleared.state.mode).toBe("diagnostic");
    expect(cleared.state.safety).toBeNull();
    expect(cleared.directive).toMatchObject({ kind: "ask_step", step_id: "lp_level", safety: { cleared: true } });
    expect(last(turns).state.evidence).toEqual({ lp: "ok" });
  });

  it("a safety stop mid-diagnosis resumes at the same step", () => {
    const turns = drive("water_pump", [PUMP, "fuse ok", "I see smoke at the pump", "12 volts", "smoke is gone"]);
    expect(at(turns, 2).state.mode).toBe("safety_stop");
    // nothing is recorded while stopped
    expect(at(turns, 3).state.evidence).toEqual({ fuse: "ok" });
    expect(last(turns).state.mode).toBe("diagnostic");
    expect(last(turns).directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
  });
});

describe("languages", () => {
  it("a Spanish technician is answered in Spanish; the report is in English with a Spanish copy", () => {
    const turns = drive("water_pump", [
      "la bomba de agua no funciona",
      "el fusible esta fundido",
      "le puse uno nuevo y aguanta",
      "tengo 12,4 voltios en el conector",
      "si, la bomba corre y sale agua bien",
      "encontre una fuga en la valvula del inodoro",
      "si",
    ]);
    for (const turn of turns) {
      expect(turn.state.language).toBe("es");
      expect(turn.directive.language).toBe("es");
    }
    // labels come from the Spanish overlay
    const spanish = localSystem(catalog, catalog.systems.find((s) => s.id === "water_pump") as TSystem, "es");
    const blown = spanish.procedure.steps.find((s) => s.id === "fuse")?.answers.find((a) => a.id === "blown");
    expect(blown?.label).toBeDefined();
    expect(blown?.label).not.toBe(labelOf("water_pump", "fuse", "blown"));
    expect(at(turns, 1).directive.recorded).toBe(blown?.label);
    const report = last(turns).state.report;
    expect(report?.authorized).toBe(true);
    expect(report?.evidence).toEqual({
      fuse: "blown",
      fuse_recheck: "holds",
      pump_voltage: "ok",
      pump_runs: "yes",
      leaks: "found",
    });
    expect(report?.cause).toMatch(/^A plumbing leak/);
    expect(report?.translation?.language).toBe("es");
    expect(report?.translation?.cause).not.toBe(report?.cause);
  });
});

describe("safety and warranty constraints", () => {
  it("a step's directive carries the always-on constraints plus the step's own", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse ok", "12 volts", "it sputters", "tank is full"]));
    expect(turn.directive.step_id).toBe("strainer");
    expect(turn.directive.constraints).toEqual(getConstraints(catalog, "water_pump", "strainer"));
    expect(turn.directive.constraints.some((c) => c.startsWith("Safety: Turn the pump switch off"))).toBe(true);
    expect(turn.directive.constraints.some((c) => c.startsWith("Warranty: The pump is under"))).toBe(true);
  });

  it("authorization and report directives carry every constraint of the system", () => {
    const turns = drive("water_pump", [PUMP, "fuse ok", "low voltage", "yes"]);
    expect(turns.slice(2).map((t) => t.directive.kind)).toEqual(["request_authorization", "final_report"]);
    for (const turn of turns.slice(2))
      expect(turn.directive.constraints).toEqual(getConstraints(catalog, "water_pump"));
  });

  it("an answer marked escalate: warranty stops the diagnosis and escalates", () => {
    const turns = drive("water_pump", [
      PUMP,
      "fuse ok",
      "12 volts",
      "it sputters",
      "tank is full",
      "strainer is clean, all tight",
    ]);
    const turn = last(turns);
    expect(turn.directive.kind).toBe("escalate");
    expect(turn.directive.text).toContain("not allowed under warranty");
    expect(turn.directive.text).toContain("Do not open the pump under warranty");
    expect(turn.state.mode).toBe("final_report");
    expect(turn.state.active_step).toBeNull();
    expect(turn.state.report).toMatchObject({ escalation: "warranty", authorized: null });
    expect(eventsOf(turn, "escalate")[0]?.detail).toMatchObject({ reason: "warranty", step: "strainer" });
    // and nothing after it asks a step: a question is answered, the report stands
    const after = contextTurn(catalog, turn.state, "ok so should I open the pump?");
    expect(after.directive.kind).toBe("answer_clarification");
    expect(after.directive.text).toContain("The report stands");
    expect(after.state.mode).toBe("final_report");
    expect(after.state.report).toEqual(turn.state.report);
  });
});

describe("state handling", () => {
  it("never mutates the input state", () => {
    const state = deepFreeze(at(drive("water_pump", [PUMP, "fuse ok"]), 1).state);
    const copy = structuredClone(state);
    for (const message of [
      "12 volts",
      "where is it?",
      "hmm",
      "no idea",
      "skip",
      "wait, the fuse was blown",
      "I smell smoke",
    ])
      contextTurn(catalog, state, message);
    const reported = deepFreeze(last(drive("water_pump", [PUMP, "fuse ok", "low voltage", "yes"])).state);
    const reportedCopy = structuredClone(reported);
    for (const message of ["thanks", "labor was 45 minutes", "a note", "actually the voltage was fine"])
      contextTurn(catalog, reported, message);
    expect(state).toEqual(copy);
    expect(reported).toEqual(reportedCopy);
  });

  it.each([
    ["a wrong version", (s: TContextState) => ({ ...s, v: 1 as unknown as 2 }), "invalid_state"],
    ["an unknown system", (s: TContextState) => ({ ...s, system_id: "awning" }), "unknown_system"],
    ["another procedure", (s: TContextState) => ({ ...s, procedure_id: "old" }), "invalid_state"],
    ["an unknown step", (s: TContextState) => ({ ...s, active_step: "gone" }), "unknown_step"],
    ["diagnostic without an active step", (s: TContextState) => ({ ...s, active_step: null }), "invalid_state"],
    ["final_report without a report", (s: TContextState) => ({ ...s, mode: "final_report" as const }), "invalid_state"],
    ["safety_stop without a rule", (s: TContextState) => ({ ...s, mode: "safety_stop" as const }), "invalid_state"],
  ])("rejects a state with %s", (_name, broken, code) => {
    const state = broken(startContext(catalog, "water_pump"));
    expect(() => contextTurn(catalog, state, "hi")).toThrow(
      expect.objectContaining({ name: "ContextEngineError", code }),
    );
  });

  it("parseContextState validates persisted state; a version-1 state no longer parses", () => {
    const fresh = startContext(catalog, "water_pump");
    expect(parseContextState(JSON.parse(JSON.stringify(fresh)))).toEqual(fresh);
    expect(() => parseContextState({ v: 1 })).toThrow();
    expect(() => parseContextState({ ...fresh, v: 1 })).toThrow();
    expect(() => parseContextState({ ...fresh, extra: 1 })).toThrow();
  });
});

// ── Scenarios ───────────────────────────────────────────────────────────────────────────────

/** A full water-pump diagnosis, first message to final report. */
const FULL_PUMP = [
  "Customer says there is no water at the kitchen faucet",
  "where's the fuse panel on this coach?",
  "ok the fuse is fine",
  "12.6 volts at the pump",
  "yes it runs but nothing comes out",
  "how do I check the tank if the gauge lies?",
  "tank is half full",
  "hmm",
  "I see bubbles in the strainer bowl, the inlet clamp is loose",
  "yes, approved",
];

describe("scenario: a full water-pump diagnosis", () => {
  const turns = drive("water_pump", FULL_PUMP);

  it("asks, clarifies, records and reports in order", () => {
    expect(turns.map((t) => [t.directive.kind, t.directive.step_id])).toEqual([
      ["ask_step", "fuse"],
      ["answer_clarification", "fuse"],
      ["ask_step", "voltage_at_pump"],
      ["ask_step", "pump_runs"],
      ["ask_step", "tank_level"],
      ["answer_clarification", "tank_level"],
      ["ask_step", "strainer"],
      ["ask_step", "strainer"],
      ["request_authorization", "strainer"],
      ["final_report", "strainer"],
    ]);
  });

  it("produces the report", () => {
    expect(last(turns).directive.report).toEqual({
      complaint: FULL_PUMP[0],
      cause: "Air leak on the suction side (fitting, clamp, cracked inlet or open winterising bypass).",
      correction:
        "Tighten or replace the leaking inlet fitting or clamp, close the winterising bypass, and prime the pump.",
      steps_performed: [
        { step: "fuse", question: expect.stringContaining("fuse"), finding: "fuse=ok" },
        { step: "voltage_at_pump", question: expect.stringContaining("voltage"), finding: "pump_voltage=ok" },
        { step: "pump_runs", question: expect.stringContaining("faucet"), finding: "pump_runs=no_water" },
        { step: "tank_level", question: expect.stringContaining("tank"), finding: "tank_level=ok" },
        { step: "strainer", question: expect.stringContaining("strainer"), finding: "strainer=air_leak" },
      ],
      evidence: { fuse: "ok", pump_voltage: "ok", pump_runs: "no_water", tank_level: "ok", strainer: "air_leak" },
      labor: {
        draft_minutes: 40,
        lines: [
          { step: "fuse", minutes: 5 },
          { step: "voltage_at_pump", minutes: 10 },
          { step: "pump_runs", minutes: 5 },
          { step: "tank_level", minutes: 5 },
          { step: "strainer", minutes: 15 },
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
    expect(last(turns).state.report_history).toEqual([]);
  });

  it("survives a JSON round trip at every turn and continues identically", () => {
    let state = startContext(catalog, "water_pump");
    for (const [i, message] of FULL_PUMP.entries()) {
      const persisted = parseContextState(JSON.parse(JSON.stringify(state)));
      expect(persisted).toEqual(state);
      const turn = contextTurn(catalog, persisted, message);
      expect(turn).toEqual(turns[i]);
      state = turn.state;
    }
  });

  it("is deterministic: the same inputs give the same outputs", () => {
    expect(drive("water_pump", FULL_PUMP)).toEqual(turns);
  });
});

describe.each([
  [
    "roof_ac",
    [
      "A/C not cooling, just blows",
      "breaker is on",
      "calls for cooling",
      "fan runs",
      "only the fan, the compressor won't start",
      "capacitor is bulged",
    ],
    "capacitor=bad",
    "request_authorization",
  ],
  [
    "roof_ac",
    ["ac is blowing warm air", "yes", "yes", "yes", "compressor starts", "filters are clean but only 10 degrees drop"],
    "airflow=weak",
    "escalate",
  ],
  ["roof_ac", ["ac not cooling", "breaker tripped", "trips again"], "breaker_reset=trips", "request_authorization"],
  [
    "furnace",
    [
      "furnace won't light",
      "stove lights fine",
      "yes it clicks",
      "blower starts",
      "sail switch closes",
      "it lights then goes out",
    ],
    "ignition=drops_out",
    "escalate",
  ],
  ["furnace", ["no heat", "out of propane"], "lp=empty", "request_authorization"],
  [
    "slide_out",
    [
      "slide won't retract",
      "12.6",
      "switch works",
      "motor runs but the room doesn't move",
      "yes, a seal caught at the top",
    ],
    "binding=obstruction",
    "request_authorization",
  ],
  [
    "slide_out",
    ["slide stuck", "battery is good", "switch works", "it stalls halfway", "nothing blocking", "won't crank at all"],
    "override=stuck",
    "escalate",
  ],
  [
    "slide_out",
    ["slide stuck", "battery is good", "switch works", "motor does not run", "runs on jumpers"],
    "motor_direct=runs",
    "request_authorization",
  ],
  [
    "water_pump",
    [PUMP, "fuse blown", "blew again", "still blows with the pump unplugged"],
    "short_check=wiring",
    "request_authorization",
  ],
])("scenario: %s", (systemId, messages, decisive, kind) => {
  it(`reaches ${decisive} → ${kind}`, () => {
    const turn = last(drive(systemId, messages));
    const [key, value] = decisive.split("=");
    expect(turn.state.evidence[key ?? ""]).toBe(value);
    // the decisive finding is the last one completed
    const lastStep = turn.state.completed.at(-1);
    expect(stepOf(systemId, lastStep ?? "").answers.some((a) => a.finding === decisive)).toBe(true);
    expect(turn.directive.kind).toBe(kind);
  });
});

// ── ADR acceptance criteria (6: single authority → context-authority.test.ts) ──────────────

/** Labor: the draft is the sum of its lines (never below 0); every step line is a completed step, once, in order. */
function expectLaborInvariant(state: TContextState): void {
  expect(state.labor.draft_minutes).toBe(
    Math.max(
      0,
      state.labor.lines.reduce((sum, l) => sum + l.minutes, 0),
    ),
  );
  const stepLines = state.labor.lines.map((l) => l.step).filter((step) => step !== TECHNICIAN);
  expect(new Set(stepLines).size).toBe(stepLines.length);
  expect(stepLines).toEqual(state.completed.filter((id) => stepLines.includes(id)));
  // a completed step has a labor line unless it was passed as not checked
  for (const id of state.completed) expect(stepLines.includes(id) || state.not_checked[id]?.passed === true).toBe(true);
}

describe("ADR acceptance criteria", () => {
  it("1. no coin-operated gating: labor is a draft that grows per step and never blocks the diagnosis", () => {
    const turns = drive("water_pump", FULL_PUMP);
    for (const turn of turns) {
      expectLaborInvariant(turn.state);
      expect(turn.state.labor.lines.map((l) => l.step)).toEqual(turn.state.completed);
      expect(turn.directive.text).not.toMatch(/labor (approval|authori)/i);
    }
    // Authorization is asked once, after the diagnosis, for the repair: never before a step.
    const kinds = turns.map((t) => t.directive.kind);
    expect(kinds.indexOf("request_authorization")).toBe(kinds.length - 2);
    // A labor statement during the diagnosis edits the draft and the step is still asked.
    const labor = drive("water_pump", [PUMP, "add 30 min for access", "fuse ok"]);
    expect(at(labor, 1).directive).toMatchObject({ kind: "ask_step", step_id: "fuse", labor_minutes: 30 });
    expect(last(labor).state.labor.draft_minutes).toBe(35);
    expect(last(labor).state.active_step).toBe("voltage_at_pump");
    for (const turn of labor) expectLaborInvariant(turn.state);
  });

  it("2. clarification: a brief answer from the registry, then back to the active step", () => {
    const turns = drive("water_pump", [PUMP, "fuse ok", "where is the pump?", "12 volts"]);
    expect(at(turns, 2).directive).toMatchObject({ kind: "answer_clarification", step_id: "voltage_at_pump" });
    expect(at(turns, 2).directive.registry.locate).toContain("fresh-water tank");
    expect(last(turns).state.completed).toEqual(["fuse", "voltage_at_pump"]);
    expect(last(turns).state.submode).toBe("main");
  });

  it("3. replan: new evidence rolls back and switches branch", () => {
    const turns = drive("water_pump", [
      PUMP,
      "fuse ok",
      "12 volts",
      "it sputters",
      "actually the pump does run fine, water comes out",
    ]);
    expect(at(turns, 3).state.active_step).toBe("tank_level");
    const turn = last(turns);
    expect(turn.directive.kind).toBe("replan");
    expect(turn.state.evidence.pump_runs).toBe("yes");
    expect(turn.state.active_step).toBe("leaks");
  });

  it("4. no loops: never 'more information' twice, never a completed step asked again", () => {
    const turns = drive("water_pump", [
      PUMP,
      "hmm",
      "hmm",
      "fuse ok",
      "hmm",
      "no idea",
      "hmm",
      "hmm",
      "12 volts",
      "fuse ok",
      "I already told you",
      "no idea",
      "skip",
      "hmm",
    ]);
    let moreInfo = false;
    for (const turn of turns) {
      expect(moreInfo && turn.state.guard.more_info_asked_last).toBe(false);
      moreInfo = turn.state.guard.more_info_asked_last;
      if (["ask_step", "rephrase", "non_answer"].includes(turn.directive.kind))
        expect(turn.state.completed).not.toContain(turn.directive.step_id);
    }
  });

  it("5. warranty-safe: constraints ride on every directive, and a forbidden step escalates instead", () => {
    const turns = drive("roof_ac", [
      "ac not cooling",
      "yes",
      "yes",
      "yes",
      "compressor won't start",
      "capacitor is good",
    ]);
    for (const turn of turns)
      expect(turn.directive.constraints).toContain(
        "Warranty: Do not open the sealed refrigerant circuit (no piercing valves, gauges or recharge) under warranty; escalate to the dealer.",
      );
    expect(at(turns, 5).directive.constraints).toContain(
      "Safety: Capacitors hold a charge: discharge them with an insulated resistor tool before touching the terminals.",
    );
    expect(last(turns).directive.kind).toBe("escalate");
    expect(last(turns).state.report?.escalation).toBe("warranty");
  });
});

// ── Properties over random conversations ───────────────────────────────────────────────────

const PATTERN_POOL = catalog.systems.flatMap((s) =>
  s.procedure.steps.flatMap((st) => st.answers.flatMap((a) => a.patterns)),
);
const RULE_POOL = catalog.systems.flatMap((s) => [
  ...(s.safety_rules ?? []).flatMap((r) => [...r.patterns.slice(0, 2), ...r.clear_patterns.slice(0, 2)]),
  ...(s.evidence_rules ?? []).flatMap((r) => r.patterns.slice(0, 2)),
]);
const MESSAGE_POOL = [
  ...PATTERN_POOL,
  ...RULE_POOL,
  "where is it?",
  "why?",
  "how do I check that?",
  "where is the water pump?",
  "hmm",
  "no idea",
  "no multimeter here",
  "not yet",
  "skip",
  "I already told you",
  "yes go ahead",
  "yes",
  "no",
  "ok, I need to ask the customer first",
  "yes if it's under warranty",
  "how much will it cost?",
  "thanks",
  "labor was 45 minutes",
  "add 30 min for access",
  "customer wants the old part back",
  "actually the fuse was blown",
  "wait, the pump does run",
  "wait, I never checked the fuse",
  "replaced the switch, works now",
  "12.6V",
  "0V",
  "under 11 volts",
  "",
];

function checkTurn(before: TContextState, turn: TContextTurn): void {
  const { state, directive } = turn;
  expect(ZContextState.parse(state)).toEqual(state);
  expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  expect(new Set(state.completed).size).toBe(state.completed.length);
  if (state.active_step !== null) expect(state.completed).not.toContain(state.active_step);
  expectLaborInvariant(state);
  expect(before.guard.more_info_asked_last && state.guard.more_info_asked_last).toBe(false);
  // modes
  if (state.mode === "diagnostic") expect(state.active_step).not.toBeNull();
  if (state.mode === "authorization" || state.mode === "final_report") expect(state.active_step).toBeNull();
  if (state.mode === "final_report") expect(state.report).not.toBeNull();
  if (state.mode === "diagnostic" || state.mode === "authorization") expect(state.report).toBeNull();
  expect(state.mode === "safety_stop").toBe(state.safety !== null);
  // evidence holds the findings of completed steps only; a completed step has a finding or was passed
  const system = catalog.systems.find((s) => s.id === state.system_id);
  const keyOf = (stepId: string) =>
    system?.procedure.steps.find((s) => s.id === stepId)?.answers[0]?.finding.split("=")[0];
  const completedKeys = state.completed.map(keyOf);
  for (const key of Object.keys(state.evidence)) expect(completedKeys).toContain(key);
  for (const id of state.completed)
    expect(Object.hasOwn(state.evidence, keyOf(id) ?? "") || state.not_checked[id]?.passed === true).toBe(true);
  for (const [id, entry] of Object.entries(state.not_checked)) {
    if (entry.passed) expect(state.completed).toContain(id);
    expect(entry.count).toBeGreaterThan(0);
  }
  for (const id of Object.keys(state.pending_findings)) expect(state.completed).not.toContain(id);
  // revisions
  if (state.report !== null) expect(state.report.revision).toBe(state.report_history.length + 1);
  expect(state.report_history.map((r) => r.revision)).toEqual(state.report_history.map((_, i) => i + 1));
  expect(state.report_history.length).toBeGreaterThanOrEqual(before.report_history.length);
  // the directive
  // in diagnostic mode a step directive is about the active step, never a completed one (in
  // authorization a rephrase names the decisive step, which is completed)
  if (state.mode === "diagnostic" && ["ask_step", "rephrase", "non_answer"].includes(directive.kind)) {
    expect(directive.step_id).toBe(state.active_step);
    expect(state.completed).not.toContain(directive.step_id);
  }
  if (directive.kind === "safety_stop") expect(state.mode).toBe("safety_stop");
  for (const n of Object.values(state.guard.reasks)) expect(n).toBeGreaterThan(0);
  expect(state.turn).toBe(before.turn + 1);
  expect(state.guard.last_directive_kind).toBe(directive.kind);
  expect(DIRECTIVE_KINDS).toContain(directive.kind);
}

describe("properties", () => {
  it("every turn of a random conversation keeps the invariants and is deterministic", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...catalog.systems.map((s) => s.id)),
        fc.array(fc.oneof(fc.constantFrom(...MESSAGE_POOL), fc.string({ maxLength: 40 })), {
          minLength: 1,
          maxLength: 20,
        }),
        (systemId, messages) => {
          let state = startContext(catalog, systemId);
          for (const message of messages) {
            const turn = contextTurn(catalog, state, message);
            checkTurn(state, turn);
            expect(contextTurn(catalog, state, message)).toEqual(turn);
            state = turn.state;
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it("an escalation follows at most MAX_REASKS unclear replies to the same step", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...catalog.systems.map((s) => s.id)),
        fc.integer({ min: 1, max: 6 }),
        (systemId, n) => {
          const turns = drive(systemId, ["complaint", ...Array.from({ length: n }, () => "zzz")]);
          const kinds = turns.slice(1).map((t) => t.directive.kind);
          expect(kinds.slice(0, MAX_REASKS)).toEqual(["ask_step", "rephrase"].slice(0, n));
          expect(kinds.slice(MAX_REASKS).every((k) => k === "escalate")).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("non-answers never escalate: every step is passed as not checked and the case reaches a report", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...catalog.systems.map((s) => s.id)),
        fc.constantFrom("no idea", "dunno", "no meter", "haven't checked yet", "can't reach it"),
        (systemId, nonAnswer) => {
          // every step takes MAX_NON_ANSWERS non-answers at most
          const steps = catalog.systems.find((s) => s.id === systemId)?.procedure.steps.length ?? 0;
          const turns = drive(systemId, [
            "complaint",
            ...Array.from({ length: MAX_NON_ANSWERS * steps + 1 }, () => nonAnswer),
          ]);
          for (const turn of turns) {
            expect(turn.directive.kind).not.toBe("escalate");
            expect(turn.directive.kind).not.toBe("rephrase");
            expect(turn.state.evidence).toEqual({});
          }
          expect(turns.some((t) => t.state.mode === "authorization")).toBe(true);
        },
      ),
      { numRuns: 12 },
    );
  });
});

describe("structured directive facts (for renderers that do not read the instruction text)", () => {
  it("ask_step after an answer names the recorded answer's label", () => {
    const turn = last(drive("water_pump", ["water pump is dead", "fuse is good"]));
    expect(turn.directive).toMatchObject({
      kind: "ask_step",
      step_id: "voltage_at_pump",
      recorded: "Fuse intact / breaker on",
      recorded_all: ["Fuse intact / breaker on"],
    });
  });

  it("an answer stated with other findings names every label recorded", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse is fine, and the pump keeps cycling"]));
    expect(turn.directive.recorded_all).toEqual([
      labelOf("water_pump", "fuse", "ok"),
      labelOf("water_pump", "pump_runs", "cycles"),
    ]);
    expect(turn.state.completed).toEqual(["fuse", "pump_runs"]);
    expect(turn.directive.step_id).toBe("voltage_at_pump");
  });

  it("a clarification names its topic; a complaint turn has no recorded answer", () => {
    const [complaint, locate] = drive("water_pump", ["water pump is acting up", "where is the fuse panel?"]);
    expect(complaint?.directive.recorded).toBeUndefined();
    expect(locate?.directive).toMatchObject({ kind: "answer_clarification", topic: "locate", step_id: "fuse" });
  });

  it("an authorization request carries the cause and correction; its rephrase too", () => {
    const turns = drive("water_pump", ["water pump is dead", "fuse ok", "low voltage", "hmm", "banana"]);
    const request = at(turns, 2);
    const rephrase = at(turns, 4);
    expect(request.directive.kind).toBe("request_authorization");
    expect(request.directive.diagnosis?.cause).toMatch(/^Low 12 V supply at the pump/);
    expect(request.directive.diagnosis?.correction).toMatch(/^Charge or replace the battery/);
    expect(rephrase.directive.kind).toBe("rephrase");
    expect(rephrase.directive.diagnosis).toEqual(request.directive.diagnosis);
  });

  it("a pending authorization names what kind of reply it was and carries the labor so far", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse ok", "low voltage", "how much will it cost?"]));
    expect(turn.directive).toMatchObject({ kind: "authorization_pending", pending: "cost", labor_minutes: 15 });
  });

  it("a replan names the corrected step, both answers and the steps set aside", () => {
    const turn = last(
      drive("water_pump", ["water pump is dead", "fuse is good", "12 volts", "actually the fuse was blown"]),
    );
    expect(turn.directive.replan).toEqual({
      step_id: "fuse",
      question: getStepQuestion("water_pump", "fuse"),
      from: "Fuse intact / breaker on",
      to: "Fuse blown / breaker tripped",
      set_aside: ["voltage_at_pump"],
    });
  });

  it("'I already told you' points back to what is recorded", () => {
    const turn = last(drive("water_pump", [PUMP, "fuse ok", "I already told you"]));
    expect(turn.directive).toMatchObject({
      kind: "ask_step",
      step_id: "voltage_at_pump",
      on_record: { answer: null, findings: ["Fuse intact / breaker on"] },
    });
    expect(turn.state.completed).toEqual(["fuse"]);
  });
});
