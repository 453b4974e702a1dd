// The learned reader (issue 36): trained on a catalog's labelled examples, it answers what the
// rules could not read, and only where a message is open to an answer.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { trainReader } from "../src/context/learned-reader";
import { contextTurn, parseCatalog, RV_SERVICE_CATALOG, startContext, type TCatalog } from "../src/index";

const SNAPPED = [
  "filament snapped",
  "the filament inside is snapped",
  "filament looks snapped in two",
  "snapped filament, glass is black",
  "its filament is snapped clean through",
  "saw the filament snapped off",
];
const WHOLE = ["filament is whole", "glass clear and the filament whole", "the filament looks whole to me"];
const NOTHING = ["let me look", "one sec", "grabbing a ladder", "ok hang on", "give me a minute"];

function lampCatalog(withExamples: boolean): TCatalog {
  const examples = [
    ...SNAPPED.map((text) => ({ text, records: [{ step: "bulb", answer: "bad" }] })),
    ...WHOLE.map((text) => ({ text, records: [{ step: "bulb", answer: "good" }] })),
    ...NOTHING.map((text) => ({ text, records: [] })),
  ];
  return parseCatalog({
    id: "lamps",
    systems: [
      {
        id: "lamp",
        name: "Lamp",
        detect: { keywords: ["lamp"] },
        procedure: {
          id: "lamp_check",
          title: "Lamp does not light",
          steps: [
            {
              id: "plug",
              question: "Is it plugged in?",
              howto: "Look at the outlet.",
              parts: ["plug"],
              answers: [
                { id: "yes", patterns: ["yes", "plugged in"], finding: "plug=yes" },
                {
                  id: "no",
                  patterns: ["no", "unplugged"],
                  finding: "plug=no",
                  next: "report",
                  correction: "Plug it in.",
                },
              ],
            },
            {
              id: "bulb",
              question: "Is the bulb good?",
              howto: "Swap the bulb.",
              parts: ["bulb"],
              answers: [
                { id: "good", patterns: ["good"], finding: "bulb=good", cause: "Unknown.", correction: "Call us." },
                { id: "bad", patterns: ["bad", "burnt"], finding: "bulb=bad", cause: "Bulb.", correction: "New bulb." },
              ],
            },
          ],
        },
        constraints: { safety: [], warranty: [] },
        ...(withExamples ? { examples } : {}),
      },
    ],
  });
}

/** The findings a message records at the bulb step. */
function atBulb(catalog: TCatalog, message: string): string[] {
  let state = startContext(catalog, "lamp");
  for (const m of ["lamp does not light", "plugged in"]) state = contextTurn(catalog, state, m).state;
  expect(state.active_step).toBe("bulb");
  const logged = state.evidence_log.length;
  return contextTurn(catalog, state, message)
    .state.evidence_log.slice(logged)
    .map((e) => e.finding);
}

describe("the learned reader", () => {
  const examples = [
    ...SNAPPED.map((text) => ({ text, labels: ["bulb=bad"] })),
    ...WHOLE.map((text) => ({ text, labels: ["bulb=good"] })),
    ...NOTHING.map((text) => ({ text, labels: [] })),
    { text: "plug was loose", labels: ["plug=loose"] },
  ];

  it("gives a paraphrase with a typo the label its examples carry", () => {
    const p = trainReader(examples).probabilities("the filamint is snaped");
    expect(p.get("bulb=bad")).toBeGreaterThan(0.5);
    expect(p.get("bulb=good")).toBeLessThan(0.5);
  });

  it("says nothing of a label seen once", () => {
    expect(trainReader(examples).probabilities("plug was loose").has("plug=loose")).toBe(false);
  });

  it("is deterministic: the same examples give the same probabilities", () => {
    const message = "filament gone, glass black";
    expect([...trainReader(examples).probabilities(message)]).toEqual([
      ...trainReader(examples).probabilities(message),
    ]);
  });
});

describe("procedure mode with a catalog's examples", () => {
  it("records what only the examples teach; without them the rules read nothing", () => {
    expect(atBulb(lampCatalog(true), "filamint is snaped")).toEqual(["bulb=bad"]);
    expect(atBulb(lampCatalog(false), "filamint is snaped")).toEqual([]);
  });

  it("adds nothing to a question, an announcement or an answer the rules read", () => {
    const catalog = lampCatalog(true);
    expect(atBulb(catalog, "is a snapped filament bad?")).toEqual([]);
    expect(atBulb(catalog, "let me check if the filament snapped")).toEqual([]);
    expect(atBulb(catalog, "bulb is good, filament snapped on the spare")).toEqual(["bulb=good"]);
  });

  it("adds a later step that a message states beside the rules' answer, never an earlier one", () => {
    const first = (catalog: TCatalog, message: string) => {
      const state = contextTurn(catalog, startContext(catalog, "lamp"), "lamp does not light").state;
      return contextTurn(catalog, state, message).state.evidence_log.map((e) => e.finding);
    };
    expect(first(lampCatalog(true), "plugged in, filamint snaped")).toEqual(["plug=yes", "bulb=bad"]);
    expect(first(lampCatalog(false), "plugged in, filamint snaped")).toEqual(["plug=yes"]);
    // At the bulb step, the plug (asked before) is not read again from the examples.
    expect(atBulb(lampCatalog(true), "bulb is bad, plug was loose")).toEqual(["bulb=bad"]);
  });
});

describe("the RV catalog's examples", () => {
  const file = path.resolve(import.meta.dirname, "../catalogs/rv-service.conversations.json");
  const sets = JSON.parse(readFileSync(file, "utf8")) as {
    conversations: { split: string; turns: { message: string }[] }[];
  };
  const messages = (split: string) =>
    new Set(sets.conversations.filter((c) => c.split === split).flatMap((c) => c.turns.map((t) => t.message)));

  it("come from the tune split only: no held-out message teaches the reader", () => {
    const tune = messages("tune");
    const heldOnly = [...messages("holdout")].filter((m) => !tune.has(m));
    const taught = new Set(RV_SERVICE_CATALOG.systems.flatMap((s) => (s.examples ?? []).map((e) => e.text)));
    expect(heldOnly.filter((m) => taught.has(m))).toEqual([]);
    expect([...taught].every((m) => tune.has(m))).toBe(true);
  });
});
