// German ("de") procedure mode: the language pack languages/de.json and the catalog translation
// catalogs/rv-service.de.json. A technician who types German (umlauts or not) is detected, gets
// the step texts, options, recorded labels and the report's copy in German, and the offline
// model's wording from the German pack; their answers are recorded and a non-answer records
// nothing. One conversation per system, then the tables themselves at every step.
import { describe, expect, it } from "vitest";
import DE from "../catalogs/rv-service.de.json";
import {
  catalogLanguages,
  classifyMessage,
  detectLanguage,
  fillTemplate,
  getSystem,
  LANGUAGE_PACKS,
  matchingSystem,
  RV_SERVICE_CATALOG,
  startContext,
  type TContextTurn,
  type TReport,
} from "../src/index";
import { drive, last } from "./drive";

const catalog = RV_SERVICE_CATALOG;
const GERMAN = LANGUAGE_PACKS.get("de");

type TStepText = {
  question: string;
  answers: Record<string, { label: string; patterns: string[]; cause?: string }>;
};

function stepText(systemId: string, stepId: string): TStepText {
  const system = (DE.systems as Record<string, { steps: Record<string, TStepText> }>)[systemId];
  const step = system?.steps[stepId];
  if (step === undefined) throw new Error(`no German text for ${systemId}.${stepId}`);
  return step;
}

const question = (systemId: string, stepId: string) => stepText(systemId, stepId).question;

function labelOf(systemId: string, stepId: string, answerId: string): string {
  const answer = stepText(systemId, stepId).answers[answerId];
  if (answer === undefined) throw new Error(`no German answer ${systemId}.${stepId}.${answerId}`);
  return answer.label;
}

function causeOf(systemId: string, stepId: string, answerId: string): string | undefined {
  return stepText(systemId, stepId).answers[answerId]?.cause;
}

function reportOf(turn: TContextTurn | undefined): TReport {
  const report = turn?.state.report ?? null;
  if (report === null) throw new Error(`no report (mode ${turn?.state.mode}, directive ${turn?.directive.kind})`);
  return report;
}

/** A reply of the German pack with its placeholders filled, as the offline model words it. */
function say(key: string, values: Record<string, string | number> = {}): string {
  const template = GERMAN?.replies[key];
  if (template === undefined) throw new Error(`no German reply ${key}`);
  return fillTemplate(template, values);
}

/** Every turn is German: the state, the directive and the texts the technician reads. */
function expectGerman(turns: readonly TContextTurn[]): void {
  for (const turn of turns) {
    expect(turn.state.language).toBe("de");
    expect(turn.directive.language).toBe("de");
  }
}

describe("German is a shipped language", () => {
  it("has a language pack with every reply of the English one, and the catalog speaks it", () => {
    expect(GERMAN?.name).toBe("Deutsch");
    const english = LANGUAGE_PACKS.get("en");
    expect(Object.keys(GERMAN?.replies ?? {}).sort()).toEqual(Object.keys(english?.replies ?? {}).sort());
    // translated, not copied
    for (const key of ["start", "recorded", "non_answer", "authorize_question", "report_title"])
      expect(GERMAN?.replies[key]).not.toBe(english?.replies[key]);
    expect(catalogLanguages(catalog)).toContain("de");
    expect(catalog.translations?.map((t) => t.language)).toContain("de");
  });

  it.each([
    "die wasserpumpe läuft nicht",
    "Pumpe lauft nicht, keine Ahnung warum",
    "sicherung ist durchgebrannt",
    "die klima kühlt nicht mehr",
    "heizung geht nicht, kein zündfunke",
    "der slide fährt nicht aus",
    "weiß nicht",
  ])('"%s" is detected as German', (message) => {
    expect(detectLanguage(message)).toBe("de");
  });

  it.each([
    ["water_pump", "took an hour"],
    ["water_pump", "No idea, man."],
    ["furnace", "I smell gas at the furnace"],
    ["water_pump", "la bomba de agua no funciona"],
  ])("%s: %s is not taken for German", (system, message) => {
    expect(last(drive(system, [message])).state.language).not.toBe("de");
  });
});

