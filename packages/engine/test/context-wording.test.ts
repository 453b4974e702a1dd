// Issue 36: wording from the blind sets ph and pi (each scored once held out, then tuned on):
// what a bypass reaches, a report request beside an "ok", a rating on a label, and a number that
// is the weather rather than the reading the step asks for.
import { describe, expect, it } from "vitest";
import { drive, last } from "./drive";

const AC = ["ac wont come on at all", "got 121 at the roof unit, breaker on"];

/** After `start`, `message` leaves the findings as they were; the turn it made. */
function expectNothingRecorded(system: string, start: string[], message: string) {
  const before = last(drive(system, start)).state.evidence;
  const turn = last(drive(system, [...start, message]));
  expect(turn.state.evidence).toEqual(before);
  return turn;
}

describe("a bypass tests what lies past the part it goes around", () => {
  it('"jumped R to G at the stat plug and the blower comes on": the blower runs, the thermostat is untested', () => {
    const turn = last(drive("roof_ac", [...AC, "jumped R to G at the stat plug and the blower comes on"]));
    expect(turn.state.evidence).toEqual({ ac_power: "ok", ac_fan: "runs" });
    expect(turn.state.active_step).toBe("thermostat");
  });

  it('"jumpered the motor off the battery, spins fine" at the motor step is the direct test, not the motor step', () => {
    const messages = [
      "bedroom slide dead",
      "batt 12.7 engine off",
      "controller clicks when i push in or out",
      "jumpered the motor direct off the battery w my leads, spins fine",
    ];
    const turn = last(drive("slide_out", messages));
    expect(turn.state.evidence.slide_motor).toBeUndefined();
    expect(turn.state.active_step).toBe("motor_runs");
    // the direct test counts once the motor step says it applies
    const after = last(drive("slide_out", [...messages, "off the switch? nah motor doesnt turn"]));
    expect(after.state.evidence).toMatchObject({ slide_motor: "no", motor_direct: "runs" });
  });
});

describe("what a message says beside its numbers", () => {
  it('"ok give me the report" answers nothing: the "ok" belongs to the request', () => {
    const turn = last(drive("water_pump", ["water pump not working", "fuse ok", "ok give me the report"]));
    expect(turn.state.evidence).toEqual({ fuse: "ok" });
  });

  it.each([
    ["run cap tests 38.9, label says 40", "good"],
    ["cap reads 30.1, label says 45", "bad"],
  ])('%j: the number after "label says" is the rating', (message, answer) => {
    const turn = last(drive("roof_ac", [...AC, "stat calls", "fan runs", "comp wont start", message]));
    expect(turn.state.evidence.capacitor).toBe(answer);
  });

  it('"110 deg on this roof man" is the weather, not the supply-to-return split', () => {
    const AIRFLOW = ["ac blows warm", "120 at the unit", "stat calls", "fan runs, compressor running too"];
    expect(last(drive("roof_ac", AIRFLOW)).state.active_step).toBe("airflow");
    const turn = last(drive("roof_ac", [...AIRFLOW, "110 deg on this roof man"]));
    expect(turn.state.evidence.airflow).toBeUndefined();
    expect(turn.state.active_step).toBe("airflow");
    const split = last(drive("roof_ac", [...AIRFLOW, "split is 18 deg"]));
    expect(split.state.evidence.airflow).toBe("good");
  });
});

describe("a specific word beats a generic one, and a misread is corrected", () => {
  it('"yep blown, black on the inside" at "is the fuse intact?" is the fuse blown, not a tie', () => {
    const turn = last(drive("water_pump", ["pump keeps poppin fuses", "yep blown, black on the inside"]));
    expect(turn.state.evidence.fuse).toBe("blown");
  });

  it('"sorry i read wrong, is 12,8" after the diagnosis ended corrects the battery reading', () => {
    const turns = drive("slide_out", ["the slide room is not coming out", "battery is 12,3"]);
    expect(last(turns).state.evidence.battery).toBe("low");
    const turn = last(
      drive("slide_out", ["the slide room is not coming out", "battery is 12,3", "sorry i read wrong, is 12,8"]),
    );
    expect(turn.state.evidence.battery).toBe("ok");
    expect(turn.state.mode).toBe("diagnostic");
  });
});

