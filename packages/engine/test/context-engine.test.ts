// The context engine: every transition and guard, the ADR's six acceptance criteria as scenarios
// (criterion 6, single flow authority, is in context-authority.test.ts), a full water-pump
// diagnosis, persistence round trips, determinism, and property tests over random conversations.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ContextEngineError,
  contextTurn,
  getConstraints,
  MAX_REASKS,
  parseContextState,
  RV_SERVICE_CATALOG,
  startContext,
  type TContextEvent,
  type TContextState,
  type TContextTurn,
  type TDirective,
  ZContextState,
} from "../src/index";

const catalog = RV_SERVICE_CATALOG;

/** Runs a conversation from a fresh case; the first message is the complaint. */
function drive(systemId: string, messages: readonly string[]): TContextTurn[] {
  let state = startContext(catalog, systemId);
  return messages.map((message) => {
    const turn = contextTurn(catalog, state, message);
    state = turn.state;
    return turn;
  });
}

function last(turns: readonly TContextTurn[]): TContextTurn {
  const turn = turns[turns.length - 1];
  if (turn === undefined) throw new Error("no turns");
  return turn;
}

const eventsOf = (turn: TContextTurn, type: TContextEvent["type"]) => turn.events.filter((e) => e.type === type);
const PUMP = "water pump";

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe("startContext", () => {
  it("opens a diagnostic case at the first step, with nothing recorded", () => {
    expect(startContext(catalog, "water_pump")).toEqual({
      v: 1,
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
  });

  it("notes the findings it states; their step is still asked, with what the technician said", () => {
    const turns = drive("water_pump", ["pump runs but no water", "fuse ok", "12 volts"]);
    expect(turns[0]?.state.evidence).toEqual({});
    expect(turns[0]?.state.evidence_log).toEqual([{ step: "pump_runs", finding: "pump_runs=no_water", turn: 1 }]);
    expect(eventsOf(turns[0] as TContextTurn, "intent")[0]?.detail).toEqual({
      intent: "COMPLAINT",
      noted: ["pump_runs=no_water"],
    });
    const third = last(turns);
    expect(third.state.completed).toEqual(["fuse", "voltage_at_pump"]);
    expect(third.directive.step_id).toBe("pump_runs");
    expect(third.directive.text).toContain(
      'The technician said earlier: "Runs, but little or no water (sputters)" (pump_runs=no_water); ask them to confirm it',
    );
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
    expect(turn.state.evidence_log).toEqual([{ step: "fuse", finding: "fuse=ok", turn: 2 }]);
    expect(turn.state.completed).toEqual(["fuse"]);
    expect(turn.state.labor).toEqual({ draft_minutes: 5, lines: [{ step: "fuse", minutes: 5 }] });
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
    expect(turn.directive.text).toMatch(/^Recorded fuse=ok\./);
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
    const turn = last(drive("water_pump", [PUMP, "the fuse is blown"]));
    expect(turn.state.mode).toBe("authorization");
    expect(turn.state.active_step).toBeNull();
    expect(turn.directive).toMatchObject({ kind: "request_authorization", step_id: "fuse", options: ["yes", "no"] });
    expect(turn.directive.text).toContain("Proposed correction: Replace the fuse");
    expect(eventsOf(turn, "mode_change")).toEqual([
      { type: "mode_change", detail: { from: "diagnostic", to: "authorization" } },
    ]);
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
    const turns = drive("water_pump", [PUMP, "fuse ok", "12 volts", "pump runs fine", "actually, it keeps cycling"]);
    const before = turns[3]?.state;
    expect(before?.active_step).toBe("leaks");
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
    // The log keeps the history; the evidence map holds only what is current.
    expect(turn.state.evidence_log.map((e) => e.finding)).toEqual([
      "fuse=ok",
      "pump_voltage=ok",
      "pump_runs=yes",
      "pump_runs=cycles",
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
    expect(turn.state.mode).toBe("authorization");
    expect(turn.directive.kind).toBe("replan");
    expect(turn.directive.options).toEqual(["yes", "no"]);
    expect(turn.directive.text).toContain(
      "Steps set aside and asked again if still needed: voltage_at_pump, pump_runs, tank_level.",
    );
  });

  it("the replan sub-mode lasts one turn", () => {
    const turn = last(
      drive("water_pump", [PUMP, "fuse ok", "12 volts", "pump runs fine", "actually it keeps cycling", "hmm"]),
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
    expect(turns[4]?.state.mode).toBe("authorization");
    const turn = last(turns);
    expect(turn.state.mode).toBe("diagnostic");
    expect(turn.state.active_step).toBe("strainer");
    expect(eventsOf(turn, "mode_change")).toEqual([
      { type: "mode_change", detail: { from: "authorization", to: "diagnostic" } },
    ]);
  });

  it("that does not contradict is noted, and its step is asked with it when it comes up", () => {
    const turns = drive("water_pump", [PUMP, "the pump keeps cycling", "fuse ok", "12 volts"]);
    expect(turns[1]?.directive).toMatchObject({ kind: "ask_step", step_id: "fuse" });
    expect(turns[1]?.directive.text).toMatch(/^Note the new evidence \(pump_runs=cycles\)/);
    expect(turns[1]?.state.completed).toEqual([]);
    expect(turns[1]?.state.evidence).toEqual({});
    expect(last(turns).state.active_step).toBe("pump_runs");
    expect(last(turns).directive.text).toContain("(pump_runs=cycles); ask them to confirm it");
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
});

describe("loop guard", () => {
  it("asks for more information once, then rephrases with the how-to and the options, then escalates", () => {
    const turns = drive("water_pump", [PUMP, "hmm", "dunno", "banana", "???"]);
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
    const turn = last(drive("water_pump", [PUMP, "hmm", "dunno", "banana", "fuse ok"]));
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
    const turns = drive("water_pump", [PUMP, "fuse blown", "hmm", "maybe", "dunno"]);
    expect(turns.slice(2).map((t) => t.directive.kind)).toEqual(["request_authorization", "rephrase", "escalate"]);
    expect(last(turns).state.guard.reasks).toEqual({ "@authorization": 3 });
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
    });
    expect(turn.directive.text).toContain("The repair is authorized.");
  });

  it("no → final report, not authorized", () => {
    const turn = last(drive("water_pump", [...toAuthorization, "no, hold off"]));
    expect(turn.state.report?.authorized).toBe(false);
    expect(turn.directive.text).toContain("NOT authorized");
  });

  it("a clarification during authorization returns to the authorization request", () => {
    const turn = last(drive("water_pump", [...toAuthorization, "why the pump and not the wiring?"]));
    expect(turn.directive).toMatchObject({
      kind: "answer_clarification",
      step_id: "pump_runs",
      options: ["yes", "no"],
    });
    expect(turn.directive.text).toContain("ask again for authorization");
    expect(turn.state.mode).toBe("authorization");
  });

  it("after the report, further messages repeat it and never reopen a step", () => {
    const turn = last(drive("water_pump", [...toAuthorization, "yes", "the fuse was blown", "thanks"]));
    expect(turn.directive.kind).toBe("final_report");
    expect(turn.state.mode).toBe("final_report");
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
    const turns = drive("water_pump", [PUMP, "fuse blown", "yes"]);
    for (const turn of turns.slice(1))
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
    // and nothing after it asks a step
    const after = contextTurn(catalog, turn.state, "ok so should I open the pump?");
    expect(after.directive.kind).toBe("final_report");
    expect(after.directive.text).toContain("escalated under warranty");
  });
});

describe("state handling", () => {
  it("never mutates the input state", () => {
    const state = deepFreeze(drive("water_pump", [PUMP, "fuse ok"])[1]?.state as TContextState);
    const copy = structuredClone(state);
    for (const message of ["12 volts", "where is it?", "hmm", "wait, the fuse was blown"])
      contextTurn(catalog, state, message);
    expect(state).toEqual(copy);
  });

  it.each([
    ["a wrong version", (s: TContextState) => ({ ...s, v: 2 as unknown as 1 }), "invalid_state"],
    ["an unknown system", (s: TContextState) => ({ ...s, system_id: "awning" }), "unknown_system"],
    ["another procedure", (s: TContextState) => ({ ...s, procedure_id: "old" }), "invalid_state"],
    ["an unknown step", (s: TContextState) => ({ ...s, active_step: "gone" }), "unknown_step"],
    ["diagnostic without an active step", (s: TContextState) => ({ ...s, active_step: null }), "invalid_state"],
  ])("rejects a state with %s", (_name, broken, code) => {
    const state = broken(startContext(catalog, "water_pump"));
    expect(() => contextTurn(catalog, state, "hi")).toThrow(
      expect.objectContaining({ name: "ContextEngineError", code }),
    );
  });

  it("parseContextState validates persisted state", () => {
    expect(() => parseContextState({ v: 1 })).toThrow();
    expect(() => parseContextState({ ...startContext(catalog, "water_pump"), extra: 1 })).toThrow();
  });
});

// ── Scenarios ───────────────────────────────────────────────────────────────────────────────

/** A full water-pump diagnosis, first message to final report. */
const FULL_PUMP = [
  "Customer says the water pump runs but nothing comes out of the kitchen faucet",
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
      evidence: { pump_runs: "no_water", fuse: "ok", pump_voltage: "ok", tank_level: "ok", strainer: "air_leak" },
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
    });
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
])("scenario: %s", (systemId, messages, decisive, kind) => {
  it(`reaches ${decisive} → ${kind}`, () => {
    const turn = last(drive(systemId, messages));
    expect(turn.state.evidence_log[turn.state.evidence_log.length - 1]?.finding).toBe(decisive);
    expect(turn.directive.kind).toBe(kind);
  });
});

// ── ADR acceptance criteria (6: single authority → context-authority.test.ts) ──────────────

describe("ADR acceptance criteria", () => {
  it("1. no coin-operated gating: labor is a draft that grows per step and never blocks the diagnosis", () => {
    const turns = drive("water_pump", FULL_PUMP);
    for (const turn of turns) {
      expect(turn.state.labor.draft_minutes).toBe(turn.state.labor.lines.reduce((sum, l) => sum + l.minutes, 0));
      expect(turn.state.labor.lines.map((l) => l.step)).toEqual(turn.state.completed);
      expect(turn.directive.text).not.toMatch(/labor (approval|authori)/i);
    }
    // Authorization is asked once, after the diagnosis, for the repair: never before a step.
    const kinds = turns.map((t) => t.directive.kind);
    expect(kinds.indexOf("request_authorization")).toBe(kinds.length - 2);
  });

  it("2. clarification: a brief answer from the registry, then back to the active step", () => {
    const turns = drive("water_pump", [PUMP, "fuse ok", "where is the pump?", "12 volts"]);
    expect(turns[2]?.directive).toMatchObject({ kind: "answer_clarification", step_id: "voltage_at_pump" });
    expect(turns[2]?.directive.registry.locate).toContain("fresh-water tank");
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
    expect(turns[3]?.state.active_step).toBe("tank_level");
    const turn = last(turns);
    expect(turn.directive.kind).toBe("replan");
    expect(turn.state.evidence.pump_runs).toBe("yes");
    expect(turn.state.active_step).toBe("leaks");
  });

  it("4. no loops: never 'more information' twice, never a completed step asked again", () => {
    const turns = drive("water_pump", [PUMP, "hmm", "hmm", "fuse ok", "hmm", "hmm", "hmm", "12 volts", "fuse ok"]);
    let moreInfo = false;
    for (const turn of turns) {
      expect(moreInfo && turn.state.guard.more_info_asked_last).toBe(false);
      moreInfo = turn.state.guard.more_info_asked_last;
      if (turn.directive.kind === "ask_step" || turn.directive.kind === "rephrase")
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
    expect(turns[5]?.directive.constraints).toContain(
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
const MESSAGE_POOL = [
  ...PATTERN_POOL,
  "where is it?",
  "why?",
  "how do I check that?",
  "hmm",
  "no idea",
  "yes go ahead",
  "no",
  "actually the fuse was blown",
  "wait, the pump does run",
  "",
];

function checkTurn(before: TContextState, turn: TContextTurn): void {
  const { state, directive } = turn;
  expect(ZContextState.parse(state)).toEqual(state);
  expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  expect(new Set(state.completed).size).toBe(state.completed.length);
  if (state.active_step !== null) expect(state.completed).not.toContain(state.active_step);
  expect(state.labor.draft_minutes).toBe(state.labor.lines.reduce((sum, l) => sum + l.minutes, 0));
  expect(state.labor.lines.map((l) => l.step)).toEqual(state.completed);
  expect(before.guard.more_info_asked_last && state.guard.more_info_asked_last).toBe(false);
  expect(state.mode === "diagnostic").toBe(state.active_step !== null);
  if (state.mode === "final_report") expect(state.report).not.toBeNull();
  if (directive.kind === "ask_step" || directive.kind === "rephrase") {
    if (state.mode === "diagnostic") expect(directive.step_id).toBe(state.active_step);
  }
  for (const n of Object.values(state.guard.reasks)) expect(n).toBeGreaterThan(0);
  expect(state.turn).toBe(before.turn + 1);
  expect(state.guard.last_directive_kind).toBe(directive.kind);
  const kinds: TDirective["kind"][] = [
    "ask_step",
    "answer_clarification",
    "replan",
    "request_authorization",
    "final_report",
    "escalate",
    "rephrase",
  ];
  expect(kinds).toContain(directive.kind);
}

describe("properties", () => {
  it("every turn of a random conversation keeps the invariants and is deterministic", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...catalog.systems.map((s) => s.id)),
        fc.array(fc.oneof(fc.constantFrom(...MESSAGE_POOL), fc.string({ maxLength: 40 })), {
          minLength: 1,
          maxLength: 25,
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
      { numRuns: 300 },
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
    });
  });

  it("a clarification names its topic; a complaint turn has no recorded answer", () => {
    const [complaint, locate] = drive("water_pump", ["water pump is dead", "where is the fuse panel?"]);
    expect(complaint?.directive.recorded).toBeUndefined();
    expect(locate?.directive).toMatchObject({ kind: "answer_clarification", topic: "locate", step_id: "fuse" });
  });

  it("an authorization request carries the cause and correction; its rephrase too", () => {
    const turns = drive("water_pump", ["water pump is dead", "the fuse is blown", "hmm", "hmm"]);
    const [, request, , rephrase] = turns;
    expect(request?.directive.kind).toBe("request_authorization");
    expect(request?.directive.diagnosis?.cause).toMatch(/fuse/i);
    expect(request?.directive.diagnosis?.correction).toMatch(/Replace the fuse/);
    expect(rephrase?.directive.kind).toBe("rephrase");
    expect(rephrase?.directive.diagnosis).toEqual(request?.directive.diagnosis);
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

  it("ask_step for a step the technician spoke to earlier names what they said", () => {
    const turn = last(drive("water_pump", ["water pump runs but no water", "fuse is good", "12 volts"]));
    expect(turn.directive.step_id).toBe("pump_runs");
    expect(turn.directive.earlier).toBe("Runs, but little or no water (sputters)");
  });
});

function getStepQuestion(systemId: string, stepId: string): string {
  const step = catalog.systems.find((s) => s.id === systemId)?.procedure.steps.find((s) => s.id === stepId);
  if (step === undefined) throw new Error(`no step ${stepId}`);
  return step.question;
}
