// Issue 22: procedure mode on real technician input. Engine-level scenarios on the shipped RV
// catalog, one block per class of the target behaviour, several phrasings each: unknown is
// not no, explicit consent, corrections after the report, free-form evidence, safety, readings,
// self-corrections, several findings at once, findings in the complaint, "already told you",
// repairs done by the technician, questions about another part, the whole message read,
// Spanish and Russian conversations, the slide-out and fuse doctrines.
import { describe, expect, it } from "vitest";
import ES from "../catalogs/rv-service.es.json";
import RU from "../catalogs/rv-service.ru.json";
import {
  contextTurn,
  MAX_NON_ANSWERS,
  MAX_REASKS,
  RV_SERVICE_CATALOG,
  type TContextState,
  type TContextTurn,
  type TReport,
} from "../src/index";
import { drive, last } from "./drive";

const catalog = RV_SERVICE_CATALOG;

/** Continues a conversation from a state. */
function more(state: TContextState, messages: readonly string[]): TContextTurn[] {
  let s = state;
  return messages.map((message) => {
    const turn = contextTurn(catalog, s, message);
    s = turn.state;
    return turn;
  });
}

const run = (systemId: string, messages: readonly string[]) => last(drive(systemId, messages));
const then = (state: TContextState, ...messages: string[]) => last(more(state, messages));

function reportOf(turn: TContextTurn): TReport {
  const report = turn.state.report;
  if (report === null) throw new Error(`no report (mode ${turn.state.mode}, directive ${turn.directive.kind})`);
  return report;
}

function systemOf(id: string) {
  const system = catalog.systems.find((s) => s.id === id);
  if (system === undefined) throw new Error(`no system ${id}`);
  return system;
}

function stepOf(systemId: string, stepId: string) {
  const step = systemOf(systemId).procedure.steps.find((s) => s.id === stepId);
  if (step === undefined) throw new Error(`no step ${stepId}`);
  return step;
}

function safetyInstruction(systemId: string, ruleId: string): string {
  const rule = (systemOf(systemId).safety_rules ?? []).find((r) => r.id === ruleId);
  if (rule === undefined) throw new Error(`no safety rule ${ruleId}`);
  return rule.instruction;
}

// Conversations that reach a known point.
const PUMP = "water pump won't run";
/** Water pump, at the voltage step (fuse recorded as intact). */
const PUMP_AT_VOLTAGE = [PUMP, "fuse is fine"];
/** Water pump, asking authorization to replace the pump switch (labor 5 + 10 + 15 = 30 min). */
const PUMP_TO_AUTH = [PUMP, "fuse is fine", "0V", "no output"];
/** Water pump, final report, repair authorized. */
const PUMP_REPORT = [...PUMP_TO_AUTH, "yes"];
/** Water pump, final report after "pump does not run" (pump replacement). */
const PUMP_RUNS_NO_REPORT = [PUMP, "fuse is fine", "12.6 V", "no it doesn't run", "yes"];
const FURNACE = "furnace won't light";
/** Furnace, asking authorization after "no spark". */
const FURNACE_TO_AUTH = [
  FURNACE,
  "stove lights",
  "thermostat calls for heat",
  "blower runs",
  "sail switch closes",
  "no spark",
];
const AC = "A/C is not cooling";
const AC_AT_THERMOSTAT = [AC, "power is on"];
const SLIDE = "slide won't go out";
const SLIDE_AT_MOTOR = [SLIDE, "12.6V", "switch works"];

// ─────────────────────────────────────────────────────────────────────────────────────────────────

describe("1. unknown is not no", () => {
  const NON_ANSWERS: [string, string][] = [
    ["no idea", "unknown"],
    ["don't know", "unknown"],
    ["dunno", "unknown"],
    ["idk", "unknown"],
    ["not sure", "unknown"],
    ["can't tell", "unknown"],
    ["no problem", "unknown"],
    ["No idea, man.", "unknown"],
    ["IDK!!", "unknown"],
    ["no multimeter here", "no_tool"],
    ["no meter", "no_tool"],
    ["don't have a tester", "no_tool"],
    ["haven't checked yet", "not_yet"],
    ["not yet", "not_yet"],
    ["can't reach it", "no_access"],
  ];

  it.each(NON_ANSWERS)(
    '"%s" at the fuse step records nothing, keeps the step and explains how to check (%s)',
    (message, reason) => {
      const turn = run("water_pump", [PUMP, message]);
      expect(turn.directive.kind).toBe("non_answer");
      expect(turn.directive.step_id).toBe("fuse");
      expect(turn.directive.not_checked).toMatchObject({ reason, passed: false });
      expect(turn.directive.registry.howto).toBe(stepOf("water_pump", "fuse").howto);
      expect(turn.state.mode).toBe("diagnostic");
      expect(turn.state.active_step).toBe("fuse");
      expect(turn.state.evidence).toEqual({});
      expect(turn.state.evidence_log).toEqual([]);
      expect(turn.state.completed).toEqual([]);
      expect(turn.state.not_checked.fuse).toEqual({ reason, count: 1, passed: false });
      expect(turn.state.guard.reasks).toEqual({});
    },
  );

  it.each(NON_ANSWERS)(
    'a second "%s" passes the step as NOT CHECKED and the procedure continues',
    (message, reason) => {
      const turn = run("water_pump", [PUMP, message, message]);
      expect(MAX_NON_ANSWERS).toBe(2);
      expect(turn.state.evidence).toEqual({});
      expect(turn.state.not_checked.fuse).toEqual({ reason, count: 2, passed: true });
      expect(turn.state.completed).toEqual(["fuse"]);
      expect(turn.state.active_step).toBe("voltage_at_pump");
      expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
      expect(turn.directive.not_checked).toMatchObject({
        reason,
        passed: true,
        question: stepOf("water_pump", "fuse").question,
      });
    },
  );

  it.each(["skip", "move on", "skip it", "next step"])(
    '"%s" after a non-answer passes the step with the non-answer\'s reason',
    (skip) => {
      const turn = run("water_pump", [PUMP, "no idea", skip]);
      expect(turn.state.not_checked.fuse).toMatchObject({ reason: "unknown", passed: true });
      expect(turn.state.active_step).toBe("voltage_at_pump");
      expect(turn.state.evidence).toEqual({});
    },
  );

  it.each(["skip", "move on", "Skip this step please"])('"%s" alone passes the step at once as skipped', (skip) => {
    const turn = run("water_pump", [PUMP, skip]);
    expect(turn.state.not_checked.fuse).toMatchObject({ reason: "skipped", passed: true });
    expect(turn.state.completed).toEqual(["fuse"]);
    expect(turn.state.evidence).toEqual({});
    expect(turn.state.active_step).toBe("voltage_at_pump");
  });

  it.each(["no multimeter here", "no meter with me", "don't have a meter", "not sure", "haven't checked yet"])(
    '"%s" at a reading step ("no" means no voltage there) records no reading',
    (message) => {
      const turn = run("water_pump", [...PUMP_AT_VOLTAGE, message]);
      expect(turn.directive.kind).toBe("non_answer");
      expect(turn.state.evidence).toEqual({ fuse: "ok" });
      expect(turn.state.active_step).toBe("voltage_at_pump");
      expect(turn.state.not_checked.voltage_at_pump).toMatchObject({ passed: false });
    },
  );

  it("a step passed as not checked is listed in the report, with no finding", () => {
    const turn = run("water_pump", [PUMP, "no idea", "skip", "12.6V", "no it doesn't run", "yes"]);
    const report = reportOf(turn);
    expect(report.authorized).toBe(true);
    expect(report.not_checked).toEqual([
      { step: "fuse", question: stepOf("water_pump", "fuse").question, reason: "unknown" },
    ]);
    expect(report.steps_performed.map((s) => s.step)).toEqual(["voltage_at_pump", "pump_runs"]);
    expect(report.evidence).not.toHaveProperty("fuse");
  });

  it("non-answers never count toward escalation", () => {
    const turns = drive("water_pump", [PUMP, "no idea", "dunno", "no meter", "can't tell", "not yet", "no idea"]);
    for (const turn of turns) {
      expect(turn.directive.kind).not.toBe("escalate");
      expect(turn.directive.kind).not.toBe("rephrase");
      expect(turn.state.guard.reasks).toEqual({});
    }
    expect(last(turns).state.evidence).toEqual({});
  });

  it.each([
    ["no idea why, but the fuse is blown", { fuse: "blown" }, "fuse_recheck"],
    ["don't know, fuse looks blown though", { fuse: "blown" }, "fuse_recheck"],
    ["not sure about the breaker but the fuse is blown", { fuse: "blown" }, "fuse_recheck"],
    ["I have no meter, but the fuse is fine", { fuse: "ok" }, "voltage_at_pump"],
  ])('a specific finding in another clause still counts: "%s"', (message, evidence, next) => {
    const turn = run("water_pump", [PUMP, message]);
    expect(turn.state.evidence).toEqual(evidence);
    expect(turn.state.not_checked).toEqual({});
    expect(turn.state.active_step).toBe(next);
  });
});

