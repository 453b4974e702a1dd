// Issue 36: a message that announces a check ("ok I will measure it", "let me check") or only
// acknowledges ("hmm ok") is no answer: nothing is recorded, the step stays open, and the
// directive says to wait. An announcement beside a statement still records the statement.
import { describe, expect, it } from "vitest";
import { drive, last } from "./drive";

const PUMP = "water pump not working, no water at the faucets";
const recordedBy = (messages: string[]) => {
  const turns = drive("water_pump", [PUMP, ...messages]);
  const before = turns.at(-2)?.state.evidence_log.length ?? 0;
  return {
    turn: last(turns),
    added: last(turns)
      .state.evidence_log.slice(before)
      .map((e) => e.finding),
  };
};

describe("announcements record nothing", () => {
  it.each([
    "ok let me check",
    "ok I will measure it",
    "ill check if the fuse is blown",
    "ok, gonna pull the fuse now",
    "lemme look",
    "about to check it",
  ])("%j at the fuse step: nothing recorded, the step stays open, the assistant waits", (message) => {
    const { turn, added } = recordedBy([message]);
    expect(added).toEqual([]);
    expect(turn.state.active_step).toBe("fuse");
    expect(turn.state.not_checked).toEqual({});
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "fuse" });
    expect(turn.directive.text).toContain("nothing is recorded");
  });

  it.each(["ok", "hmm ok"])('%j alone is no answer (not the fuse\'s "ok")', (message) => {
    const { turn, added } = recordedBy([message]);
    expect(added).toEqual([]);
    expect(turn.state.active_step).toBe("fuse");
  });

  it.each(["ok checking the fuse", "pulling the fuse now", "ok putting a new one in", "resetting the breaker now"])(
    "work under way, %j, records nothing and closes nothing",
    (message) => {
      const { turn, added } = recordedBy([message]);
      expect(added).toEqual([]);
      expect(turn.state.mode).toBe("diagnostic");
      expect(turn.state.active_step).toBe("fuse");
    },
  );

  it("the same verb in the past tense reports a result", () => {
    expect(recordedBy(["checked the fuse its fine"]).added).toEqual(["fuse=ok"]);
  });

  it("an announcement of the next check beside a result records the result", () => {
    expect(recordedBy(["fuse is blown, gonna swap it"]).added).toEqual(["fuse=blown"]);
    expect(recordedBy(["ok, fuse is fine"]).added).toEqual(["fuse=ok"]);
  });

  it("the answer after an announcement is recorded as usual", () => {
    const { turn, added } = recordedBy(["ok let me check", "fuse is good"]);
    expect(added).toEqual(["fuse=ok"]);
    expect(turn.state.active_step).not.toBe("fuse");
  });
});

describe("a bypass is no test of the part it bypasses", () => {
  const SLIDE = "slide out not moving";
  it("power jumped straight to the motor at the switch step records the motor, not the switch", () => {
    const turns = drive("slide_out", [
      SLIDE,
      "12.5 at the batteries, charger off",
      "jumped the motor straight to 12v and it runs fine",
    ]);
    const turn = last(turns);
    const logged = turn.state.evidence_log.map((e) => e.finding);
    expect(logged).toContain("motor_direct=runs");
    expect(logged.filter((f) => f.startsWith("slide_switch="))).toEqual([]);
    expect(turn.state.active_step).toBe("slide_switch");
  });

  it("a message that names the asked part still answers it", () => {
    const turns = drive("slide_out", [
      SLIDE,
      "12.5 at the batteries, charger off",
      "switch is good, jumped past nothing",
    ]);
    expect(last(turns).state.evidence).toMatchObject({ slide_switch: "ok" });
  });

  it("jumping across the part asked is no test of it", () => {
    const turn = last(
      drive("water_pump", [
        PUMP,
        "fuse is intact",
        "0v at the pump",
        "jumped across the pump switch with a clip lead and the pump takes right off",
      ]),
    );
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "none" });
    expect(turn.state.active_step).toBe("pump_switch");
  });

  it("a pump jumped straight off the battery is no finding of whether it runs from its switch", () => {
    const turn = last(
      drive("water_pump", [
        PUMP,
        "fuse is intact",
        "nothing at the pump connector, 0",
        "jumped the pump straight off the battery and it runs fine",
      ]),
    );
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "none" });
  });
});