describe("a split read from two temperatures", () => {
  const AIRFLOW = ["ac blows warm", "120 at the unit", "stat calls", "fan runs, compressor running too"];
  it.each([
    ["return 80 supply 71", "weak"],
    ["filters clean, 70 return 52 supply", "good"],
    ["supply 64 return 80", "good"],
  ])("%j at the airflow step is the return less the supply", (message, answer) => {
    expect(last(drive("roof_ac", [...AIRFLOW, message])).state.evidence.airflow).toBe(answer);
  });

  it('"return 80 supply 71, filters full of dog hair": of two faults, the words name the cause', () => {
    const turn = last(
      drive("roof_ac", [...AIRFLOW, "return 80 supply 71, and the filters are nasty full of dog hair"]),
    );
    expect(turn.state.evidence.airflow).toBe("dirty_filter");
  });
});

describe("permission is no finding", () => {
  const CAPACITOR = ["ac blows warm", "120 at the unit", "stat calls", "fan runs", "comp wont start"];
  it('"yes go ahead" at the capacitor step grants permission and records nothing', () => {
    const turns = drive("roof_ac", CAPACITOR);
    expect(last(turns).state.active_step).toBe("capacitor");
    const turn = last(drive("roof_ac", [...CAPACITOR, "yes go ahead"]));
    expect(turn.state.evidence.capacitor).toBeUndefined();
    expect(turn.state.active_step).toBe("capacitor");
    expect(last(drive("roof_ac", [...CAPACITOR, "yes"])).state.evidence.capacitor).toBe("good");
  });
});

// Issue 36: wording from the blind set pk (scored once held out, then tuned on).
describe("meters, texting shorthand and lockouts", () => {
  const CAP = [...AC, "stat calls", "fan runs", "comp hums n trips"];

  it.each([
    ["cap 35+5 uF rated, reading 34.2 / 4.8", "good"],
    ["45/5 rated, reads 44 and 3.1", "bad"],
    ["rated 45/5, reads 31 on the herm side", "bad"],
    ["rated 45/5, reads 4.9 on the fan side", "good"],
  ])("%j: each side of a dual capacitor is read against its own rating", (message, answer) => {
    expect(last(drive("roof_ac", [...CAP, message])).state.evidence.capacitor).toBe(answer);
  });

  const SAIL = ["furnace wont light", "lp ok", "stat calls", "blower runs"];

  it.each([
    ["Sail switch 0.2Ω", "closed"],
    ["sail sw 0.0 ohm at full speed", "closed"],
    ["sail sw OL w/ blower full spd", "open"],
  ])("%j: an ohmmeter reading answers the sail switch", (message, answer) => {
    expect(last(drive("furnace", [...SAIL, message])).state.evidence.sail_switch).toBe(answer);
  });

  it('"i checked it 3 times" is a count, not a reading of 3 ohms', () => {
    const turn = last(drive("furnace", [...SAIL, "sail switch closed, i checked it 3 times"]));
    expect(turn.state.evidence.sail_switch).toBe("closed");
  });

  it('"fuse gd", "blwr on": texting shorthand reads as the word it stands for', () => {
    expect(last(drive("water_pump", ["pump wont run", "fuse gd"])).state.evidence.fuse).toBe("ok");
    const turn = last(drive("furnace", ["furn no heat", "lp ok", "stat calls", "blwr on"]));
    expect(turn.state.evidence.blower).toBe("runs");
  });

  it("a lockout follows both failures: what comes before it says which", () => {
    const lit = [...SAIL, "sail switch closed"];
    const never = last(
      drive("furnace", [...lit, "no click at the vent, no spark, never lights, 3 tries then lockout"]),
    );
    expect(never.state.evidence.ignition).toBe("no_spark");
    const out = last(drive("furnace", [...lit, "igniter sparks, lights maybe 5 sec then out, 3 tries then lockout"]));
    expect(out.state.evidence.ignition).toBe("drops_out");
  });
});