// ─────────────────────────────────────────────────────────────────────────────────────────────────

describe("2. explicit consent", () => {
  it.each(["yes", "yep", "yeah", "y", "Y", "go ahead", "approved", "yes please, replace it", "sí", "dale", "да"])(
    'a plain yes ("%s") authorizes',
    (message) => {
      const turn = run("water_pump", [...PUMP_TO_AUTH, message]);
      expect(turn.directive.kind).toBe("final_report");
      expect(turn.state.mode).toBe("final_report");
      expect(reportOf(turn)).toMatchObject({ authorized: true, escalation: null, resolution: null, revision: 1 });
    },
  );

  it.each([
    ["ok, I need to ask the customer first", "deferral"],
    ["sure, but how much will it cost?", "cost"],
    ["yes if it's under warranty", "conditional"],
    ["not yet", "deferral"],
    ["let me check with the owner", "deferral"],
    ["yes, how much?", "cost"],
    ["yeah go ahead but let me call the owner first", "deferral"],
    ["only if the warranty covers it", "conditional"],
  ])('"%s" keeps the case in authorization (%s)', (message, pending) => {
    const turn = run("water_pump", [...PUMP_TO_AUTH, message]);
    expect(turn.directive.kind).toBe("authorization_pending");
    expect(turn.directive.pending).toBe(pending);
    expect(turn.state.mode).toBe("authorization");
    expect(turn.state.report).toBeNull();
    expect(turn.state.report_history).toEqual([]);
  });

  it("a question before deciding is answered and the case still waits", () => {
    const turn = run("water_pump", [...PUMP_TO_AUTH, "is the switch covered under warranty?"]);
    expect(turn.state.mode).toBe("authorization");
    expect(turn.state.report).toBeNull();
    expect(["authorization_pending", "answer_clarification"]).toContain(turn.directive.kind);
  });

  it("pending replies never escalate, and a plain yes afterwards authorizes", () => {
    const turns = drive("water_pump", [
      ...PUMP_TO_AUTH,
      "how much will it cost?",
      "let me check with the owner",
      "yes if it's under warranty",
      "not yet",
      "what's the price?",
      "yes",
    ]);
    for (const turn of turns.slice(PUMP_TO_AUTH.length, -1)) {
      expect(turn.directive.kind).toBe("authorization_pending");
      expect(turn.state.report).toBeNull();
    }
    expect(reportOf(last(turns)).authorized).toBe(true);
  });

  it.each(["no", "nope", "nah", "N", "customer declined"])(
    'a plain no ("%s") ends the case as not authorized',
    (message) => {
      const turn = run("water_pump", [...PUMP_TO_AUTH, message]);
      expect(turn.state.mode).toBe("final_report");
      expect(reportOf(turn).authorized).toBe(false);
    },
  );
});

// ─────────────────────────────────────────────────────────────────────────────────────────────────