describe("readings say what they measure", () => {
  it('"no 12v" on the switch output is no voltage there, not 12 V', () => {
    const turn = last(
      drive("water_pump", [PUMP, "fuse is intact", "nothing at the pump connector", "no 12v on the switch output"]),
    );
    expect(turn.state.evidence).toMatchObject({ pump_switch: "bad" });
  });

  it("a remeasurement that names the part corrects that reading after the diagnosis ended", () => {
    const turn = last(
      drive("water_pump", [
        "customer says no water, pump silent",
        "fuse is good",
        "11.3 under load at the pump",
        "actually i measured wrong, had the probe on the wrong pin, pump is getting 12.5",
      ]),
    );
    expect(turn.state.evidence).toMatchObject({ pump_voltage: "ok" });
  });

  it('"wait no, i misread" with a reading no step of the system takes answers nothing', () => {
    const turn = last(
      drive("furnace", ["furnace wont light", "lp is fine stove lights", "wait no, i misread, batt is 12.7"]),
    );
    expect(turn.state.evidence).toEqual({ lp: "ok" });
    expect(turn.state.active_step).toBe("thermostat");
  });

  it.each([
    ["pump side reads 10.2-10.6 jumping around", "low"],
    ["12.4 at pump", "ok"],
    ["its 11.1 at pump, not 12", "low"],
  ])("%j at the pump voltage step → %s", (message, value) => {
    const turn = last(drive("water_pump", [PUMP, "fuse intact", message]));
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: value });
  });

  it("a correction names the step it corrects, also once the diagnosis is done", () => {
    const turn = last(
      drive("slide_out", [
        "slide out not working, nothing",
        "12.6",
        "switch good 12 out",
        "motor doesnt make a sound",
        "straight 12v to the motor with fused leads, still dead",
        "hold up, that batt reading was with the charger on. charger off its 12.0",
      ]),
    );
    expect(turn.state.evidence).toMatchObject({ battery: "low" });
  });

  it('"room moves then stalls": the outcome after "then" is the answer', () => {
    const turn = last(
      drive("slide_out", [
        "slide acting up",
        "batteries 12.8",
        "switch good, 12v out",
        "motor runs, room moves then stalls",
      ]),
    );
    expect(turn.state.evidence).toMatchObject({ slide_motor: "stalls" });
  });
});

describe("a question about something else", () => {
  it.each(["whats the weather tomorrow?", "did you see the game last night?", "anyone know a good taco place"])(
    "%j: said to be outside the diagnosis, the step asked again, nothing recorded",
    (message) => {
      const turn = last(drive("water_pump", [PUMP, message]));
      expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "fuse" });
      expect(turn.directive.text).toContain("outside this diagnosis");
      expect(turn.state.evidence).toEqual({});
    },
  );

  it.each(["how long will this take?", "where is the fuze?", "why do you need that?"])(
    "%j is about the case: answered, never called off topic",
    (message) => {
      const turn = last(drive("water_pump", [PUMP, message]));
      expect(turn.directive.kind).toBe("answer_clarification");
    },
  );
});

describe("the action a step asks for is its answer, not a repair", () => {
  it('"reset it, breaker holds now" at the breaker reset step records it and the case goes on', () => {
    const turn = last(
      drive("roof_ac", ["ac stopped working last night", "breaker was tripped", "reset it, breaker holds now"]),
    );
    expect(turn.state.evidence).toMatchObject({ ac_power: "tripped", breaker_reset: "holds" });
    expect(turn.state.mode).toBe("diagnostic");
  });

  it('"reset it, holding on cool now": what follows the asked action is its outcome, not a repair', () => {
    const turn = last(drive("roof_ac", ["ac was dead", "AC breaker was tripped", "reset it, holding on cool now"]));
    expect(turn.state.mode).toBe("diagnostic");
    expect(turn.state.report).toBeNull();
    // ("holding on" is no "hold on": neither a correction nor "not yet")
    expect(turn.state.evidence).toEqual({ ac_power: "tripped", breaker_reset: "holds" });
  });

  it('"hold on, let me check" still records nothing', () => {
    const turn = last(drive("roof_ac", ["ac was dead", "AC breaker was tripped", "hold on, let me check"]));
    expect(turn.state.evidence).toEqual({ ac_power: "tripped" });
  });

  it('a repair of another part with "now" still ends the case as fixed by the technician', () => {
    const turn = last(drive("water_pump", [PUMP, "replaced the switch, works now"]));
    expect(turn.state.report?.resolution).toBe("fixed_by_technician");
  });
});