describe("going on without a step", () => {
  it('"no voltmeter" at the battery, then the switch: the battery is passed as not checked and the flow follows', () => {
    const turn = last(
      drive("slide_out", [
        "slide only goes halfway out then stops",
        "I don't have a voltmeter, but the lights inside are bright",
        "when I press the switch I can hear a click behind the wall panel",
        "it moves out a little bit then kind of groans and stops, like its straining",
      ]),
    );
    expect(turn.state.evidence).toEqual({ slide_switch: "ok", slide_motor: "stalls" });
    expect(turn.state.not_checked.battery).toMatchObject({ reason: "no_tool", passed: true });
    expect(turn.state.active_step).toBe("binding");
  });

  it('"motor direct 12v off batt runs strong": the supply a bypass names is no battery reading', () => {
    const turn = last(
      drive("slide_out", [
        "slide goes out part way then stalls",
        "batt 12.7, sw clicks controller fine",
        "yea moves a foot n then bogs down n quits",
        "motor direct 12v off batt runs strong",
      ]),
    );
    expect(turn.state.evidence.battery).toBe("ok");
  });

  it('"batt 12.5ish" is a reading of 12.5', () => {
    expect(last(drive("slide_out", ["slide dead", "batt 12.5ish"])).state.evidence.battery).toBe("ok");
  });
});

describe("starting over", () => {
  it('"hold on wrong RO, restart this one": what was recorded is dropped, the complaint read again', () => {
    const turn = last(
      drive("water_pump", ["no water from pump, dead silent", "fuse blown", "hold on wrong RO, restart this one"]),
    );
    expect(turn.state.evidence).toEqual({ pump_runs: "no" });
    expect(turn.state.active_step).toBe("fuse");
    expect(turn.events).toContainEqual({ type: "restart", detail: { dropped: 2, step: "fuse" } });
    const next = last(
      drive("water_pump", ["no water from pump, dead silent", "fuse blown", "start over", "fuse good"]),
    );
    expect(next.state.evidence).toEqual({ pump_runs: "no", fuse: "ok" });
  });

  it('"stops then restarts" is an answer, not a command', () => {
    const turn = last(drive("water_pump", ["pump keeps cycling", "fuse ok", "12.4 at pump", "stops then restarts"]));
    expect(turn.events.some((e) => e.type === "restart")).toBe(false);
  });

  it('after the report, "start over" is no note on a new revision', () => {
    const report = ["water pump not running", "fuse ok", "12 volts", "the pump is dead", "yes, go ahead"];
    const done = last(drive("water_pump", report));
    expect(done.state.mode).toBe("final_report");
    const turn = last(drive("water_pump", [...report, "start over"]));
    expect(turn.state.report?.revision).toBe(done.state.report?.revision);
    expect(turn.state.report?.notes).toEqual([]);
  });
});

describe("the report holds what was stated off the path", () => {
  it('"jumped the motor straight to the battery, runs fine", then a dead switch: the report lists the motor test', () => {
    const turn = last(
      drive("slide_out", [
        "bedroom slide will not come in, nothing happens when they push the switch",
        "Batteries are at 12.7 with everything off",
        "Unplugged the motor and jumped it straight to the battery, it runs fine both directions",
        "Switch has 12 volts coming in but nothing out on either side",
        "yes go ahead",
      ]),
    );
    expect(turn.state.report?.evidence).toMatchObject({ battery: "ok", slide_switch: "bad", motor_direct: "runs" });
    expect(turn.state.report?.steps_performed.map((s) => s.step)).toEqual(["battery", "slide_switch", "motor_direct"]);
    expect(turn.state.evidence.motor_direct).toBeUndefined();
  });
});

describe("whose words", () => {
  it('"fan runs, compressor kicks on": the compressor takes "kicks on", though the fan is asked', () => {
    const turn = last(drive("roof_ac", [...AC, "stat calls", "fan runs, compressor kicks on"]));
    expect(turn.state.evidence).toMatchObject({ ac_fan: "runs", compressor: "runs" });
  });

  it('"jumped R to Y, comp kicks on": past the thermostat the compressor runs', () => {
    const messages = [
      ...AC.slice(0, 1),
      "120 at unit bkr on",
      "jumped R n G at the ceiling assy, blower comes on strong",
    ];
    const turn = last(drive("roof_ac", [...messages, "jumped R to Y, comp kicks on"]));
    expect(turn.state.evidence).toMatchObject({ ac_fan: "runs", compressor: "runs" });
    expect(turn.state.evidence.thermostat_cool).toBeUndefined();
  });

  it('"closed every tap, pump just keeps going" at the pressure switch: the pump step done is context', () => {
    const turn = last(
      drive("water_pump", [
        "pump runs nonstop, batteries dead by morning",
        "fuse fine",
        "12.6",
        "yeah runs, waters fine, it just never quits",
        "closed every tap, pump just keeps going and going",
      ]),
    );
    expect(turn.state.evidence.pressure_switch).toBe("fails");
  });

  it('"motor: nothing": a label before a colon and its value are one statement', () => {
    const turn = last(drive("slide_out", ["slide dead", "batt 12.6", "switch: 12.6 in / 12.5 out", "motor: nothing"]));
    expect(turn.state.evidence).toMatchObject({ slide_switch: "ok", slide_motor: "no" });
  });
});