describe("German conversations, one per system", () => {
  it("water pump: a blown fuse that blows again and again without the pump, in German throughout", () => {
    const turns = drive("water_pump", [
      "die wasserpumpe läuft nicht",
      "weiß nicht",
      "sicherung ist durchgebrannt",
      "brennt sofort wieder durch",
      "ja, brennt trotzdem durch",
      "muss erst den kunden fragen",
      "jawohl",
    ]);
    expectGerman(turns);
    const [complaint, dunno, fuse, recheck, short, deferral, yes] = turns;
    expect(complaint?.directive).toMatchObject({ kind: "ask_step", step_id: "fuse" });
    expect(complaint?.directive.registry.question).toBe(question("water_pump", "fuse"));
    expect(complaint?.directive.options).toEqual([
      labelOf("water_pump", "fuse", "ok"),
      labelOf("water_pump", "fuse", "blown"),
    ]);
    // a non-answer records nothing, keeps the step and is worded in German
    expect(dunno?.directive).toMatchObject({ kind: "non_answer", step_id: "fuse" });
    expect(dunno?.state.evidence).toEqual({});
    expect(dunno?.directive.not_checked).toMatchObject({ reason: "unknown", passed: false });
    expect(dunno?.directive.not_checked?.question).toBe(question("water_pump", "fuse"));
    expect(say("non_answer", { reason: say("reason_unknown") })).toBe(
      "Für diesen Schritt wird nichts notiert (die Antwort ist nicht bekannt).",
    );
    expect(fuse?.state.evidence).toEqual({ fuse: "blown" });
    expect(fuse?.directive.recorded).toBe(labelOf("water_pump", "fuse", "blown"));
    expect(fuse?.directive.registry.question).toBe(question("water_pump", "fuse_recheck"));
    expect(recheck?.state.evidence).toEqual({ fuse: "blown", fuse_recheck: "blows" });
    expect(recheck?.directive.registry.question).toBe(question("water_pump", "short_check"));
    expect(short?.directive.kind).toBe("request_authorization");
    expect(short?.state.evidence).toEqual({ fuse: "blown", fuse_recheck: "blows", short_check: "wiring" });
    expect(deferral?.directive).toMatchObject({ kind: "authorization_pending", pending: "deferral" });
    expect(deferral?.state.report).toBeNull();
    const report = reportOf(yes);
    expect(report.authorized).toBe(true);
    expect(report.cause).toMatch(/^Short circuit in the pump wiring/);
    expect(report.translation?.language).toBe("de");
    expect(report.translation?.cause).toBe(causeOf("water_pump", "short_check", "wiring"));
    expect(report.translation?.steps_performed.map((s) => s.finding)).toEqual([
      labelOf("water_pump", "fuse", "blown"),
      labelOf("water_pump", "fuse_recheck", "blows"),
      labelOf("water_pump", "short_check", "wiring"),
    ]);
  });

  it("water pump: readings with a decimal comma and in words, no tool, a cost question and a condition", () => {
    const turns = drive("water_pump", [
      "pumpe geht nicht",
      "kein messgerät dabei",
      "sicherung ok",
      "zwölf komma vier volt an der pumpe",
      "nein, pumpe läuft nicht, kein mucks",
      "ja, aber nur wenn garantie",
      "was kostet das?",
      "ja",
    ]);
    expectGerman(turns);
    expect(turns[1]?.directive.kind).toBe("non_answer");
    expect(turns[1]?.state.evidence).toEqual({});
    expect(turns[2]?.state.evidence).toEqual({ fuse: "ok" });
    expect(turns[3]?.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok" });
    expect(turns[4]?.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok", pump_runs: "no" });
    expect(turns[4]?.directive.kind).toBe("request_authorization");
    expect(turns[5]?.directive).toMatchObject({ kind: "authorization_pending", pending: "conditional" });
    expect(turns[6]?.directive).toMatchObject({ kind: "authorization_pending", pending: "cost" });
    expect(reportOf(turns[7]).translation?.cause).toBe(causeOf("water_pump", "pump_runs", "no"));
  });

  it("roof A/C: a compressor that only hums and a bulged capacitor", () => {
    const turns = drive("roof_ac", [
      "die klima kühlt nicht",
      "automat ist drin, landstrom ist da",
      "keine ahnung",
      "ja, fordert kühlung",
      "gebläse läuft",
      "brummt nur, springt nicht",
      "kondensator ist aufgebläht",
      "ja",
    ]);
    expectGerman(turns);
    expect(turns[1]?.state.evidence).toEqual({ ac_power: "ok" });
    expect(turns[1]?.directive.registry.question).toBe(question("roof_ac", "thermostat"));
    expect(turns[2]?.directive.kind).toBe("non_answer");
    expect(turns[2]?.state.evidence).toEqual({ ac_power: "ok" });
    expect(turns[3]?.state.evidence).toMatchObject({ thermostat_cool: "calls" });
    expect(turns[4]?.state.evidence).toMatchObject({ ac_fan: "runs" });
    expect(turns[4]?.directive.recorded).toBe(labelOf("roof_ac", "fan", "runs"));
    expect(turns[5]?.state.evidence).toMatchObject({ compressor: "no_start" });
    expect(turns[5]?.directive.registry.question).toBe(question("roof_ac", "capacitor"));
    expect(turns[6]?.state.evidence).toMatchObject({ capacitor: "bad" });
    expect(turns[6]?.directive.kind).toBe("request_authorization");
    const report = reportOf(turns[7]);
    expect(report.authorized).toBe(true);
    expect(report.translation?.language).toBe("de");
    expect(report.translation?.cause).toBe(causeOf("roof_ac", "capacitor", "bad"));
  });

  it("roof A/C: a breaker that trips again after a reset", () => {
    const turns = drive("roof_ac", [
      "klimaanlage geht nicht",
      "automat hat ausgelöst",
      "automat zurückgesetzt, fliegt sofort wieder raus",
      "nein",
    ]);
    expectGerman(turns);
    expect(turns[1]?.state.evidence).toEqual({ ac_power: "tripped" });
    expect(turns[1]?.directive.registry.question).toBe(question("roof_ac", "breaker_reset"));
    expect(turns[2]?.state.evidence).toEqual({ ac_power: "tripped", breaker_reset: "trips" });
    const report = reportOf(turns[3]);
    expect(report.authorized).toBe(false);
    expect(report.translation?.cause).toBe(causeOf("roof_ac", "breaker_reset", "trips"));
  });

  it("furnace: no spark, with a sail switch that has continuity", () => {
    const turns = drive("furnace", [
      "die heizung geht nicht",
      "herd brennt, blaue flamme",
      "noch nicht geprüft",
      "thermostat klickt",
      "gebläse läuft",
      "schalter hat durchgang",
      "kein zündfunke",
      "ja, mach",
    ]);
    expectGerman(turns);
    expect(turns[1]?.state.evidence).toEqual({ lp: "ok" });
    expect(turns[2]?.directive).toMatchObject({ kind: "non_answer", step_id: "thermostat" });
    expect(turns[2]?.directive.not_checked?.reason).toBe("not_yet");
    expect(turns[2]?.state.evidence).toEqual({ lp: "ok" });
    expect(turns[3]?.state.evidence).toMatchObject({ thermostat_heat: "calls" });
    expect(turns[4]?.state.evidence).toMatchObject({ blower: "runs" });
    expect(turns[5]?.state.evidence).toMatchObject({ sail_switch: "closed" });
    expect(turns[5]?.directive.registry.question).toBe(question("furnace", "ignition"));
    expect(turns[6]?.state.evidence).toMatchObject({ ignition: "no_spark" });
    expect(turns[6]?.directive.kind).toBe("request_authorization");
    const report = reportOf(turns[7]);
    expect(report.authorized).toBe(true);
    expect(report.translation?.cause).toBe(causeOf("furnace", "ignition", "no_spark"));
  });

  it("furnace: a gas smell stops the case with the German instruction until the leak test passed", () => {
    const turns = drive("furnace", ["heizung zündet nicht", "es riecht nach gas", "dichtheitsprüfung bestanden"]);
    expectGerman(turns);
    expect(turns[1]?.state.mode).toBe("safety_stop");
    expect(turns[1]?.directive.safety?.instruction).toMatch(/^Wenn jemand Gas riecht/);
    expect(turns[2]?.state.mode).toBe("diagnostic");
    expect(turns[2]?.directive).toMatchObject({ kind: "ask_step", step_id: "lp_level" });
  });

  it("slide-out: 12,4 V, a motor that does not run from the switch but runs on direct 12 V", () => {
    const turns = drive("slide_out", [
      "der slide fährt nicht aus",
      "batterie 12,4 volt",
      "schalter gibt 12v",
      "weiß nicht",
      "motor läuft nicht",
      "mit 12v direkt an der batterie läuft er",
      "ja",
    ]);
    expectGerman(turns);
    expect(turns[1]?.state.evidence).toEqual({ battery: "ok" });
    expect(turns[2]?.state.evidence).toEqual({ battery: "ok", slide_switch: "ok" });
    expect(turns[3]?.directive).toMatchObject({ kind: "non_answer", step_id: "motor_runs" });
    expect(turns[3]?.state.evidence).toEqual({ battery: "ok", slide_switch: "ok" });
    expect(turns[4]?.state.evidence).toMatchObject({ slide_motor: "no" });
    expect(turns[4]?.directive.registry.question).toBe(question("slide_out", "motor_direct"));
    expect(turns[5]?.state.evidence).toMatchObject({ motor_direct: "runs" });
    expect(turns[5]?.directive.kind).toBe("request_authorization");
    const report = reportOf(turns[6]);
    expect(report.correction).toMatch(/^Do not replace the motor/);
    expect(report.translation?.correction).toMatch(/^Den Motor nicht tauschen/);
  });

  it("slide-out: the report's copy cites the doctrine in German", () => {
    const report = reportOf(
      last(
        drive("slide_out", [
          "slide fährt nicht",
          "batterie 12,6",
          "schalter funktioniert",
          "motor läuft aber bewegt sich nicht",
          "nichts blockiert",
          "motor läuft mit 12v direkt",
          "bewegt sich von hand",
          "ja",
        ]),
      ),
    );
    expect(report.evidence.override).toBe("moves");
    expect(report.translation?.doctrine).toEqual([
      { id: "motor_good_on_direct_12v", rule: expect.stringMatching(/^Ein Motor, der an direkten 12 V läuft/) },
    ]);
  });

  it("slide-out: a low battery, then a remeasurement corrects it", () => {
    const turns = drive("slide_out", ["slide klemmt", "batt 12,1 v", "hab mich vermessen, batterie 12,7"]);
    expectGerman(turns);
    expect(turns[1]?.state.evidence).toEqual({ battery: "low" });
    expect(turns[2]?.directive.kind).toBe("replan");
    expect(turns[2]?.state.evidence).toEqual({ battery: "ok" });
  });

  it("a correction, a skip and labor in German", () => {
    const turns = drive("water_pump", [
      "pumpe springt nicht",
      "sicherung ist durch",
      "moment falsch, sicherung ist ok",
      "überspringen",
      "arbeitszeit 45 minuten",
    ]);
    expectGerman(turns);
    expect(turns[2]?.directive.kind).toBe("replan");
    expect(turns[2]?.state.evidence).toEqual({ fuse: "ok" });
    expect(turns[3]?.state.not_checked.voltage_at_pump).toMatchObject({ passed: true });
    expect(turns[4]?.state.labor.draft_minutes).toBe(45);
  });
});

describe("the German tables at every step", () => {
  const systems = Object.keys(DE.systems);

  it("every German answer pattern answers its own step", () => {
    const wrong: string[] = [];
    for (const systemId of systems) {
      const system = getSystem(catalog, systemId);
      if (system === null) throw new Error(`no system ${systemId}`);
      const matching = matchingSystem(catalog, system);
      for (const step of system.procedure.steps) {
        const state = { ...startContext(catalog, systemId), active_step: step.id };
        for (const [answerId, answer] of Object.entries(stepText(systemId, step.id).answers))
          for (const pattern of answer.patterns) {
            const c = classifyMessage(matching, state, pattern);
            if (c.answer?.id !== answerId)
              wrong.push(`${systemId}.${step.id} "${pattern}" → ${c.answer?.id ?? c.intent}`);
          }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("every German non-answer records nothing at every step of every system", () => {
    const missed: string[] = [];
    for (const systemId of systems) {
      const system = getSystem(catalog, systemId);
      if (system === null) throw new Error(`no system ${systemId}`);
      const matching = matchingSystem(catalog, system);
      for (const step of system.procedure.steps) {
        const state = { ...startContext(catalog, systemId), active_step: step.id };
        for (const [reason, phrases] of Object.entries(GERMAN?.non_answers ?? {}))
          for (const phrase of phrases) {
            const c = classifyMessage(matching, state, phrase);
            if (c.nonAnswer === null || c.answer !== null)
              missed.push(`${systemId}.${step.id} ${reason} "${phrase}" → ${c.intent}`);
          }
      }
    }
    expect(missed).toEqual([]);
  });
});
