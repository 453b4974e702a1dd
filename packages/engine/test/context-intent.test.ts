// Text normalisation, answer matching, intent detection and the registry's data functions.

import { clauses as toClauses, tokens as toTokens } from "@solserver/text";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchAnswers } from "../src/context/match";
import { normalisePhrase } from "../src/context/text";
import {
  buildStepContext,
  classifyMessage,
  contextTurn,
  detectSystem,
  getConstraints,
  getProcedure,
  getStep,
  RV_SERVICE_CATALOG,
  startContext,
  type TContextState,
  type TSystem,
} from "../src/index";

const catalog = RV_SERVICE_CATALOG;
const pump = catalog.systems.find((s) => s.id === "water_pump") as TSystem;

/** A water-pump case with the complaint given and `answers` answered in order. */
function pumpState(answers: string[] = []): TContextState {
  let state = contextTurn(catalog, startContext(catalog, "water_pump"), "the water pump is acting up").state;
  for (const answer of answers) state = contextTurn(catalog, state, answer).state;
  return state;
}

describe("text normalisation", () => {
  it.each([
    ["Doesn't RUN!", [{ tokens: ["doesnt", "run"], question: false }]],
    [
      "Where's the pump? It won't start.",
      [
        { tokens: ["where", "the", "pump"], question: true },
        { tokens: ["it", "wont", "start"], question: false },
      ],
    ],
    [
      "11.5 volts, low",
      [
        { tokens: ["11.5", "volts"], question: false },
        { tokens: ["low"], question: false },
      ],
    ],
    [
      "a/c — not cooling",
      [
        { tokens: ["a", "c"], question: false },
        { tokens: ["not", "cooling"], question: false },
      ],
    ],
    ["  ", []],
    ["Café’s fan", [{ tokens: ["cafe", "fan"], question: false }]],
    [
      "12,6V at the pump - wait",
      [
        { tokens: ["12.6", "v", "at", "the", "pump"], question: false },
        { tokens: ["wait"], question: false },
      ],
    ],
    ["¿Dónde está el fusible?", [{ tokens: ["donde", "esta", "el", "fusible"], question: true }]],
    ["ＦＵＳＥ ｂｌｏｗｎ １２ｖ", [{ tokens: ["fuse", "blown", "12", "v"], question: false }]],
  ] as const)("%j → clauses", (text, clauses) => {
    expect(toClauses(text)).toEqual(clauses);
  });

  it("normalises a pattern the same way as a message", () => {
    expect(normalisePhrase("Won't  run")).toBe("wont run");
    expect(toTokens("12.6")).toEqual(["12.6"]);
    expect(toTokens("12,6 V")).toEqual(["12.6", "v"]);
    expect(toTokens("12. Six")).toEqual(["12", "six"]);
  });

  it("classifies long hostile input (its regexes are proved linear by test/linear-regexes.test.ts)", () => {
    const hostile = `${"a".repeat(50_000)}${"'?".repeat(50_000)}${" no".repeat(50_000)}`;
    expect(classifyMessage(pump, pumpState(), hostile)).toHaveProperty("intent");
  });

  it("never throws and always yields lower-case tokens (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        for (const clause of toClauses(text)) {
          expect(clause.tokens.length).toBeGreaterThan(0);
          for (const token of clause.tokens) expect(token).toBe(token.toLowerCase());
        }
      }),
    );
  });
});

describe("answer matching (longest match wins)", () => {
  const p = (...tokens: string[]) => ({ tokens, weak: false });
  const candidates = [
    { group: 0, answer: 0, priority: 0, patterns: [p("blown")] },
    { group: 0, answer: 1, priority: 0, patterns: [p("not", "blown")] },
  ];

  it.each([
    ["the fuse is not blown", [1]],
    ["the fuse is blown", [0]],
    ["blown, not blown", [1]], // both survive; the longer match scores higher
  ])("%j → answers %j", (text, answers) => {
    expect(matchAnswers(toClauses(text), candidates)[0]?.answers).toEqual(answers);
  });

  it("a word counts for one answer only, and never across a clause break", () => {
    expect(matchAnswers(toClauses("not, blown"), candidates)[0]?.answers).toEqual([0]);
  });

  it("on equal length the lower priority (the active step) wins the words", () => {
    const competing = [
      { group: 1, answer: 0, priority: 2, patterns: [p("keeps", "running")] },
      { group: -1, answer: 0, priority: 0, patterns: [p("keeps", "running")] },
    ];
    expect(matchAnswers(toClauses("it keeps running"), competing).map((m) => m.group)).toEqual([-1]);
  });
});