// Issue 36: wording from the blind set pl (scored once held out, then tuned on).
describe("what pl taught", () => {
  it('"anyone know a good taco spot near exit 42" at the pump voltage: 42 is no 12 V reading', () => {
    const turn = last(
      drive("water_pump", [
        "pump quit",
        "breaker for the pump was tripped",
        "reset it, breaker holds now",
        "anyone know a good taco spot near exit 42",
      ]),
    );
    expect(turn.state.evidence.pump_voltage).toBeUndefined();
  });

  it('"cant get the probes in there to check the switch output, skip": the echo of the question answers nothing', () => {
    const turn = last(
      drive("water_pump", [
        "water pump wont come on",
        "fuse ok",
        "zero at pump plug w switch on. 0.0",
        "cant get the probes in there to check the switch output, skip",
      ]),
    );
    expect(turn.state.evidence.pump_switch).toBeUndefined();
    expect(turn.state.not_checked.pump_switch).toMatchObject({ passed: true });
  });

  it('"tstat calls for cool now" after the breaker reset: the repair closes the case and the thermostat finding is kept', () => {
    const turn = last(
      drive("roof_ac", [
        "roof air wont come on",
        "breaker on, 120 at the outlet",
        "thermostat wont call, no click nothin",
        "hold up, the ac breaker actually was tripped",
        "reset it, holds now",
        "tstat calls for cool now, clicks",
      ]),
    );
    expect(turn.state.report?.resolution).toBe("fixed_by_technician");
    expect(turn.state.evidence).toMatchObject({
      ac_power: "tripped",
      breaker_reset: "holds",
      thermostat_cool: "calls",
    });
  });

  it('"Sieb ist sauber, aber zieht Luft": a later clause that turns at "but" is what stands', () => {
    const german = [
      "Wasserpumpe läuft nicht richtig, kaum Wasser am Hahn",
      "Sicherung ist ok",
      "12,4 am Pumpenstecker",
      "Tank ist voll",
    ];
    expect(last(drive("water_pump", [...german, "Sieb ist sauber, aber zieht Luft"])).state.evidence.strainer).toBe(
      "air_leak",
    );
  });

  it('"motor runs straight off the battery": the battery is where the bypass takes power, not the part tested', () => {
    const slide = [
      "slide wont go out",
      "batt 12.6",
      "switch has 12 in and out when i push it",
      "motor doesnt make a sound",
    ];
    const turn = last(drive("slide_out", [...slide, "motor runs straight off the battery"]));
    expect(turn.state.evidence).toMatchObject({ battery: "ok", motor_direct: "runs" });
  });
});

// Issue 36: wording from the blind set pm (scored once held out, then tuned on).
describe("what pm taught", () => {
  it.each([
    ["water_pump", "Proceeding to leak inspection."],
    ["furnace", "Awaiting full heat cycle."],
    ["slide_out", "Applying direct 12 VDC to motor via fused leads."],
  ])("%s: %j announces work: nothing is recorded", (system, message) => {
    const turn = expectNothingRecorded(system, ["it does not work"], message);
    expect(turn.state.pending_findings).toEqual({});
  });

  it('"cap reads forty four point eight rated forty five": a rating said in words', () => {
    const turn = last(
      drive("roof_ac", [
        ...AC,
        "stat calls",
        "fan runs",
        "comp hums n trips",
        "cap reads forty four point eight rated forty five",
      ]),
    );
    expect(turn.state.evidence.capacitor).toBe("good");
  });

  it('"like i said the gas is fine, the stove lights" at the ignition step: said again, it is about the LP', () => {
    const furnace = [
      "furnace short cycles",
      "propane full, stove lights",
      "thermostat calls for heat",
      "blower runs",
      "sail switch closed",
    ];
    const turn = last(drive("furnace", [...furnace, "like i said the gas is fine, the stove lights"]));
    expect(turn.state.evidence.ignition).toBeUndefined();
  });
});