describe("a report request is a command, not a note or an answer", () => {
  const DONE = [
    PUMP,
    "fuse blown",
    "new fuse blew again soon as i flipped the pump on",
    "unplugged the pump, fuse holds",
    "yes",
  ];

  it("after the report: the report as it stands, no technician note, no new revision", () => {
    const turn = last(drive("water_pump", [...DONE, "START FINAL REPORT", "give me the report"]));
    expect(turn.directive.kind).toBe("report_update");
    expect(turn.state.report).toMatchObject({ revision: 1, notes: [] });
  });

  it('"what was the cause?" after the report is answered from the report\'s cause, nothing recorded', () => {
    const turn = last(drive("water_pump", [...DONE, "what was the cause?"]));
    const report = turn.state.report;
    expect(turn.directive.kind).toBe("answer_clarification");
    expect(turn.directive.text).toContain(`the cause is "${report?.cause}"`);
    expect(report).toMatchObject({ revision: 1, notes: [] });
  });

  it("mid-diagnosis: the partial report, marked incomplete; the step stays open and nothing is counted", () => {
    const turns = drive("water_pump", [PUMP, "fuse blown", "give me the report", "START FINAL REPORT"]);
    const turn = last(turns);
    expect(turn.directive.kind).toBe("ask_step");
    expect(turn.directive.text).toContain("INCOMPLETE");
    expect(turn.directive.report).toBeDefined();
    expect(turn.state.report).toBeNull();
    expect(turn.state.guard.reasks).toEqual({});
    expect(turn.state.evidence).toEqual({ fuse: "blown" });
  });

  it('"start final report" while authorization is asked records no "start" of the blower', () => {
    const complaint = "furnace rental 19 nothing but a click from the wall stat, no fan";
    const asked = last(drive("furnace", [complaint, "lp ok, stove lights"]));
    const turn = last(drive("furnace", [complaint, "lp ok, stove lights", "start final report"]));
    expect(asked.state.mode).toBe("authorization");
    expect(turn.state.evidence).toEqual(asked.state.evidence);
    expect(turn.state.evidence_log).toHaveLength(asked.state.evidence_log.length);
  });
});

describe("consent talk during the diagnosis is no finding", () => {
  it.each(["yes if its under warranty", "yes, how much will that cost?"])(
    "%j at the pump voltage step records nothing",
    (message) => {
      const turns = drive("water_pump", [PUMP, "fuse ok", message]);
      const turn = last(turns);
      expect(turn.state.evidence).toEqual({ fuse: "ok" });
      expect(turn.state.active_step).toBe("voltage_at_pump");
    },
  );

  it("a plain yes still answers a yes/no step", () => {
    expect(last(drive("water_pump", [PUMP, "yes"])).state.evidence).toEqual({ fuse: "ok" });
  });
});

describe("a part two steps share is the asked step's", () => {
  it('"el motor arranca … se traba" at the motor step answers it, not the direct motor test', () => {
    const turn = last(
      drive("slide_out", [
        "el slide no sale",
        "bateria 12.7",
        "el switch da 12v",
        "el motor arranca, mueve un poco y luego se traba",
      ]),
    );
    expect(turn.state.evidence).toEqual({ battery: "ok", slide_switch: "ok", slide_motor: "stalls" });
  });
});

describe("more of a technician's wording (the third blind set's tuning)", () => {
  it.each([
    ["slide_out", ["slide wont go", "batts about 12 and a half"], { battery: "ok" }],
    [
      "roof_ac",
      ["ac blows warm", "120 at the unit", "stat calls", "fan runs", "comp wont start", "cap reads 28 on a 45"],
      { capacitor: "bad" },
    ],
  ])("%s: a reading said the way people say it", (system, messages, evidence) => {
    expect(last(drive(system, messages)).state.evidence).toMatchObject(evidence);
  });

  it('"the compressor tried to come on" says nothing about whether it started', () => {
    const turn = last(
      drive("roof_ac", [
        "ac trips breaker",
        "breaker was tripped",
        "reset it and it popped again soon as the compressor tried to come on",
      ]),
    );
    expect(turn.state.evidence).toEqual({ ac_power: "tripped", breaker_reset: "trips" });
  });

  it("a correction of a step done may name a part the step asked shares", () => {
    const turn = last(
      drive("water_pump", [
        PUMP,
        "fuse looks blown",
        "wait wrong fuse, thats the step light one. the pump fuse is fine",
      ]),
    );
    expect(turn.state.evidence).toEqual({ fuse: "ok" });
    expect(turn.directive.kind).toBe("replan");
  });

  it("correcting a finding from the complaint keeps the steps before it in the procedure", () => {
    const turn = last(
      drive("water_pump", [
        "customer says nothing comes out of the faucet, pump runs but no water",
        "fuse looks fine",
        "actually the pump doesnt run at all, its silent",
      ]),
    );
    expect(turn.state.evidence).toMatchObject({ fuse: "ok", pump_runs: "no" });
  });
});

describe("more of a technician's wording (the fourth blind set's tuning)", () => {
  it('"12.5 with the switch on at the pump": the condition names no part, the place does', () => {
    const turn = last(drive("water_pump", [PUMP, "fuse ok, 12.5 with the switch on at the pump"]));
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok" });
  });

  it("a correction's last reading stands, and a rating points at the step read against one", () => {
    const ac = ["ac not cooling", "119 at the pedestal", "stat calls", "fan runs", "compressor wont start"];
    const power = last(
      drive("roof_ac", [...ac, "correction on the first reading, 119 was at the pedestal, at the ac its 104"]),
    );
    expect(power.state.evidence).toMatchObject({ ac_power: "none" });
    const cap = last(
      drive("roof_ac", [
        ...ac,
        "cap reads 44 on a 45",
        "no wait that was the fan side, the herm side reads 31 on a 45",
      ]),
    );
    expect(cap.state.evidence).toMatchObject({ capacitor: "bad" });
  });

  it('"no short cycling" is not the answer "no" to "does it run to temperature, or short-cycle?"', () => {
    const turn = last(
      drive("furnace", [
        "furnace not heating",
        "lp ok",
        "tstat calls",
        "blower runs",
        "burner lights and stays lit",
        "sail switch closes ok",
        "no short cycling",
      ]),
    );
    expect(turn.state.evidence.limit).not.toBe("short_cycles");
  });
});