describe("intent detection", () => {
  const atStep = (answers: string[]) => pumpState(answers);

  it.each([
    ["where is the fuse panel?", "LOCATE"],
    ["where's that fuse", "LOCATE"],
    ["I can't find the fuse panel", "LOCATE"],
    ["not sure where that is", "LOCATE"],
    ["it says where is it on the label", "UNCLEAR"], // no "?" and the phrase does not start its clause
    ["ok, can't find it", "LOCATE"],
    ["location of the panel?", "LOCATE"],
    ["why does that matter", "EXPLAIN"],
    ["what does the fuse protect?", "EXPLAIN"],
    ["what is a distribution panel", "EXPLAIN"],
    ["how do I test a fuse", "HOWTO"],
    ["how should I check it?", "HOWTO"],
    ["so how to check that?", "HOWTO"],
    ["fuse is fine", "ANSWER"],
    ["it's not blown", "ANSWER"],
    ["yes", "ANSWER"],
    ["the pump sputters", "NEW_EVIDENCE"],
    ["banana", "UNCLEAR"],
    ["", "UNCLEAR"],
  ])("at the fuse step, %j is %s", (message, intent) => {
    expect(classifyMessage(pump, atStep([]), message).intent).toBe(intent);
  });

  it("a question clause is not evidence: 'how do I check if the pump runs?' is HOWTO, not an answer", () => {
    const c = classifyMessage(pump, atStep(["fuse ok", "12 volts"]), "how do I check if the pump runs?");
    expect(c.intent).toBe("HOWTO");
    expect(c.answer).toBeNull();
  });

  it("'why' inside a statement is not a question: 'it runs, no idea why' answers", () => {
    const c = classifyMessage(pump, atStep(["fuse ok", "12 volts"]), "it runs, no idea why");
    expect(c.intent).toBe("ANSWER");
    expect(c.answer?.id).toBe("yes");
  });

  it("an answer with a question still counts as the answer", () => {
    const c = classifyMessage(pump, atStep([]), "fuse is fine. why would it matter?");
    expect(c.intent).toBe("ANSWER");
    expect(c.topic).toBe("explain");
  });

  it("NEW_EVIDENCE that contradicts a completed step comes before the active step's answer", () => {
    const state = atStep(["fuse ok"]);
    const c = classifyMessage(pump, state, "wait, the fuse was blown");
    expect(c.intent).toBe("NEW_EVIDENCE");
    expect(c.contradictions.map((m) => [m.step.id, m.answer.finding])).toEqual([["fuse", "fuse=blown"]]);
  });

  it("a contradiction alongside an answer to the active step needs a correction marker", () => {
    const state = atStep(["fuse ok", "12 volts", "it sputters", "tank is full"]);
    const plain = classifyMessage(pump, state, "the pump runs but sucks air");
    expect(plain.intent).toBe("ANSWER");
    expect(plain.contradictions.map((m) => m.step.id)).toEqual(["pump_runs"]);
    expect(plain.correction).toBe(false);
    const marked = classifyMessage(pump, state, "turns out the pump runs fine, and it sucks air");
    expect(marked.intent).toBe("NEW_EVIDENCE");
    expect(marked.correction).toBe(true);
  });

  it("a generic answer is dropped when the message restates a completed step", () => {
    const state = atStep(["fuse ok"]);
    expect(classifyMessage(pump, state, "yes the fuse is fine").answer).toBeNull();
    expect(classifyMessage(pump, state, "fuse is fine and 12 volts").answer?.finding).toBe("pump_voltage=ok");
  });

  it("generic words answer only the active step, never another one", () => {
    const state = atStep(["fuse ok"]);
    // "no" would mean fuse=blown at the fuse step; here it answers voltage_at_pump.
    const c = classifyMessage(pump, state, "no");
    expect(c.contradictions).toEqual([]);
    expect(c.answer?.finding).toBe("pump_voltage=none");
  });

  it("restating a recorded finding is neither a contradiction nor new", () => {
    const c = classifyMessage(pump, atStep(["fuse ok"]), "the fuse was fine");
    expect(c.contradictions).toEqual([]);
    expect(c.fresh).toEqual([]);
    expect(c.intent).toBe("UNCLEAR");
  });

  it("a finding for a branch step is recorded only once its branch holds (recorded or stated alongside)", () => {
    const state = atStep([]);
    expect(classifyMessage(pump, state, "the tank is empty").fresh.map((m) => m.answer.finding)).toEqual([
      "tank_level=empty",
    ]);
    // the engine keeps it until the branch is established…
    const alone = contextTurn(catalog, state, "the tank is empty").state;
    expect(alone.evidence).toEqual({});
    expect(alone.pending_findings).toEqual({ tank_level: "tank_level=empty" });
    // …and records both when the same message establishes it
    const both = contextTurn(catalog, state, "the pump sputters and the tank is empty").state;
    expect(both.evidence).toEqual({ pump_runs: "no_water", tank_level: "empty" });
  });

  it("two answers of the active step tied is ambiguous (UNCLEAR)", () => {
    const c = classifyMessage(pump, atStep([]), "intact, blown");
    expect(c.intent).toBe("UNCLEAR");
    expect(c.ambiguous).toEqual(["ok", "blown"]);
  });

  it("in authorization mode the reply is read as consent: only a plain yes or no decides", () => {
    const state: TContextState = { ...atStep(["no"]), mode: "authorization", active_step: null };
    expect(classifyMessage(pump, state, "yes, go ahead").consent).toBe("yes");
    expect(classifyMessage(pump, state, "not approved").consent).toBe("no");
    expect(classifyMessage(pump, state, "sure, but how much will it cost?").consent).toBe("cost");
    expect(classifyMessage(pump, state, "ok, I need to ask the customer first").consent).toBe("deferral");
    expect(classifyMessage(pump, state, "yes if it's covered").consent).toBe("conditional");
    expect(classifyMessage(pump, state, "hmm").consent).toBeNull();
    expect(classifyMessage(pump, state, "hmm").answer).toBeNull();
  });
});