describe("interjections", () => {
  it('"ugh start over i mixed up my notes": an interjection before a command is filler', () => {
    const turn = last(drive("water_pump", ["pump wont run", "fuse ok", "ugh start over i mixed up my notes"]));
    expect(turn.events.some((e) => e.type === "restart")).toBe(true);
    expect(turn.state.evidence).toEqual({});
  });
});

// Issue 36: wording from the blind set pn (scored once held out, then tuned on).
describe("what pn taught", () => {
  it('"fuse ✓", "blower ✓": a check mark is "ok"', () => {
    expect(last(drive("water_pump", ["pump wont run", "fuse ✓"])).state.evidence.fuse).toBe("ok");
    expect(last(drive("furnace", ["furnace no heat", "LP ✓", "stat calls", "blower ✓"])).state.evidence).toMatchObject({
      lp: "ok",
      blower: "runs",
    });
  });

  it.each([
    ["1) fuse ok 2) 12.4v at pump 3) pump runs, sputters, spits air", { fuse: "ok", pump_voltage: "ok" }],
    ["1. fuse ok 2. 12.6 at the pump", { fuse: "ok", pump_voltage: "ok" }],
  ])("%j: a numbered list's numbers are no readings", (message, evidence) => {
    expect(last(drive("water_pump", ["pump acting up", message])).state.evidence).toMatchObject(evidence);
  });

  it('"battery reads 12. fuse ok": a number ending a sentence is still a reading', () => {
    expect(last(drive("slide_out", ["slide dead", "battery reads 12. fuse ok"])).state.evidence.battery).toBe("low");
  });

  it.each([
    ["He's pressing the switch now", "slide_out", ["slide dead", "batt 12.6"]],
    [
      "I am going to discharge the capacitor before I test it.",
      "roof_ac",
      [...AC, "stat calls", "fan runs", "comp hums n trips"],
    ],
  ])("%j announces work, with its subject: nothing is recorded (%s)", (message, system, start) => {
    expectNothingRecorded(system, start, message);
  });

  it('"12.48 V on the input and 0.00 V on the output": the output reading is the one after "and"', () => {
    const turn = last(
      drive("water_pump", [
        "pump wont run",
        "fuse ok",
        "0 at the pump plug",
        "On the pump switch I get 12.48 V on the input and 0.00 V on the output terminal with it pressed ON.",
      ]),
    );
    expect(turn.state.evidence.pump_switch).toBe("bad");
  });
});

// Issue 36: wording from the blind set po (scored once held out, then tuned on).
describe("what po taught", () => {
  it('"12v6 at the pump connector", "11v1": the unit written for the decimal point', () => {
    const pump = ["pump wont run", "fuse ok"];
    expect(last(drive("water_pump", [...pump, "12v6 at the pump connector"])).state.evidence.pump_voltage).toBe("ok");
    expect(last(drive("water_pump", [...pump, "11v1 at the pump connector"])).state.evidence.pump_voltage).toBe("low");
  });

  it.each([
    ["filters are clean, return 25C and supply 15C after 15 minutes", "good"],
    ["filters clean, return 25C supply 21C", "weak"],
  ])("%j: a split in Celsius is read in Fahrenheit", (message, answer) => {
    const turn = last(drive("roof_ac", [...AC, "stat calls", "fan runs", "compressor runs", message]));
    expect(turn.state.evidence.airflow).toBe(answer);
  });

  it('"waiting out the 3 minute delay": repeating how long the question says to wait answers nothing', () => {
    const turn = last(drive("roof_ac", [...AC, "stat calls", "fan runs", "waiting out the 3 minute delay"]));
    expect(turn.state.evidence.compressor).toBeUndefined();
  });
});