describe("3. corrections after the report", () => {
  it('"wait, I never checked the fuse, it\'s actually blown" reopens the diagnosis at the fuse; the next report is revision 2', () => {
    const reported = run("water_pump", PUMP_REPORT);
    const first = reportOf(reported);
    const reopened = then(reported.state, "wait, I never checked the fuse, it's actually blown");
    expect(reopened.state.mode).toBe("diagnostic");
    expect(reopened.state.report).toBeNull();
    expect(reopened.state.evidence).toEqual({ fuse: "blown" });
    expect(reopened.state.active_step).toBe("fuse_recheck");
    expect(reopened.state.report_history).toEqual([first]);

    const done = last(more(reopened.state, ["new fuse holds", "0V", "no output", "yes"]));
    const second = reportOf(done);
    expect(second.revision).toBe(2);
    expect(second.revised_because).not.toBeNull();
    expect(second.evidence).toMatchObject({ fuse: "blown", fuse_recheck: "holds" });
    expect(done.state.report_history).toHaveLength(1);
    expect(done.state.report_history[0]).toMatchObject({ revision: 1, evidence: { fuse: "ok" } });
  });

  it('"wait, I never checked the fuse, it\'s actually fine" reopens: report set aside, revision 1 kept', () => {
    const reported = run("water_pump", PUMP_REPORT);
    const turn = then(reported.state, "wait, I never checked the fuse, it's actually fine");
    expect(["diagnostic", "authorization"]).toContain(turn.state.mode);
    expect(turn.state.report).toBeNull();
    expect(turn.state.report_history.map((r) => r.revision)).toEqual([1]);
    expect(turn.state.evidence.fuse).toBe("ok");
  });

  it('"actually the pump does run" reopens at the pump step and follows its branch', () => {
    const reported = run("water_pump", PUMP_RUNS_NO_REPORT);
    const turn = then(reported.state, "actually the pump does run");
    expect(turn.state.mode).toBe("diagnostic");
    expect(turn.state.evidence).toMatchObject({ pump_runs: "yes" });
    expect(turn.state.active_step).toBe("leaks");
    expect(turn.state.report_history).toHaveLength(1);
    const done = then(turn.state, "no leaks anywhere", "yes");
    expect(reportOf(done).revision).toBe(2);
  });

  it.each([
    ["labor was 45 minutes", 45],
    ["it took me 45 min total", 45],
    ["add 30 min for access", 60],
    ["labor: an hour and a half", 90],
  ])('"%s" makes a new revision with the edited labor (%i min)', (message, minutes) => {
    const reported = run("water_pump", PUMP_REPORT);
    expect(reportOf(reported).labor.draft_minutes).toBe(30);
    const turn = then(reported.state, message);
    expect(turn.directive).toMatchObject({ kind: "report_update", update: "labor", labor_minutes: minutes });
    expect(turn.state.mode).toBe("final_report");
    const report = reportOf(turn);
    expect(report.revision).toBe(2);
    expect(report.labor.draft_minutes).toBe(minutes);
    expect(report.authorized).toBe(true);
    expect(turn.state.report_history).toHaveLength(1);
    expect(turn.state.report_history[0]?.labor.draft_minutes).toBe(30);
  });

  it.each(["customer wants the old switch kept in the bag", "unit is parked in bay 4, keys at the desk"])(
    'a statement ("%s") becomes a technician note on a new revision',
    (message) => {
      const reported = run("water_pump", PUMP_REPORT);
      const turn = then(reported.state, message);
      expect(turn.directive).toMatchObject({ kind: "report_update", update: "note" });
      const report = reportOf(turn);
      expect(report.revision).toBe(2);
      expect(report.notes).toEqual([message]);
      expect(report.evidence).toEqual(reportOf(reported).evidence);
      expect(turn.state.report_history).toHaveLength(1);
    },
  );

  it.each(["thanks", "ok", "great", "Thank you!", "got it"])('"%s" changes nothing: no new revision', (message) => {
    const reported = run("water_pump", PUMP_REPORT);
    const turn = then(reported.state, message);
    expect(turn.directive).toMatchObject({ kind: "report_update", update: "none" });
    expect(turn.state.report).toEqual(reported.state.report);
    expect(turn.state.report_history).toEqual([]);
    expect(turn.state.mode).toBe("final_report");
  });
});

// ─────────────────────────────────────────────────────────────────────────────────────────────────

describe("4a. free-form evidence", () => {
  it.each([
    "found a refrigerant leak on the condenser coil",
    "there's oil on the condenser coil",
    "freon leak at the evaporator",
    "compressor is fine but I can hear hissing at the lines",
  ])('A/C "%s" → escalation "warranty" with the observation', (message) => {
    const turn = run("roof_ac", [...AC_AT_THERMOSTAT, message]);
    expect(turn.directive.kind).toBe("escalate");
    expect(turn.directive.observation).toMatchObject({ rule: "refrigerant_leak" });
    expect(turn.state.mode).toBe("final_report");
    const report = reportOf(turn);
    expect(report.escalation).toBe("warranty");
    expect(report.authorized).toBeNull();
    expect(report.observations).toHaveLength(1);
    expect(report.observations[0]?.rule).toBe("refrigerant_leak");
  });

  it("the report carries the technician's observation as written (not stemmed tokens)", () => {
    const report = reportOf(run("roof_ac", [...AC_AT_THERMOSTAT, "found a refrigerant leak on the condenser coil"]));
    expect(report.observations[0]?.text).toContain("refrigerant leak on the condenser coil");
  });

  it.each([
    ["water_pump", [PUMP], "found a melted wire at the pump connector", "wiring_heat_damage"],
    ["water_pump", PUMP_AT_VOLTAGE, "the wire is melted right at the plug", "wiring_heat_damage"],
    ["roof_ac", [AC], "melted wire on the capacitor", "ac_wiring_damage"],
    ["roof_ac", AC_AT_THERMOSTAT, "burn marks on the compressor terminal", "ac_wiring_damage"],
    ["roof_ac", AC_AT_THERMOSTAT, "the plug on the cap is all melted", "ac_wiring_damage"],
  ] as const)('%s: "%s" → escalation "evidence"', (system, before, message, rule) => {
    const turn = run(system, [...before, message]);
    expect(turn.directive.kind).toBe("escalate");
    const report = reportOf(turn);
    expect(report.escalation).toBe("evidence");
    expect(report.observations.map((o) => o.rule)).toEqual([rule]);
  });

  it.each([
    "no refrigerant leak",
    "no sign of a leak",
    "didn't see any oil on the coil",
    "there's no refrigerant leak, thermostat calls for cool",
    "no melted wires anywhere",
    // heat said of people, not of a part
    "customers r melting in here, its 117 out",
    "we're melting, the coach is like an oven",
  ])('"%s" does not trigger an evidence rule', (message) => {
    const turn = run("roof_ac", [...AC_AT_THERMOSTAT, message]);
    expect(turn.directive.kind).not.toBe("escalate");
    expect(turn.state.mode).toBe("diagnostic");
    expect(turn.state.report).toBeNull();
    expect(turn.state.observations).toEqual([]);
  });

  it("evidence in the complaint stops the case at once", () => {
    const turn = run("roof_ac", ["a/c blowing warm, there's oil on the condenser coil"]);
    expect(reportOf(turn)).toMatchObject({ escalation: "warranty" });
    expect(turn.directive.kind).toBe("escalate");
  });

  it('slide-out "found a bent rail" → warranty escalation (mechanism)', () => {
    const report = reportOf(run("slide_out", [SLIDE, "found a bent rail"]));
    expect(report.escalation).toBe("warranty");
    expect(report.observations[0]?.rule).toBe("mechanism_damage");
  });
});

// ─────────────────────────────────────────────────────────────────────────────────────────────────