describe("detectSystem", () => {
  it.each([
    ["My water pump runs but no water comes out", "water_pump"],
    ["The A/C is blowing warm air", "roof_ac"],
    ["air conditioner won't start", "roof_ac"],
    ["Furnace won't light, no heat", "furnace"],
    ["The slide won't retract", "slide_out"],
    ["slide-out is stuck halfway", "slide_out"],
  ])("%j → %s", (text, system) => {
    expect(detectSystem(catalog, text)?.system_id).toBe(system);
  });

  it("scores keywords 1 and phrases 2, each once", () => {
    expect(detectSystem(catalog, "pump pump pump")).toEqual({ system_id: "water_pump", score: 1 });
    expect(detectSystem(catalog, "no heat")).toEqual({ system_id: "furnace", score: 3 });
  });

  it("returns null for no match and for a tie", () => {
    expect(detectSystem(catalog, "the awning is torn")).toBeNull();
    expect(detectSystem(catalog, "furnace and pump")).toBeNull();
  });

  it("matches whole words only", () => {
    expect(detectSystem(catalog, "the pumpkin and the slideshow")).toBeNull();
  });
});

describe("registry data functions", () => {
  it("getProcedure returns the catalog's own procedure, nothing computed", () => {
    expect(getProcedure(catalog, "water_pump")).toBe(pump.procedure);
    expect(getProcedure(catalog, "nope")).toBeNull();
  });

  it("getStep and buildStepContext give the step's text", () => {
    expect(getStep(catalog, "water_pump", "fuse")?.question).toMatch(/fuse/);
    const strainer = getStep(catalog, "water_pump", "strainer");
    expect(buildStepContext(catalog, "water_pump", "strainer")).toEqual({
      question: strainer?.question,
      howto: strainer?.howto,
      locate: strainer?.locate,
      explain: strainer?.explain,
      constraints: [
        "Safety: Turn the pump switch off and open a faucet to relieve pressure before opening the strainer or any fitting.",
        "Warranty: The pump is under its manufacturer's warranty: do not disassemble the pump head or motor; replace it as a unit or escalate to the dealer for a claim.",
      ],
    });
    expect(buildStepContext(catalog, "water_pump", "nope")).toBeNull();
  });

  it("getConstraints: a step gets the always-on ones plus its own; no step gets all", () => {
    expect(getConstraints(catalog, "water_pump", "fuse")).toHaveLength(1);
    expect(getConstraints(catalog, "water_pump", "leaks")).toHaveLength(3);
    expect(getConstraints(catalog, "water_pump")).toHaveLength(4);
    expect(getConstraints(catalog, "nope")).toEqual([]);
  });
});

describe("offered options", () => {
  // The dashboard's option buttons send an answer's label verbatim: it must answer its own step,
  // whatever the patterns say ("Filters clean, 15–20 °F drop" matches no pattern of its answer).
  const cases = catalog.systems.flatMap((system) =>
    system.procedure.steps.flatMap((step) =>
      step.answers.map((answer) => ({ system, step: step.id, answer: answer.id, label: answer.label ?? answer.id })),
    ),
  );

  it.each(cases)('$system.id / $step: "$label" answers $answer', ({ system, step, answer, label }) => {
    const state = { ...startContext(catalog, system.id), active_step: step, complaint: "it is acting up" };
    const c = classifyMessage(system, state, label);
    expect(c.intent).toBe("ANSWER");
    expect(c.answer?.id).toBe(answer);
  });

  it("a label only counts word for word: more words around it are classified as usual", () => {
    const state = pumpState();
    const c = classifyMessage(pump, state, "Fuse blown / breaker tripped, where is the panel?");
    expect(c.answer?.id).toBe("blown");
    const unclear = classifyMessage(pump, state, "maybe Fuse intact or not, no idea");
    expect(unclear.intent).not.toBe("ANSWER");
  });
});