describe("corrections said with their old number", () => {
  it('"the switch isnt putting anything out, the 12v I saw was on its input side": the words stand', () => {
    const turn = last(
      drive("slide_out", [
        "bedroom slide won't extend",
        "battery 12.6",
        "switch sends 12v",
        "actually no, the switch isn't putting anything out, the 12v I saw was on its input side",
      ]),
    );
    expect(turn.state.evidence.slide_switch).toBe("bad");
  });

  it('"sorry batt was 11.8 not 12.8": a past-tense number alone is the corrected reading', () => {
    const turn = last(drive("slide_out", ["slide dead", "batt 12.8", "sorry batt was 11.8 not 12.8"]));
    expect(turn.state.evidence.battery).toBe("low");
  });
});

// Issue 36: wording from the blind set pp (scored once held out, then tuned on).
describe("what pp taught", () => {
  it('"sorry that was 10.9 not 12.9": a number put in place of another re-measures the step read last', () => {
    const turn = last(
      drive("water_pump", [
        "pump runs weak",
        "fuse ok",
        "12.9 at the pump",
        "pump runs, little water",
        "sorry that was 10.9 not 12.9",
      ]),
    );
    expect(turn.state.evidence.pump_voltage).toBe("low");
  });

  it.each([
    ["waiting on the compressor delay", "roof_ac", [...AC, "stat calls", "fan runs"]],
    [
      "running it to temp, brb",
      "furnace",
      ["furnace short cycles", "lp ok", "stat calls", "blower runs", "sail switch closed", "lights and stays lit"],
    ],
  ])("%j announces: nothing is recorded (%s)", (message, system, start) => {
    expectNothingRecorded(system, start, message);
  });
});

// Issue 36: wording from the blind set pq (scored once held out, then tuned on).
describe("what pq taught", () => {
  it.each([
    ["he wants to know where the thermostat gets its 12 volts from", "roof_ac", AC],
    ["customer asking if the fuse is covered", "water_pump", ["water pump not working"]],
    ["el cliente quiere saber si el fusible esta malo", "water_pump", ["water pump not working"]],
  ])("%j relays a question: nothing is recorded", (message, system, start) => {
    expectNothingRecorded(system, start, message);
  });

  it('"no cap tester in the truck" lacks a tool, whatever word names it: no capacitor finding', () => {
    const turn = expectNothingRecorded(
      "roof_ac",
      [...AC, "stat calls", "fan runs", "compressor does nothing after 5 min"],
      "no cap tester in the truck",
    );
    expect(turn.state.active_step).toBe("capacitor");
  });

  it('"ok found it" only notes progress; "found it period the drain is dripping" still reports', () => {
    expectNothingRecorded("water_pump", ["water pump not working"], "ok found it, I'm going to pull it and look at it");
    const turn = last(
      drive("water_pump", ["pump cycles on its own", "found it period the low point drain is dripping"]),
    );
    expect(turn.state.evidence.leaks).toBe("found");
  });

  it('"blower ✓ sail ✓ closes": a check mark ends its item', () => {
    const turn = last(drive("furnace", ["furnace no heat", "lp good", "stat calls", "blower ✓ sail ✓ closes"]));
    expect(turn.state.evidence).toMatchObject({ blower: "runs", sail_switch: "closed" });
  });

  it('"nothing is blocking the room" at the direct-power test: the generic "nothing" yields to the longer binding words', () => {
    const start = ["slide wont move", "battery 12.6", "switch has output", "motor makes no sound"];
    expect(last(drive("slide_out", start)).state.active_step).toBe("motor_direct");
    const turn = last(drive("slide_out", [...start, "nothing is blocking the room, we looked along the rails"]));
    expect(turn.state.evidence.motor_direct).toBeUndefined();
  });

  it('"44 µF bei 45 µF Nennwert": the number after "bei" is the rating', () => {
    const turn = last(
      drive("roof_ac", [
        "Dachklimaanlage kühlt nicht",
        "120 V liegen an",
        "Thermostat fordert Kühlung an, Lüfter läuft",
        "Kompressor startet nicht, brummt kurz",
        "Kondensator gemessen: 44 µF bei 45 µF Nennwert",
      ]),
    );
    expect(turn.state.evidence.capacitor).toBe("good");
  });
});