describe("4b. safety", () => {
  const LP = safetyInstruction("furnace", "lp_smell");

  function expectStopped(turn: TContextTurn, rule = "lp_smell", instruction = LP): void {
    expect(turn.directive.kind).toBe("safety_stop");
    expect(turn.directive.step_id).toBeUndefined();
    expect(turn.directive.options).toBeUndefined();
    expect(turn.directive.safety).toMatchObject({ rule, instruction, cleared: false });
    expect(turn.state.mode).toBe("safety_stop");
    expect(turn.state.safety?.rule).toBe(rule);
  }

  it.each([
    "furnace won't light and I smell propane",
    "I smell gas near the furnace, it won't light",
    "furnace won't start, rotten egg smell by the door",
    "LP detector keeps going off and there's no heat",
  ])('in the first message: "%s"', (message) => {
    const turn = run("furnace", [message]);
    expectStopped(turn);
    expect(turn.state.evidence).toEqual({});
  });

  it.each(["I smell gas", "smells like propane in here", "propane smell at the furnace"])(
    'in diagnostic mode: "%s" stops; clearing resumes at the same step',
    (message) => {
      const at = run("furnace", [FURNACE, "stove lights"]);
      const stopped = then(at.state, message);
      expectStopped(stopped);
      expect(stopped.state.evidence).toEqual({ lp: "ok" });
      const still = then(stopped.state, "still smells");
      expectStopped(still);
      const yes = then(stopped.state, "yes");
      expect(yes.state.mode).toBe("safety_stop");
      expect(yes.state.evidence).toEqual({ lp: "ok" });
      const cleared = then(stopped.state, "leak test passed");
      expect(cleared.state.mode).toBe("diagnostic");
      expect(cleared.state.safety).toBeNull();
      expect(cleared.directive).toMatchObject({ kind: "ask_step", step_id: "thermostat" });
      expect(cleared.directive.safety).toMatchObject({ rule: "lp_smell", cleared: true });
      expect(cleared.state.evidence).toEqual({ lp: "ok" });
    },
  );

  it('in authorization: "yes but I smell propane" stops and does not authorize; clearing returns to authorization', () => {
    const auth = run("furnace", FURNACE_TO_AUTH);
    expect(auth.state.mode).toBe("authorization");
    const stopped = then(auth.state, "yes but I smell propane");
    expectStopped(stopped);
    expect(stopped.state.report).toBeNull();
    const cleared = then(stopped.state, "leak test passed");
    expect(cleared.state.mode).toBe("authorization");
    expect(cleared.state.report).toBeNull();
    expect(cleared.directive.kind).toBe("request_authorization");
    expect(reportOf(then(cleared.state, "yes")).authorized).toBe(true);
  });

  it("after the report too; clearing returns to the report unchanged", () => {
    const reported = run("furnace", [...FURNACE_TO_AUTH, "yes"]);
    const stopped = then(reported.state, "now I smell gas at the furnace");
    expectStopped(stopped);
    const cleared = then(stopped.state, "leak test passed");
    expect(cleared.state.mode).toBe("final_report");
    expect(cleared.state.report).toEqual(reported.state.report);
  });

  it.each(["I don't smell gas", "no gas smell", "no propane smell at all", "doesn't smell like propane"])(
    '"%s" does not trigger the safety stop, and is no answer to the thermostat step',
    (message) => {
      const turn = run("furnace", [FURNACE, "stove lights", message]);
      expect(turn.state.safety).toBeNull();
      expect(turn.directive.kind).not.toBe("safety_stop");
      // the "no" of a denied smell is not a "no" to "does the thermostat call for heat?"
      expect(turn.state.evidence).toEqual({ lp: "ok" });
      expect(turn.state.mode).toBe("diagnostic");
      expect(turn.state.active_step).toBe("thermostat");
    },
  );

  it('an English "I smell gas" keeps the conversation in English ("gas" is no Spanish word here)', () => {
    const turn = run("furnace", [FURNACE, "stove lights", "I smell gas"]);
    expect(turn.state.language).toBe("en");
    expect(turn.directive.language).toBe("en");
  });

  it.each([
    ["furnace", "furnace doesn't light and I smell propane", "en"],
    ["furnace", "the furnace won't ignite but I can smell gas", "en"],
    ["furnace", "el horno no prende y huele a gas", "es"],
    ["furnace", "печка не работает и пахнет газом", "ru"],
  ])(
    '%s: a gas smell after a negated symptom joined by "and" still stops the case: "%s"',
    (system, message, language) => {
      const turn = run(system, [message]);
      expect(turn.state.language).toBe(language);
      expect(turn.directive.kind).toBe("safety_stop");
      expect(turn.state.mode).toBe("safety_stop");
      expect(turn.state.safety?.rule).toBe("lp_smell");
    },
  );

  it('"no gas smell, thermostat calls for heat" records the thermostat', () => {
    const turn = run("furnace", [FURNACE, "stove lights", "no gas smell, thermostat calls for heat"]);
    expect(turn.state.evidence).toEqual({ lp: "ok", thermostat_heat: "calls" });
    expect(turn.state.active_step).toBe("blower");
  });

  it("smoke at the water pump stops with the pump's instruction", () => {
    const turn = run("water_pump", [PUMP, "there's smoke coming from the pump"]);
    expectStopped(turn, "electrical_smoke", safetyInstruction("water_pump", "electrical_smoke"));
  });

  it("Spanish and Russian gas smells stop with the translated instruction", () => {
    const es = run("furnace", ["el horno no prende, huele a gas"]);
    expectStopped(es, "lp_smell", ES.systems.furnace.safety_rules.lp_smell.instruction);
    expect(es.state.language).toBe("es");
    expect(then(es.state, "ya pasó la prueba de fugas").state.mode).toBe("diagnostic");
    const ru = run("furnace", ["печка не работает, пахнет газом"]);
    expectStopped(ru, "lp_smell", RU.systems.furnace.safety_rules.lp_smell.instruction);
    expect(ru.state.language).toBe("ru");
    expect(then(ru.state, "проверка на утечку пройдена").state.mode).toBe("diagnostic");
  });
});

// ─────────────────────────────────────────────────────────────────────────────────────────────────

describe("5a. readings", () => {
  it.each([
    ["12.6V", "ok", "pump_runs"],
    ["12.6 V", "ok", "pump_runs"],
    ["12,6 v", "ok", "pump_runs"],
    ["I'm reading 12.4 at the pump plug", "ok", "pump_runs"],
    ["0V", "none", "pump_switch"],
    ["I get 0 volts", "none", "pump_switch"],
    ["under 11 volts", "low", null],
    ["11.2 volts", "low", null],
  ])('water pump voltage "%s" → pump_voltage=%s', (message, value, next) => {
    const turn = run("water_pump", [...PUMP_AT_VOLTAGE, message]);
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: value });
    expect(turn.state.active_step).toBe(next);
    if (next === null) expect(turn.state.mode).toBe("authorization");
  });

  it.each([
    ["118v", "ok"],
    ["118 volts", "ok"],
    ["getting 121 vac at the breaker", "ok"],
    ["95 v", "none"],
    ["0V", "none"],
  ])('A/C power "%s" → ac_power=%s', (message, value) => {
    const turn = run("roof_ac", [AC, message]);
    expect(turn.state.evidence).toEqual({ ac_power: value });
  });

  it.each([
    ["12.6V", "ok"],
    ["12,2 v", "low"],
    ["11.9 volts", "low"],
    ["battery 12.1", "low"],
  ])('slide battery "%s" → battery=%s', (message, value) => {
    expect(run("slide_out", [SLIDE, message]).state.evidence).toEqual({ battery: value });
  });
});