describe("numbers said in words (dictation)", () => {
  it.each([
    ["twelve point four at the pump", "ok"],
    ["twelve five at the pump", "ok"],
    ["got about eleven volts at the pump", "low"],
    ["zero volts at the pump", "none"],
  ])("%j at the pump voltage step → %s", (message, value) => {
    expect(last(drive("water_pump", [PUMP, "fuse ok", message])).state.evidence.pump_voltage).toBe(value);
  });

  it.each([
    ["one eighteen at the pedestal", "ok"],
    ["a hundred and four at the unit", "none"],
  ])("%j at the A/C power step → %s", (message, value) => {
    expect(last(drive("roof_ac", ["ac wont cool", message])).state.evidence.ac_power).toBe(value);
  });

  it('"the one by the door is blown": a small number in words without a unit is no reading', () => {
    expect(
      last(drive("water_pump", [PUMP, "fuse ok", "the one by the door is blown"])).state.evidence.pump_voltage,
    ).toBeUndefined();
  });
});

describe("more of a technician's wording (the fifth blind set's tuning)", () => {
  it('"runs and water comes out fine, it just never stops": what follows "just" is the outcome', () => {
    expect(
      last(
        drive("water_pump", [
          PUMP,
          "fuse ok",
          "12.5 at the pump",
          "pump runs and water comes out fine it just never stops",
        ]),
      ).state.evidence.pump_runs,
    ).toBe("cycles");
  });

  it('"44.1 rated 45": the number after "rated" is the rating, the one before it the reading', () => {
    const turn = last(
      drive("roof_ac", [
        "ac blows warm",
        "120 at the unit",
        "stat calls",
        "fan runs",
        "comp wont start",
        "cap reads 44.1 rated 45",
      ]),
    );
    expect(turn.state.evidence.capacitor).toBe("good");
  });

  it('"shore power is 30 amp" is no voltage reading', () => {
    const turn = last(drive("roof_ac", ["ac dead", "breaker is on, shore power is 30 amp and 120 at the pedestal"]));
    expect(turn.state.evidence.ac_power).toBe("ok");
  });

  it('"okay I\'m going to go look under the sinks" announces', () => {
    const turn = last(drive("water_pump", [PUMP, "okay I'm going to go look at the fuse panel"]));
    expect(turn.state.evidence).toEqual({});
  });

  it('"stayed on for like 20 seconds and then when the compressor tried to start it tripped again" trips', () => {
    const turn = last(
      drive("roof_ac", [
        "ac dead",
        "breaker was tripped",
        "i reset the breaker and it stayed on for like 20 seconds and then when the compressor tried to start it tripped again",
      ]),
    );
    expect(turn.state.evidence.breaker_reset).toBe("trips");
  });
});

describe("more of a technician's wording (the sixth blind set's tuning)", () => {
  it.each([
    "pump switch output dead, 12 going in",
    "meter on the pump switch output: nothing. input side has 12.6 tho",
  ])("%j: what goes into the switch is not what it puts out", (message) => {
    const turn = last(drive("water_pump", [PUMP, "fuse is intact", "0v at the pump", message]));
    expect(turn.state.evidence.pump_switch).toBe("bad");
  });

  it('"ran maybe 20 sec n it tripped again": an estimate is no doubt', () => {
    const turn = last(
      drive("roof_ac", ["ac dead", "breaker was tripped", "reset the breaker, ac ran maybe 20 sec n it tripped again"]),
    );
    expect(turn.state.evidence.breaker_reset).toBe("trips");
  });

  it("a complaint that reports a hazard records nothing beside it", () => {
    const turn = last(drive("roof_ac", ["breaker tripped and theres a burnt smell from the ceiling assembly"]));
    expect(turn.state.mode).toBe("safety_stop");
    expect(turn.state.evidence).toEqual({});
  });

  it('"the bypass valve was still open" is no bypass of a part', () => {
    const turn = last(
      drive("water_pump", [
        PUMP,
        "fuse ok",
        "12.6 at the pump",
        "pump runs but barely dribbles",
        "tank is full",
        "bypass valve on the winterizing kit was still open, pump was pulling air thru it",
      ]),
    );
    expect(turn.state.evidence.strainer).toBe("air_leak");
  });

  it('"new 15a fuse in … blew again" reads no voltage from the fuse rating', () => {
    const turn = last(drive("water_pump", [PUMP, "fuse is blown", "new 15a fuse in, hit the switch, POP. blew again"]));
    expect(turn.state.evidence).toEqual({ fuse: "blown", fuse_recheck: "blows" });
  });
});