// Issue 36: wording from the blind set pr (scored once held out, then tuned on).
describe("what pr taught", () => {
  it.each([
    ["12 point 4 at the pump plug", "ok"],
    ["10 point 2 at the pump plug", "low"],
  ])("%j: digits with the point said as a word are one reading", (message, answer) => {
    const turn = last(drive("water_pump", ["water pump not working", "fuse ok", message]));
    expect(turn.state.evidence.pump_voltage).toBe(answer);
  });

  it('"put the meter on the pump plug with the switch on and got 12.5": the reading is where the meter went', () => {
    const message = "fuse is good, put the meter on the pump plug with the switch on and got 12.5";
    const turn = last(drive("water_pump", ["water pump not working", message]));
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok" });
  });

  it('"motor hums and runs but the room just sits there": no direct-power test is noted for a motor that runs', () => {
    const message = "batts at 12.6, switch sends 12v out both ways, motor hums and runs but the room just sits there";
    const turn = last(drive("slide_out", ["slide stuck in", message]));
    expect(turn.state.evidence.slide_motor).toBe("runs_no_move");
    expect(turn.state.pending_findings).toEqual({});
    expect(turn.state.evidence_log.map((e) => e.step)).not.toContain("motor_direct");
  });

  it('"0 V con el interruptor prendido": the switch is how the pump was measured, not a switch reading', () => {
    const start = ["la bomba de agua no arranca", "el fusible está bien"];
    const turn = last(drive("water_pump", [...start, "no hay voltaje en la bomba, 0 V con el interruptor prendido"]));
    expect(turn.state.evidence).toMatchObject({ fuse: "ok", pump_voltage: "none" });
    expect(turn.state.evidence.pump_switch).toBeUndefined();
  });
});

// Issue 36: wording from the blind set ps (scored once held out, then tuned on).
describe("what ps taught", () => {
  it('"lp good and tstat calls": an item of a list is about its own part, not the step asked', () => {
    const turn = last(drive("furnace", ["furnace no heat", "lp good and tstat calls"]));
    expect(turn.state.evidence).toMatchObject({ lp: "ok", thermostat_heat: "calls" });
  });

  it('"hundred twenty at the unit": a hundred said without "a" or "one"', () => {
    const turn = last(drive("roof_ac", ["ac not cooling", "hundred twenty at the unit and the CB is on"]));
    expect(turn.state.evidence.ac_power).toBe("ok");
  });

  it('"pressing in and out gives zero out": a gerund with what it gives reports a result', () => {
    const start = ["slide wont move", "battery 12.6"];
    const turn = last(drive("slide_out", [...start, "pressing in and out gives zero out, no code on the controller"]));
    expect(turn.state.evidence.slide_switch).toBe("bad");
    expectNothingRecorded("slide_out", start, "pressing the switch now");
  });

  it('"nunca hay 12 V a la salida": a voltage said to be absent is no reading of it', () => {
    const turn = last(
      drive("slide_out", ["el slide no sale", "batería 12,6", "nunca hay 12 V a la salida del interruptor"]),
    );
    expect(turn.state.evidence.slide_switch).toBe("bad");
  });
});

// Issue 36: wording from the blind set pt (scored once held out, then tuned on).
describe("what pt taught", () => {
  it('"the glass fuse for the pump looks perfect": of the parts an item names, the one asked takes its "perfect"', () => {
    const turn = last(drive("water_pump", ["pump wont run", "the glass fuse for the pump looks perfect"]));
    expect(turn.state.evidence.fuse).toBe("ok");
  });

  it('"12 going in but 0 coming out": "in but" marks the number before it as the input, not the one after', () => {
    const turn = last(drive("slide_out", ["slide wont move", "battery 12.7", "12 going in but 0 coming out"]));
    expect(turn.state.evidence.slide_switch).toBe("bad");
  });

  it.each([
    [
      "roof_ac",
      "smells like burning plastic from the vent",
      "the electrician checked it, no burnt wires, he says it's cleared",
    ],
    ["furnace", "smells like rotten eggs by the furnace", "did a leak test with soapy water, no bubbles"],
  ])("%s: %j, then %j clears the stop", (system, hazard, clear) => {
    const start = system === "roof_ac" ? ["ac wont cool"] : ["furnace no heat"];
    expect(last(drive(system, [...start, hazard])).state.mode).toBe("safety_stop");
    expect(last(drive(system, [...start, hazard, clear])).state.mode).toBe("diagnostic");
  });
});