describe("5b. self-corrections: the last statement wins", () => {
  it.each([
    ["blown, no wait it's fine", "ok"],
    ["fine... no wait, it's blown", "blown"],
    ["it's blown, sorry I mean it's intact", "ok"],
  ])('fuse "%s" → %s', (message, value) => {
    expect(run("water_pump", [PUMP, message]).state.evidence).toEqual({ fuse: value });
  });

  it.each(["12 volts, actually no, 0 volts", "12.6V, no wait, 0V", "voltage is good, no wait, no voltage"])(
    'voltage "%s" → none',
    (message) => {
      const turn = run("water_pump", [...PUMP_AT_VOLTAGE, message]);
      expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "none" });
      expect(turn.state.active_step).toBe("pump_switch");
    },
  );

  it.each(["yes it runs, no wait, it doesn't run", "motor runs, sorry, motor is dead"])(
    'slide motor "%s" → no',
    (message) => {
      const turn = run("slide_out", [...SLIDE_AT_MOTOR, message]);
      expect(turn.state.evidence.slide_motor).toBe("no");
      expect(turn.state.active_step).toBe("motor_direct");
    },
  );
});

describe("5c. several findings in one message", () => {
  it.each([
    [
      "fuse is good and 12.6 V at the pump, pump doesn't run",
      { fuse: "ok", pump_voltage: "ok", pump_runs: "no" },
      null,
    ],
    [
      "fuse is fine, 0 volts at the pump connector, switch has no output",
      { fuse: "ok", pump_voltage: "none", pump_switch: "bad" },
      null,
    ],
    [
      "fuse ok, voltage ok, pump runs but no water",
      { fuse: "ok", pump_voltage: "ok", pump_runs: "no_water" },
      "tank_level",
    ],
  ])('"%s" records every finding and asks none of them again', (message, evidence, next) => {
    const turn = run("water_pump", [PUMP, message]);
    expect(turn.state.evidence).toEqual(evidence);
    expect(turn.state.completed).toEqual(
      Object.keys(evidence).map(
        (k) =>
          ({ fuse: "fuse", pump_voltage: "voltage_at_pump", pump_runs: "pump_runs", pump_switch: "pump_switch" })[k],
      ),
    );
    expect(turn.directive.recorded_all).toHaveLength(3);
    expect(turn.state.active_step).toBe(next);
    if (next === null) expect(turn.directive.kind).toBe("request_authorization");
    else expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: next });
  });
});

describe("5d. findings in the complaint", () => {
  it.each([
    [
      "water pump won't run. fuse is fine and I have 12.6 V at the pump",
      { fuse: "ok", pump_voltage: "ok" },
      "pump_runs",
    ],
    ["pump not working, fuse is blown", { fuse: "blown" }, "fuse_recheck"],
    [
      "A/C not cooling, breaker is on, thermostat calls for cool, fan runs",
      { ac_power: "ok", thermostat_cool: "calls", ac_fan: "runs" },
      "compressor",
    ],
  ])('"%s" records its findings; their steps are not asked', (message, evidence, next) => {
    const system = message.startsWith("A/C") ? "roof_ac" : "water_pump";
    const turn = run(system, [message]);
    expect(turn.state.complaint).toBe(message);
    expect(turn.state.evidence).toEqual(evidence);
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: next });
  });

  it("a finding for a branch step is kept and applied when its branch comes up (never asked)", () => {
    const turns = drive("water_pump", ["pump won't run, and the pump switch has no output", "fuse ok", "0V"]);
    const turn = last(turns);
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "none", pump_switch: "bad" });
    expect(turn.state.mode).toBe("authorization");
    expect(turns.some((t) => t.directive.kind === "ask_step" && t.directive.step_id === "pump_switch")).toBe(false);
  });
});

describe("5d'. a finding about one part is not a finding about another", () => {
  it('"fuse ok, and the pump switch has no output" records no "pump does not run"; the switch finding is used when its step comes up', () => {
    const stated = run("water_pump", [PUMP, "fuse ok, and the pump switch has no output"]);
    expect(stated.state.evidence).not.toHaveProperty("pump_runs");
    expect(stated.state.evidence).toMatchObject({ fuse: "ok" });
    const turn = then(stated.state, "0V");
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "none", pump_switch: "bad" });
    expect(turn.state.mode).toBe("authorization");
  });
});

describe('5e. "I already told you"', () => {
  it.each(["I already told you", "like I said", "already answered that"])(
    '"%s" points back to what is recorded; not a re-ask',
    (message) => {
      const turn = run("water_pump", ["water pump won't run. fuse is fine", message]);
      expect(turn.directive.on_record).toEqual({
        answer: null,
        findings: [stepOf("water_pump", "fuse").answers[0]?.label],
      });
      expect(turn.directive.step_id).toBe("voltage_at_pump");
      expect(turn.state.guard.reasks).toEqual({});
      expect(turn.state.evidence).toEqual({ fuse: "ok" });
    },
  );

  it('"I already told you, the fuse is fine" at the next step points back to the record and is not a re-ask', () => {
    const turn = run("water_pump", [...PUMP_AT_VOLTAGE, "I already told you, the fuse is fine"]);
    expect(turn.state.evidence).toEqual({ fuse: "ok" });
    expect(turn.state.active_step).toBe("voltage_at_pump");
    expect(turn.state.guard.reasks).toEqual({});
    expect(turn.directive.on_record).toBeDefined();
  });
});

describe("5f. repaired by the technician", () => {
  it.each(["works now", "replaced the switch, works now", "fixed it", "swapped the fuse and it pumps now"])(
    '"%s" ends the case with resolution fixed_by_technician',
    (message) => {
      const turn = run("water_pump", [...PUMP_AT_VOLTAGE, message]);
      expect(turn.directive.kind).toBe("final_report");
      expect(turn.directive.repair).toBe(message);
      expect(turn.state.mode).toBe("final_report");
      expect(reportOf(turn)).toMatchObject({
        resolution: "fixed_by_technician",
        repair: message,
        authorized: null,
        escalation: null,
      });
    },
  );

  it("also during authorization", () => {
    const turn = run("water_pump", [...PUMP_TO_AUTH, "replaced the switch, works now"]);
    expect(reportOf(turn)).toMatchObject({ resolution: "fixed_by_technician", authorized: null });
  });

  it('"changed the fuse, still dead" is no repair', () => {
    const turn = run("water_pump", [PUMP, "changed the fuse, still dead"]);
    expect(turn.state.report).toBeNull();
    expect(turn.state.mode).toBe("diagnostic");
  });
});