describe("what the twenty-eighth blind set (qc) taught", () => {
  it('"si, el cliente autoriza" while a step is asked grants permission; it answers no step', () => {
    const turns = drive("roof_ac", [
      "el aire no enfria",
      "121 en el contacto",
      "el termostato pide frio",
      "ventilador jala",
      "compresor no arranca, zumba",
      "si, el cliente autoriza",
    ]);
    expect(last(turns).state.evidence).toEqual(turns.at(-2)?.state.evidence);
    expect(last(turns).state.active_step).toBe("capacitor");
  });

  it('"sail sw reads .2": a decimal typed without its zero is 0.2 ohm, closed', () => {
    const turn = last(
      drive("furnace", ["furnace quits", "lp good", "stat on heat, calls", "blower up", "sail sw reads .2"]),
    );
    expect(turn.state.evidence.sail_switch).toBe("closed");
  });

  it("a correction that quotes the old value replans while authorization is asked", () => {
    const turns = drive("slide_out", [
      "slide wont come in",
      "batts 12,1",
      "hang on, that 12,1 was with the inverter running. everything off now its 12,6",
    ]);
    expect(turns[1]?.state.mode).toBe("authorization");
    expect(last(turns).state.evidence).toEqual({ battery: "ok" });
    expect(last(turns).state.mode).toBe("diagnostic");
  });

  it('"habe mich verlesen" re-measures in German, while authorization is asked', () => {
    const turn = last(
      drive("slide_out", [
        "Der Slide fährt nicht mehr ein",
        "Die Batterie hat 12,3 Volt",
        "Sorry, habe mich verlesen, es sind 12,7 Volt",
      ]),
    );
    expect(turn.state.evidence).toEqual({ battery: "ok" });
  });

  it.each([
    [
      "water_pump",
      ["pump wont run", "fuse good", "no, he doesnt have any meter with him"],
      "voltage_at_pump",
      "no_tool",
    ],
    [
      "slide_out",
      [
        "slide wont move",
        "battery 12.6",
        "switch clicks, controller clicks",
        "motor is silent",
        "cant do that, no jumper leads",
      ],
      "motor_direct",
      "no_access",
    ],
    [
      "slide_out",
      [
        "Slide geht nicht",
        "Batterie 12,6 Volt",
        "Schalter klickt",
        "Motor ist still",
        "Das kann ich nicht machen, habe keine Kabel",
      ],
      "motor_runs",
      "no_access",
    ],
  ] as const)(
    '%s: a check that cannot be made records nothing, not even its leading "no"',
    (system, messages, step, reason) => {
      const turns = drive(system, messages);
      const before = turns.at(-2)?.state;
      const turn = last(turns);
      expect(turn.state.evidence).toEqual(before?.evidence);
      const open = step ?? before?.active_step ?? "";
      expect(turn.state.not_checked[open]?.reason).toBe(reason ?? turn.state.not_checked[open]?.reason);
      expect(Object.keys(turn.state.not_checked)).toEqual([open]);
    },
  );
});

describe("what the twenty-ninth blind set (qd) taught", () => {
  const SPUTTERS = "customer's pump runs but barely any water, sputters and spits air";

  it('"like I said the pump runs fine" repeats: it never changes a finding on record', () => {
    const turns = drive("water_pump", [SPUTTERS, "fuse good", "12,4 at pump", "bone dry"]);
    expect(turns.at(-1)?.state.evidence.pump_runs).toBe("no_water");
    const turn = last(
      drive("water_pump", [
        SPUTTERS,
        "fuse good",
        "12,4 at pump",
        "bone dry",
        "like I said the pump itself runs fine, it's just sucking air",
      ]),
    );
    expect(turn.state.evidence.pump_runs).toBe("no_water");
  });

  it('a measurement quoted again still corrects: "like i said 104 at the outlet"', () => {
    const turns = drive("roof_ac", [
      "ac wont cool, generator running",
      "is that the generator then?",
      "like i said 104 at the outlet with the gen running",
    ]);
    expect(turns[0]?.state.evidence.ac_power).toBe("ok");
    expect(last(turns).state.evidence.ac_power).toBe("none");
  });

  it.each([
    [
      "slide_out",
      ["slide stuck out", "batts 12.6", "switch clicks", "motor hums, room doesnt move"],
      "cranking it by hand now",
    ],
    [
      "roof_ac",
      ["ac blows warm", "120 at the outlet", "stat calls for cool", "fan blows"],
      "gimme 3 min for the compressor delay",
    ],
  ])("%s: an action under way (%j) records nothing", (system, before, message) => {
    const turns = drive(system, [...before, message]);
    expect(last(turns).state.evidence_log).toEqual(turns.at(-2)?.state.evidence_log);
  });

  it('"el capacitor marca 31 y es de 35": "es de" states the rating in Spanish', () => {
    const turn = last(
      drive("roof_ac", [
        "el aire no enfria",
        "120 en el contacto",
        "termostato pide frio",
        "ventilador sopla",
        "compresor no arranca, zumba",
        "el capacitor marca 31 y es de 35",
      ]),
    );
    expect(turn.state.evidence.capacitor).toBe("bad");
  });

  it('"so 40 on a 40" in a correction is a capacitor against its rating, never a voltage', () => {
    const turns = drive("roof_ac", [
      "roof AC hums but no cold air",
      "120 at the outlet, breaker's on",
      "stat's calling for cool",
      "fan blows",
      "after the delay there's a click and a short buzz from the roof, then silence, air still warm",
      "pulling the shroud, discharging the cap first",
      "cap reads 40 on a 45 mfd",
      "misread the cap label, it's a 40 uF, not 45. so 40 on a 40",
    ]);
    const added = last(turns)
      .state.evidence_log.slice(turns.at(-2)?.state.evidence_log.length)
      .map((e) => e.finding);
    expect(added).toContain("capacitor=good");
    expect(added).not.toContain("ac_power=none");
  });

  it('"put another fuse in, holding fine" at the short check answers it; the recheck stays blown', () => {
    const turn = last(
      drive("water_pump", [
        "customer says the pump quit in the middle of her shower",
        "the pump fuse is toast, the little metal strip inside is broken in two",
        "popped a new 10 amp in, turned the pump on and it's holding",
        "wait no, the new fuse just blew, took like 20 seconds",
        "unplugged the pump from the harness and put another fuse in, holding fine with the pump off",
      ]),
    );
    expect(turn.state.evidence).toMatchObject({ fuse_recheck: "blows", short_check: "pump" });
  });

  it('"the blower" names the part and says nothing of it: nothing recorded', () => {
    const turns = drive("furnace", ["furnace wont heat", "lp good", "stat calls for heat", "the blower"]);
    expect(turns.at(-2)?.state.active_step).toBe("blower");
    expect(last(turns).state.evidence_log).toEqual(turns.at(-2)?.state.evidence_log);
  });
});