// Issue 36: wording from the blind set pu (scored once held out, then tuned on).
describe("what pu taught", () => {
  it('"power gd / tstat calling / fan runs / comp runs": a slash beside a space ends an item', () => {
    const turn = last(drive("roof_ac", ["ac not cooling", "power gd / tstat calling / fan runs / comp runs"]));
    expect(turn.state.evidence).toMatchObject({
      ac_power: "ok",
      thermostat_cool: "calls",
      ac_fan: "runs",
      compressor: "runs",
    });
  });

  it('"gonna jump the motor direct w/ fused leads" announces: "w/" is "with", no item break', () => {
    const start = ["slide wont move", "battery 12.6", "switch has output", "motor doesnt run"];
    expectNothingRecorded("slide_out", start, "gonna jump the motor direct w/ fused leads");
  });
});

// Issue 36: wording from the blind set pv (scored once held out, then tuned on).
describe("what pv taught", () => {
  it('"burns a while, then starts again" narrates a short cycle: the case is not restarted', () => {
    const start = [
      "furnace blows cold",
      "lp ok",
      "thermostat calls",
      "blower runs",
      "sail switch closes",
      "lights and stays lit",
    ];
    const turn = last(
      drive("furnace", [
        ...start,
        "It burns some minutes and then turns off before the room is warm, then starts again.",
      ]),
    );
    expect(turn.state.evidence).toMatchObject({ lp: "ok", ignition: "stays_lit", limit: "short_cycles" });
    // said as a command it still restarts
    expect(last(drive("furnace", [...start, "start again"])).state.evidence).toEqual({});
  });

  it('"they measured 12 . 5 at the pump": a phone\'s spaced decimal point', () => {
    const turn = last(drive("water_pump", ["pump wont run", "fuse ok", "they measured 12 . 5 at the pump"]));
    expect(turn.state.evidence.pump_voltage).toBe("ok");
  });

  it('"do you know a good place to eat" only asks: its "good" answers no step', () => {
    const start = ["ac not cold", "power ok", "thermostat calls", "fan runs", "compressor hums"];
    expectNothingRecorded("roof_ac", start, "do you know a good place to eat near Flagstaff");
    expect(last(drive("roof_ac", [...start, "good"])).state.evidence.capacitor).toBe("good");
  });

  it('"checked the house batteries, they are at 11.8": the reading goes on about the part named before it', () => {
    const start = ["bedroom slide is dead", "battery is fine", "no, the switch does nothing, no click"];
    const turn = last(drive("slide_out", [...start, "checked the house batteries, they are at 11.8"]));
    expect(turn.state.evidence.battery).toBe("low");
  });
});

// Issue 36: wording from the blind set pw (phone dictation; scored once held out, then tuned on).
describe("what pw taught", () => {
  it('"fuze is good gonna put the meter on the pump connector next": the announcement begins its own clause', () => {
    const turn = last(
      drive("water_pump", ["pump wont run", "fuze is good gonna put the meter on the pump connector next"]),
    );
    expect(turn.state.evidence).toEqual({ fuse: "ok" });
  });

  it('"the blow her comes on", "the compress her runs": a part\'s name split before "-er" is joined again', () => {
    const furnace = last(drive("furnace", ["furnace no heat", "lp ok", "thermostat calls", "the blow her comes on"]));
    expect(furnace.state.evidence.blower).toBe("runs");
    // (words the catalog does not know stay apart: "tell her" is no part)
    expectNothingRecorded("furnace", ["furnace no heat", "lp ok", "thermostat calls"], "i will tell her to check");
  });

  it('"batteries are at twelve point for": a digit after "point" as dictation hears it', () => {
    const turn = last(drive("slide_out", ["slide wont go", "batteries are at twelve point for"]));
    expect(turn.state.evidence.battery).toBe("ok");
  });

  it('"ok meter on the batteries now": an "ok" opening a clause with more to say answers nothing', () => {
    expectNothingRecorded("slide_out", ["slide wont go"], "ok meter on the batteries now");
    expect(last(drive("slide_out", ["slide wont go", "battery ok"])).state.evidence.battery).toBe("ok");
  });
});