describe("5g. a question about another part", () => {
  it.each([
    ["water_pump", [PUMP], "where is the water pump?", "locate", "pump_runs", "fuse"],
    ["water_pump", [PUMP], "how do I check the pressure switch?", "howto", "pressure_switch", "fuse"],
    ["furnace", [FURNACE], "what does the sail switch do?", "explain", "sail_switch", "lp_level"],
    ["roof_ac", [AC], "where's the thermostat?", "locate", "thermostat", "power"],
  ] as const)(
    '%s: "%s" is answered for that part and never counts toward escalation',
    (system, before, question, topic, part, active) => {
      const turns = drive(system, [...before, question, question, question, question]);
      for (const turn of turns.slice(before.length)) {
        expect(turn.directive).toMatchObject({ kind: "answer_clarification", topic, part_step: part, step_id: active });
        expect(turn.directive.registry[topic]).toBe(stepOf(system, part)[topic]);
        expect(turn.state.guard.reasks).toEqual({});
        expect(turn.state.active_step).toBe(active);
      }
    },
  );

  it("unclear replies still follow the loop guard: more information, rephrase, then escalation", () => {
    const turns = drive("water_pump", [PUMP, "banana", "the weather is nice", "purple"]);
    expect(turns.slice(1).map((t) => t.directive.kind)).toEqual(["ask_step", "rephrase", "escalate"]);
    expect(last(turns).state.guard.reasks.fuse).toBe(MAX_REASKS + 1);
  });
});

describe("5h. the whole message is read (8,000 characters)", () => {
  const PASTE =
    "The customer says the trailer sat in storage all winter and they de-winterized it themselves last weekend, ran the antifreeze out and filled the tank. ";

  function longMessage(tail: string, total: number): string {
    const head = PASTE.repeat(Math.ceil(total / PASTE.length)).slice(0, total - tail.length);
    return head + tail;
  }

  it.each([
    [" Anyway: the fuse is blown.", 7_000],
    [" the fuse is blown", 8_000],
  ])('a finding at the end of a long paste ("%s", %i chars) is recorded', (tail, total) => {
    const message = longMessage(tail, total);
    expect(message.length).toBe(total);
    const turn = run("water_pump", [PUMP, message]);
    expect(turn.state.evidence).toEqual({ fuse: "blown" });
    expect(turn.state.active_step).toBe("fuse_recheck");
  });

  it("a gas smell at the end of a long first message stops the case", () => {
    const turn = run("furnace", [longMessage(" Also I smell propane by the furnace.", 8_000)]);
    expect(turn.state.mode).toBe("safety_stop");
  });
});

// ─────────────────────────────────────────────────────────────────────────────────────────────────