describe("what the thirtieth blind set (qe) taught", () => {
  it('"the pump ran maybe a minute and it blew again": an estimate, not a doubt', () => {
    const turn = last(
      drive("water_pump", [
        "pump quit",
        "pump fuse is blown",
        "He put a new 15 in, the pump ran maybe a minute and it blew again.",
      ]),
    );
    expect(turn.state.evidence).toMatchObject({ fuse: "blown", fuse_recheck: "blows" });
  });

  it('"meter lead was on the wrong pin" re-measures the switch while authorization is asked', () => {
    const turns = drive("slide_out", [
      "Slide no move. Cust says dead when pushing the button.",
      "batts 12.8 / chgr off",
      "sw 0v out, either direction. 12.6 in.",
      "nvm. meter lead was on the wrong pin. 12.5 out on IN, 12.5 on OUT.",
    ]);
    expect(turns.at(-2)?.state.evidence.slide_switch).toBe("bad");
    expect(last(turns).state.evidence.slide_switch).toBe("ok");
  });

  it('"water comes out in spurts with air" is a pump that runs without moving water', () => {
    const turn = last(
      drive("water_pump", [
        PUMP,
        "fuse good",
        "12.4 at the pump",
        "Pump runs, hums loud, water comes out in spurts with air",
      ]),
    );
    expect(turn.state.evidence.pump_runs).toBe("no_water");
  });

  it('"ya te dije que el soplador si arranca" at the ignition step is about the blower: nothing recorded', () => {
    const turns = drive("furnace", [
      "el calentador no calienta",
      "el tanque de gas esta lleno, la estufa prende",
      "el termostato pide calor",
      "el ventilador arranca",
      "la vela cierra, 0.2 ohm",
      "ya te dije que el soplador si arranca",
    ]);
    expect(turns.at(-2)?.state.active_step).toBe("ignition");
    expect(last(turns).state.evidence_log).toEqual(turns.at(-2)?.state.evidence_log);
  });
});