describe("6. Spanish and Russian conversations", () => {
  const esPump = ES.systems.water_pump.steps;
  const ruPump = RU.systems.water_pump.steps;

  it("Spanish: detected, asked in Spanish, non-answers understood, report in English with a Spanish copy", () => {
    const turns = drive("water_pump", [
      "la bomba de agua no funciona",
      "no sé",
      "el fusible está bien",
      "no hay voltaje en la bomba",
      "no hay salida",
      "sí",
    ]);
    const [complaint, dunno, fuse, voltage, output, yes] = turns;
    expect(complaint?.state.language).toBe("es");
    expect(complaint?.directive).toMatchObject({ kind: "ask_step", step_id: "fuse", language: "es" });
    expect(complaint?.directive.registry.question).toBe(esPump.fuse.question);
    expect(dunno?.directive.kind).toBe("non_answer");
    expect(dunno?.directive.registry.question).toBe(esPump.fuse.question);
    expect(dunno?.state.evidence).toEqual({});
    expect(fuse?.directive.registry.question).toBe(esPump.voltage_at_pump.question);
    expect(voltage?.directive.registry.question).toBe(esPump.pump_switch.question);
    expect(output?.directive.kind).toBe("request_authorization");
    expect(output?.state.evidence).toEqual({ fuse: "ok", pump_voltage: "none", pump_switch: "bad" });
    const report = reportOf(yes as TContextTurn);
    expect(report.authorized).toBe(true);
    expect(report.cause).toBe(stepOf("water_pump", "pump_switch").answers.find((a) => a.id === "bad")?.cause);
    expect(report.translation?.language).toBe("es");
    expect(report.translation?.cause).toBe(esPump.pump_switch.answers.bad.cause);
  });

  it('Spanish without accents: "si esta fundido", then a deferral, then "dale"', () => {
    const turns = drive("water_pump", [
      "la bomba no prende",
      "si esta fundido",
      "se volvió a fundir",
      "sí, se sigue fundiendo",
      "tengo que preguntar al cliente",
      "dale",
    ]);
    expect(turns[1]?.state.evidence).toEqual({ fuse: "blown" });
    expect(turns[1]?.directive.registry.question).toBe(esPump.fuse_recheck.question);
    expect(turns[3]?.state.evidence).toEqual({ fuse: "blown", fuse_recheck: "blows", short_check: "wiring" });
    expect(turns[4]?.directive).toMatchObject({ kind: "authorization_pending", pending: "deferral" });
    expect(turns[4]?.state.report).toBeNull();
    const report = reportOf(last(turns));
    expect(report.authorized).toBe(true);
    expect(report.translation?.language).toBe("es");
  });

  it("Russian: detected, asked in Russian, skip understood, report in English with a Russian copy", () => {
    const turns = drive("water_pump", [
      "насос не работает",
      "не знаю",
      "пропустить",
      "ноль вольт",
      "на выходе нет",
      "да",
    ]);
    const [complaint, dunno, skip, zero, output, yes] = turns;
    expect(complaint?.state.language).toBe("ru");
    expect(complaint?.directive.registry.question).toBe(ruPump.fuse.question);
    expect(dunno?.directive).toMatchObject({ kind: "non_answer", language: "ru" });
    expect(skip?.state.not_checked.fuse).toMatchObject({ reason: "unknown", passed: true });
    expect(skip?.directive.registry.question).toBe(ruPump.voltage_at_pump.question);
    expect(zero?.state.evidence).toEqual({ pump_voltage: "none" });
    expect(zero?.directive.registry.question).toBe(ruPump.pump_switch.question);
    expect(output?.state.mode).toBe("authorization");
    const report = reportOf(yes as TContextTurn);
    expect(report.authorized).toBe(true);
    expect(report.not_checked.map((n) => n.step)).toEqual(["fuse"]);
    expect(report.translation?.language).toBe("ru");
    expect(report.translation?.cause).toBe(ruPump.pump_switch.answers.bad.cause);
    expect(report.translation?.not_checked[0]?.question).toBe(ruPump.fuse.question);
  });

  it('Russian readings and consent: "12,4 В", a deferral, then "да"', () => {
    const turns = drive("water_pump", [
      "насос не работает",
      "предохранитель цел",
      "12,4 В",
      "нет, не работает",
      "подожди, спрошу клиента",
      "да",
    ]);
    expect(turns[2]?.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok" });
    expect(turns[3]?.state.mode).toBe("authorization");
    expect(turns[4]?.directive).toMatchObject({ kind: "authorization_pending", pending: "deferral" });
    expect(reportOf(last(turns)).translation?.language).toBe("ru");
  });
});

// ─────────────────────────────────────────────────────────────────────────────────────────────────

describe("doctrines", () => {
  it("slide-out: a motor that does not run goes to the direct 12 V test, not to a report", () => {
    const turn = run("slide_out", [...SLIDE_AT_MOTOR, "motor doesn't run"]);
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "motor_direct" });
    expect(turn.state.mode).toBe("diagnostic");
  });

  it.each(["yes it runs on the jumpers", "runs on direct 12 V", "it runs"])(
    'slide-out: "%s" on direct 12 V → wiring/controller; the correction says not to replace the motor',
    (message) => {
      const auth = run("slide_out", [...SLIDE_AT_MOTOR, "motor doesn't run", message]);
      expect(auth.state.evidence.motor_direct).toBe("runs");
      expect(auth.directive.kind).toBe("request_authorization");
      expect(auth.directive.diagnosis?.cause).toMatch(/controller|wiring/i);
      expect(auth.directive.diagnosis?.correction).toMatch(/do not replace the motor/i);
      const report = reportOf(then(auth.state, "yes"));
      expect(report.cause).toMatch(/controller/i);
      expect(report.cause).toMatch(/wiring/i);
      expect(report.correction).toMatch(/^Do not replace the motor/);
    },
  );

  // Catalog doctrine (issue 36): a motor that runs on direct 12 V is not replaced.
  it.each([
    [
      "stated at the override step",
      [
        SLIDE,
        "batt 12.6",
        "switch clicks",
        "motor runs but the room doesnt move",
        "nothing blocking",
        "motor runs fine when I apply 12V directly",
        "moves freely by hand",
        "yes",
      ],
    ],
    [
      "stated in the complaint",
      [
        `${SLIDE}, motor runs fine when I apply 12V directly`,
        "12.6",
        "switch works",
        "hums but room doesnt move",
        "nothing in the way",
        "moves freely by hand",
        "yes",
      ],
    ],
  ])(
    "slide-out: direct 12 V %s, then the room moves by hand → the feed, never the motor, citing the doctrine",
    (_, messages) => {
      const report = reportOf(run("slide_out", messages));
      expect(report.evidence.override).toBe("moves");
      expect(report.correction).toMatch(/^Do not replace the motor/);
      expect(report.doctrine).toEqual([
        { id: "motor_good_on_direct_12v", rule: expect.stringMatching(/direct 12 V is good and is not replaced/) },
      ]);
    },
  );

  it("slide-out in Spanish: the report's copy cites the doctrine in Spanish", () => {
    const report = reportOf(
      run("slide_out", [
        "el slide no sale",
        "bateria 12.6",
        "el switch da 12v",
        "el motor funciona pero el cuarto no se mueve",
        "nada lo bloquea",
        "el motor funciona con 12v directo",
        "se mueve a mano",
        "sí",
      ]),
    );
    expect(report.doctrine).toEqual([{ id: "motor_good_on_direct_12v", rule: expect.stringMatching(/^A motor/) }]);
    expect(report.translation?.doctrine).toEqual([
      { id: "motor_good_on_direct_12v", rule: expect.stringMatching(/^Un motor que funciona con 12 V directos/) },
    ]);
  });

  it("slide-out: without the direct test, a room that moves by hand is a drive fault (no doctrine cited)", () => {
    const report = reportOf(
      run("slide_out", [
        ...SLIDE_AT_MOTOR,
        "motor runs but the room doesnt move",
        "nothing blocking",
        "moves freely by hand",
        "yes",
      ]),
    );
    expect(report.correction).toMatch(/^Replace the slide motor/);
    expect(report.doctrine).toEqual([]);
  });

  it("slide-out: a direct 12 V run told when asked whether it runs from the switch is no answer to that step", () => {
    const turn = run("slide_out", [...SLIDE_AT_MOTOR, "motor runs fine when I apply 12V directly"]);
    expect(turn.state.evidence.slide_motor).toBeUndefined();
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "motor_runs" });
  });

  // Corrections by the quantity they name, and readings without a unit (issue 36's reports).
  it("slide-out: a correction with a reading and no part corrects the battery read before, not the switch asked", () => {
    const turn = run("slide_out", [SLIDE, "12.6", "actually i measured wrong, its 11.3 under load"]);
    expect(turn.state.evidence).toEqual({ battery: "low" });
    expect(turn.directive.kind).toBe("replan");
  });

  it("water_pump: the number of a rental in the complaint is no reading of the switch", () => {
    const turn = run("water_pump", ["water pump wont come on from the switch by the door. rental #9"]);
    expect(turn.state.pending_findings ?? {}).toEqual({});
  });

  it.each(["this is unit 12 btw", "es la unidad 12 por cierto"])(
    'slide-out: "%s" at the battery step records no battery reading',
    (message) => {
      const turn = run("slide_out", [SLIDE, message]);
      expect(turn.state.evidence).toEqual(run("slide_out", [SLIDE]).state.evidence);
    },
  );

  it.each([
    "wait that was with the converter charging. unplugged and rested its 12.1",
    "espera, eso fue con el cargador conectado, sin cargador marca 12.1",
    "warte, das war mit Ladegerät, ohne sind es 12,1",
  ])('slide-out: "%s" at the switch step corrects the battery it points back to', (message) => {
    const turn = run("slide_out", [SLIDE, "around 12 and a half", message]);
    expect(turn.state.evidence).toEqual({ battery: "low" });
  });

  it('slide-out: "that was" without a correction marker points back to nothing', () => {
    const turn = run("slide_out", [
      SLIDE,
      "around 12 and a half",
      "12.1 at the switch, that was with the slide moving",
    ]);
    expect(turn.state.evidence).toMatchObject({ battery: "ok", slide_switch: "ok" });
  });

  it.each(["I already told you", "said that in my first message", "as I mentioned", "como te comente"])(
    'water pump: "%s" at the step the complaint answered takes the complaint\'s answer',
    (reference) => {
      const turn = run("water_pump", ["The pump won't run at all", "fuse is fine", "12.5 at the pump", reference]);
      expect(turn.state.evidence.pump_runs).toBe("no");
      expect(turn.directive.kind).toBe("request_authorization");
    },
  );

  it('water pump: a complaint about the system alone answers no step when told "I already told you"', () => {
    const turn = run("water_pump", [PUMP, "I already told you"]);
    expect(turn.state.evidence).toEqual({});
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "fuse" });
  });

  it("roof A/C: a reading that finds a fault outweighs words that find none, and a remeasurement takes it back", () => {
    const low = run("roof_ac", ["ac not cooling", "only getting 98 at the unit, breaker is on"]);
    expect(low.state.evidence.ac_power).toBe("none");
    const back = run("roof_ac", [
      "ac not cooling",
      "only getting 98 at the unit, breaker is on",
      "wait, had the meter on the wrong outlet, its 119 at the ac",
    ]);
    expect(back.state.evidence.ac_power).toBe("ok");
  });

  it("slide-out: words that find a fault outweigh a reading that finds none (12 in but nothing out)", () => {
    const turn = run("slide_out", [SLIDE, "12.6", "switch has 12 in but nothing out"]);
    expect(turn.state.evidence.slide_switch).toBe("bad");
  });

  it("water pump: a unit-less reading at the pump, beside the switch, is the pump's voltage", () => {
    const turn = run("water_pump", [PUMP, "fuse ok, 12.6 at the pump with the switch on, pump doesnt run"]);
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok", pump_runs: "no" });
  });

  it("slide-out: a motor dead on direct 12 V is replaced", () => {
    const report = reportOf(run("slide_out", [...SLIDE_AT_MOTOR, "motor doesn't run", "still dead", "yes"]));
    expect(report.evidence.motor_direct).toBe("dead");
    expect(report.correction).toMatch(/replace the slide motor/i);
  });

  it.each(["fuse is blown", "blown", "no", "breaker tripped"])(
    'water pump: "%s" at the fuse leads to fuse_recheck, not a report',
    (message) => {
      const turn = run("water_pump", [PUMP, message]);
      expect(turn.state.evidence).toEqual({ fuse: "blown" });
      expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "fuse_recheck" });
      expect(turn.state.report).toBeNull();
      expect(turn.state.mode).toBe("diagnostic");
    },
  );

  it("water pump: a new fuse that holds continues to the voltage step", () => {
    const turn = run("water_pump", [PUMP, "fuse is blown", "new fuse holds"]);
    expect(turn.state.evidence).toEqual({ fuse: "blown", fuse_recheck: "holds" });
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
  });

  it.each([
    ["still blows with the pump unplugged", "wiring"],
    ["holds without the pump", "pump"],
  ])('water pump: a fuse that blows again → short check; "%s" → %s', (message, value) => {
    const atShort = run("water_pump", [PUMP, "fuse is blown", "blew again"]);
    expect(atShort.directive).toMatchObject({ kind: "ask_step", step_id: "short_check" });
    const auth = then(atShort.state, message);
    expect(auth.state.evidence.short_check).toBe(value);
    expect(auth.state.mode).toBe("authorization");
  });

  it("roof A/C: a tripped breaker goes to the breaker reset; tripping again ends the diagnosis", () => {
    const tripped = run("roof_ac", [AC, "breaker tripped"]);
    expect(tripped.directive).toMatchObject({ kind: "ask_step", step_id: "breaker_reset" });
    expect(then(tripped.state, "trips again").state.mode).toBe("authorization");
    expect(then(tripped.state, "it holds").directive).toMatchObject({ kind: "ask_step", step_id: "thermostat" });
  });
});

describe("issue 36: a technician's wording (units, ratings, corrections, bypass, symptoms)", () => {
  const AC_AT_COMPRESSOR = [AC, "power is on", "thermostat calls", "fan runs"];

  it.each(["alright, waiting the full 5 minutes", "ok just waiting 3 min", "waiting for the delay, 3 minutes"])(
    'a wait with a duration announces it: "%s" records nothing',
    (message) => {
      const turn = run("roof_ac", [...AC_AT_COMPRESSOR, message]);
      expect(turn.state.evidence).not.toHaveProperty("compressor");
      expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "compressor" });
    },
  );

  it('"wait" that corrects is still a correction: "wait, 12.4 V at the pump" after "0V"', () => {
    const turn = run("water_pump", [PUMP, "fuse is fine", "0V", "wait, 12.4 V at the pump"]);
    expect(turn.state.evidence.pump_voltage).toBe("ok");
    expect(turn.state.active_step).toBe("pump_runs");
  });

  it('a correction marker before an announcement still announces: "no wait, ill measure it first"', () => {
    const turn = run("water_pump", [PUMP, "fuse is fine", "no wait, ill measure it first"]);
    expect(turn.state.evidence).toEqual({ fuse: "ok" });
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
  });

  it.each(["wait no, the compressor did kick on after a while", "wait no, the compressor does start, just slow"])(
    '"wait no" corrects, it is no "no" to the step asked: "%s"',
    (message) => {
      const atCap = run("roof_ac", [...AC_AT_COMPRESSOR, "compressor won't start"]);
      expect(atCap.directive).toMatchObject({ kind: "ask_step", step_id: "capacitor" });
      const turn = then(atCap.state, message);
      expect(turn.state.evidence.compressor).toBe("runs");
      expect(turn.state.evidence).not.toHaveProperty("capacitor");
    },
  );

  it.each([
    ["measured 41 mfd, rated 45", "bad"],
    ["cap shows 44 uf on a 45 rated part", "good"],
    ["rated at 45, reading 47", "good"],
    ["30 on a cap rated 45", "bad"],
  ])('a reading against the rating stated with it: "%s" → capacitor %s', (message, value) => {
    const turn = run("roof_ac", [...AC_AT_COMPRESSOR, "compressor won't start", message]);
    expect(turn.state.evidence.capacitor).toBe(value);
  });

  it("a capacitor reading with no rating stated records nothing", () => {
    const turn = run("roof_ac", [...AC_AT_COMPRESSOR, "compressor won't start", "cap reads 40"]);
    expect(turn.state.evidence).not.toHaveProperty("capacitor");
  });

  it('a rating is no meter reading of another step ("30 amp rated breaker, 121 at the unit")', () => {
    const turn = run("roof_ac", [AC, "30 rated breaker, 121 at the unit"]);
    expect(turn.state.evidence.ac_power).toBe("ok");
  });

  it("a correction worded with the bypass is the direct test's, not the in-circuit motor step's", () => {
    const atDirect = run("slide_out", [SLIDE, "12.6", "switch works", "motor doesn't run"]);
    expect(atDirect.directive).toMatchObject({ kind: "ask_step", step_id: "motor_direct" });
    const dead = then(atDirect.state, "nothing on direct 12v");
    expect(dead.state.evidence.motor_direct).toBe("dead");
    const turn = then(dead.state, "actually the clamp was loose, jumpered again and the slide motor runs");
    expect(turn.state.evidence.motor_direct).toBe("runs");
    expect(turn.state.evidence.slide_motor).toBe("no");
  });

  it('words that answered the step asked are no other step\'s answer ("no air out of the vents")', () => {
    const turn = run("roof_ac", [AC, "power is on", "thermostat calls", "blower is dead, no air out of the vents"]);
    expect(turn.state.evidence.ac_fan).toBe("no");
    expect(turn.state.evidence).not.toHaveProperty("airflow");
  });

  it('after "but", a later clause is the outcome too ("runs and pumps water but never quits, keeps kicking on")', () => {
    const turn = run("water_pump", [
      PUMP,
      "fuse is fine",
      "12.4 V",
      "it runs and pumps water but it never quits, keeps kicking on",
    ]);
    expect(turn.state.evidence.pump_runs).toBe("cycles");
    expect(turn.state.evidence).not.toHaveProperty("pressure_switch");
  });

  it.each(["the water pump is not running", "customer says the pump turns on by itself overnight"])(
    'a pump symptom in the complaint is no finding: "%s"',
    (complaint) => {
      const turn = run("water_pump", [complaint]);
      expect(turn.state.evidence).toEqual({});
      expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "fuse" });
    },
  );
});