describe("what the thirty-first blind set (qf) taught", () => {
  it('"er bewegt sich keinen Millimeter": a negation after the verb negates it', () => {
    const turn = last(
      drive("slide_out", [
        "Der Slide-out fährt nicht rein",
        "Batterie 12,6",
        "Schalter gibt 12 V in beide Richtungen",
        "Motor brummt, aber der Raum bewegt sich nicht",
        "nichts klemmt, Schienen frei",
        "mit der Kurbel: er bewegt sich keinen Millimeter",
      ]),
    );
    expect(turn.state.evidence.override).toBe("stuck");
  });

  it("a pump that is dead, then jumpered off the battery and running, is still a pump that does not run", () => {
    const turns = drive("water_pump", [
      "owners say the pump is dead. fuse checked good already.",
      "0.0 at the pump plug, switch on",
      "ran a fused jumper from the batt straight to the pump leads, pump takes off and water flows",
    ]);
    expect(turns.at(-2)?.state.evidence.pump_runs).toBe("no");
    expect(last(turns).state.evidence.pump_runs).toBe("no");
  });

  it('German "Moment, …" before a finding corrects it, even while authorization is asked', () => {
    const turns = drive("furnace", [
      "Die Heizung geht nicht",
      "Herd brennt mit blauer Flamme",
      "Thermostat auf Heizen, es klickt",
      "Gebläse läuft",
      "überspringen",
      "draußen klickt es die ganze Zeit, aber es zündet nie",
      "Moment, es hat doch kurz gezündet und ist dann nach ein paar Sekunden wieder ausgegangen",
    ]);
    expect(turns.at(-2)?.state.evidence.ignition).toBe("no_spark");
    expect(last(turns).state.evidence.ignition).toBe("drops_out");
  });

  it('"it lit and then went out" drops out; "click click whoomp, flame steady" stays lit', () => {
    const asked = ["furnace wont heat", "lp good", "stat calls for heat", "blower runs", "sail switch closed"];
    expect(
      last(drive("furnace", [...asked, "it did light and then went out after a few seconds"])).state.evidence.ignition,
    ).toBe("drops_out");
    expect(
      last(drive("furnace", [...asked, "click click whoomp, lit, flame steady thru the window"])).state.evidence
        .ignition,
    ).toBe("stays_lit");
  });

  it('"air comes out of the vents" at the fan step is the fan running, not the airflow check', () => {
    const turn = last(
      drive("roof_ac", [
        "ac not cooling",
        "breaker on, 120 at the unit",
        "stat calls for cool",
        "yes air comes out of the vents",
      ]),
    );
    expect(turn.state.evidence.ac_fan).toBe("runs");
    expect(turn.state.evidence.airflow).toBeUndefined();
  });

  it('"checked the pump fuse, it\'s good" in the complaint records the fuse', () => {
    const turn = last(
      drive("water_pump", ["no water pressure at the shower. Tyler already checked the pump fuse, it's good."]),
    );
    expect(turn.state.evidence.fuse).toBe("ok");
  });

  it('"compressor hums up there, condenser fan turning, air a bit cooler": the compressor runs', () => {
    const turn = last(
      drive("roof_ac", [
        "ac wont cool below 85",
        "one nineteen at the outlet and the AC breaker is on",
        "set to cool 70, calling",
        "fan blowing good at the vents",
        "compressor hums up there, condenser fan turning, air a bit cooler",
        "return 82 supply 74, filters look ok",
      ]),
    );
    expect(turn.state.evidence).toMatchObject({ compressor: "runs", airflow: "weak" });
  });

  it('"air is blowing from the vent" is the furnace blower; "crank brings it in by hand" moves', () => {
    const blower = last(
      drive("furnace", [
        "heat isnt working",
        "stove lit, blue flame",
        "stat on heat, it clicked",
        "we hear something running and air is blowing from the vent",
      ]),
    );
    expect(blower.state.evidence.blower).toBe("runs");
    const slide = last(
      drive("slide_out", [
        "slide wont budge",
        "batteries 12.6, switch sends 12v both ways, motor doesnt make a sound",
        "crank brings it in by hand, smooth and easy",
      ]),
    );
    expect(slide.state.evidence.override).toBe("moves");
  });

  it('"hay 120 en el enchufe y el breaker del aire está arriba" in the complaint: the A/C has power', () => {
    const turn = last(
      drive("roof_ac", ["aire de techo no enfría. hay 120 en el enchufe y el breaker del aire está arriba"]),
    );
    expect(turn.state.evidence.ac_power).toBe("ok");
  });

  it('"set it to cool at 20 degrees" is a setpoint, not the airflow check\'s temperature drop', () => {
    const turn = last(
      drive("roof_ac", ["ac not cooling", "breaker on, 120 at the unit", "lo puse en frío a 20 grados, hace clic"]),
    );
    expect(turn.state.evidence.thermostat_cool).toBe("calls");
    expect(turn.state.evidence.airflow).toBeUndefined();
  });

  it('"runs fine, good water, but it keeps turning itself back on" at the pressure switch: "fine" is the pump\'s', () => {
    const turns = drive("water_pump", [
      "Pump keeps kicking on every couple minutes at night",
      "fuse ok",
      "12.6",
      "runs fine, good water, but like i said it keeps turning itself back on",
    ]);
    expect(turns.at(-2)?.state.active_step).toBe("pressure_switch");
    expect(last(turns).state.evidence.pressure_switch).toBeUndefined();
  });
});

describe("what the thirty-second blind set (qg) taught", () => {
  it('"nobody smells gas" is no gas smell: no safety stop, the flame is read', () => {
    const turn = last(
      drive("furnace", [
        "furnace blower runs but it only blows cold air",
        "First thing, I checked, nobody smells gas. The husband lit the stove and it has a nice steady blue flame.",
      ]),
    );
    expect(turn.state.mode).toBe("diagnostic");
    expect(turn.state.evidence.lp).toBe("ok");
  });

  it('"breaker popped again 10 seconds after the compressor came on": a time, not a compressor finding', () => {
    const turn = last(
      drive("roof_ac", [
        "ac keeps tripping the breaker",
        "breaker was tripped",
        "breaker popped again about 10 seconds after the compressor came on",
      ]),
    );
    expect(turn.state.evidence.breaker_reset).toBe("trips");
    expect(turn.state.evidence.compressor).toBeUndefined();
  });

  it('"I don\'t hear anything from the compressor up top": "top" is no German "fine" in English', () => {
    const turn = last(
      drive("roof_ac", [
        "ac blows warm",
        "120 at the unit, breaker on",
        "stat calls",
        "fan runs",
        "I don't hear anything from the compressor up top",
      ]),
    );
    expect(turn.state.evidence.compressor).not.toBe("runs");
  });

  it('"power\'s off at the pedestal, gonna discharge it and check" announces the capacitor test: nothing recorded', () => {
    const turns = drive("roof_ac", [
      "ac blows warm",
      "120 at the unit, breaker on",
      "stat calls",
      "fan runs",
      "compressor wont start, just hums",
      "got a meter with a cap setting in the truck. power's off at the pedestal, gonna discharge it and check",
    ]);
    expect(turns.at(-2)?.state.active_step).toBe("capacitor");
    expect(last(turns).state.evidence.capacitor).toBeUndefined();
  });

  it('"Display bleibt dunkel, kein Klicken" is a thermostat that does not call', () => {
    const turn = last(
      drive("roof_ac", [
        "Die Klimaanlage geht nicht",
        "Landstrom ist da, Automat ist drin",
        "Das Thermostat zeigt nichts an, Display bleibt dunkel, kein Klicken",
      ]),
    );
    expect(turn.state.evidence.thermostat_cool).toBe("no_call");
  });

  it('"it moves the room out maybe an inch then stalls": an estimate, not a doubt', () => {
    const turn = last(
      drive("slide_out", [
        "slide wont come out",
        "batteries 12.7",
        "switch sends 12 both ways",
        "it moves the room out maybe an inch then stalls and strains",
      ]),
    );
    expect(turn.state.evidence.slide_motor).toBe("stalls");
  });

  it('"ok charged up, battery now 12.8" re-measures a low battery', () => {
    const turns = drive("slide_out", [
      "slide stalls halfway",
      "battery 11.9",
      "ok charged up, battery now 12.8 resting with the charger off",
    ]);
    expect(turns.at(-2)?.state.evidence.battery).toBe("low");
    expect(last(turns).state.evidence.battery).toBe("ok");
  });

  it('"marca 31,5 y es de 35, no está inflado": the reading\'s fault outweighs words that find none', () => {
    const turn = last(
      drive("roof_ac", [
        "el aire acondicionado del techo no enfria, solo echa aire",
        "estamos conectados en el parque, el breaker del aire esta encendido, 118 en el enchufe",
        "el termostato en COOL a 65, no hace clic",
        "perdon, el termostato si hace clic, y sale el copito",
        "esperamos 5 minutos: se oye un zumbido arriba como 2 segundos y se calla, el aire sigue igual",
        "el capacitor marca 31,5 y es de 35, no esta inflado",
      ]),
    );
    expect(turn.state.evidence.capacitor).toBe("bad");
  });

  it('"desconecte la bomba, puse otro fusible y ahora si aguanta" at the short check: the pump is the short', () => {
    const turns = drive("water_pump", [
      "la bomba no funciona",
      "el fusible de la bomba esta quemado",
      "puse uno nuevo y se volvio a quemar",
      "desconecte la bomba, puse otro fusible y ahora si aguanta, ya no se quema",
    ]);
    expect(turns.at(-2)?.state.active_step).toBe("short_check");
    expect(last(turns).state.evidence).toMatchObject({ fuse_recheck: "blows", short_check: "pump" });
  });

  it('"71 at the return, 64 at the vent" pairs the readings past "at": a weak temperature drop', () => {
    const turn = last(
      drive("roof_ac", [
        "ac wont cool the trailer",
        "breaker on, 120 at the unit",
        "stat calls",
        "fan runs",
        "after a few minutes we hear the thing on the roof humming and the outside fan spins, it keeps running",
        "filters look clean. 71 at the return, 64 at the vent",
      ]),
    );
    expect(turn.state.evidence).toMatchObject({ compressor: "runs", airflow: "weak" });
  });

  it('"the AC breaker popped again" while authorization is asked: the breaker does not hold', () => {
    const turns = drive("roof_ac", [
      "ac keeps tripping its breaker",
      "breaker was tripped",
      "reset it, set cool, its holding",
      "stat calls for cool",
      "fan runs",
      "compressor runs, air is cold",
      "the AC breaker popped again just now, like 10 min in",
    ]);
    expect(turns.at(-2)?.state.evidence.breaker_reset).toBe("holds");
    expect(last(turns).state.evidence.breaker_reset).toBe("trips");
  });
});
