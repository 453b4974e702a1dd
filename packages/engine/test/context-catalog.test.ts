// The procedure catalog: the shipped RV catalog is valid, is its JSON file, and validation
// rejects every broken shape the format guide (src/context/CATALOG.md) lists.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { parseCatalog, RV_SERVICE_CATALOG, type TCatalog } from "../src/index";

const JSON_PATH = path.resolve(import.meta.dirname, "../catalogs/rv-service.json");

/** A small valid catalog; each test breaks one thing in a copy. */
function tiny(): TCatalog {
  return {
    id: "tiny",
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
              constraints: ["hot_bulb"],
              answers: [
                { id: "good", patterns: ["good"], finding: "bulb=good" },
                { id: "bad", patterns: ["bad", "burnt"], finding: "bulb=bad", next: "report" },
              ],
            },
          ],
        },
        constraints: { safety: [{ id: "hot_bulb", text: "Let the bulb cool." }], warranty: [] },
      },
    ],
  };
}

function issuesOf(mutate: (catalog: TCatalog) => void): string[] {
  const catalog = structuredClone(tiny());
  mutate(catalog);
  try {
    parseCatalog(catalog);
    return [];
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    return error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
  }
}

const lamp = (c: TCatalog) => {
  const system = c.systems[0];
  if (system === undefined) throw new Error("tiny catalog has a system");
  return system;
};
const step = (c: TCatalog, i: number) => {
  const s = lamp(c).procedure.steps[i];
  if (s === undefined) throw new Error(`tiny catalog has step ${i}`);
  return s;
};

describe("the RV service catalog", () => {
  it("is valid and parsing leaves it unchanged", () => {
    expect(parseCatalog(RV_SERVICE_CATALOG)).toEqual(RV_SERVICE_CATALOG);
  });

  it("is catalogs/rv-service.json, its one source", () => {
    const { translations, ...base } = RV_SERVICE_CATALOG;
    const systems = base.systems.map(({ examples: _, ...system }) => system);
    expect(JSON.parse(readFileSync(JSON_PATH, "utf8"))).toEqual({ ...base, systems });
    // its translations are data files beside it, one per language
    expect(translations?.map((t) => t.language)).toEqual(["de", "es", "ru"]);
    for (const t of translations ?? [])
      expect(JSON.parse(readFileSync(JSON_PATH.replace(".json", `.${t.language}.json`), "utf8"))).toEqual(t);
  });

  it("ships the four systems with 5–10 steps each", () => {
    expect(RV_SERVICE_CATALOG.systems.map((s) => s.id)).toEqual(["water_pump", "roof_ac", "furnace", "slide_out"]);
    for (const system of RV_SERVICE_CATALOG.systems) {
      expect(system.procedure.steps.length).toBeGreaterThanOrEqual(5);
      expect(system.procedure.steps.length).toBeLessThanOrEqual(10);
    }
  });

  it("gives every system safety and warranty constraints, and a warranty escalation somewhere", () => {
    for (const system of RV_SERVICE_CATALOG.systems) {
      expect(system.constraints.safety.length).toBeGreaterThan(0);
      expect(system.constraints.warranty.length).toBeGreaterThan(0);
      const escalations = system.procedure.steps.flatMap((s) => s.answers).filter((a) => a.escalate === "warranty");
      expect(escalations.length, system.id).toBeGreaterThan(0);
    }
  });

  it("has a branch in every system, and every path to the report names a cause and a correction", () => {
    for (const system of RV_SERVICE_CATALOG.systems) {
      const steps = system.procedure.steps;
      const branches = steps.filter((s) => s.requires !== undefined || s.answers.some((a) => a.next !== undefined));
      expect(branches.length, system.id).toBeGreaterThan(0);
      for (const answer of steps.flatMap((s) => s.answers).filter((a) => a.next === "report")) {
        expect(answer.cause, `${system.id} ${answer.finding}`).toBeDefined();
        expect(answer.correction, `${system.id} ${answer.finding}`).toBeDefined();
      }
      // The last step always ends the diagnosis explicitly.
      for (const answer of steps[steps.length - 1]?.answers ?? []) expect(answer.next).toBe("report");
    }
  });

  it("contains the constraints the ADR's examples name", () => {
    const texts = RV_SERVICE_CATALOG.systems
      .flatMap((s) => [...s.constraints.safety, ...s.constraints.warranty])
      .map((c) => c.text);
    expect(texts.some((t) => /shore power/i.test(t) && /shroud/i.test(t))).toBe(true);
    expect(texts.some((t) => /never bypass the furnace limit switch/i.test(t))).toBe(true);
    expect(texts.some((t) => /smells LP/i.test(t))).toBe(true);
    expect(texts.some((t) => /sealed refrigerant circuit/i.test(t) && /dealer/i.test(t))).toBe(true);
  });
});

describe("catalog validation", () => {
  it("accepts the tiny catalog", () => {
    expect(issuesOf(() => {})).toEqual([]);
  });

  it.each<[string, (c: TCatalog) => void, string]>([
    [
      "an unknown next id",
      (c) => {
        step(c, 0).answers[0] = { id: "yes", patterns: ["yes"], finding: "plug=yes", next: "fuse" };
      },
      'systems.0.procedure.steps.0.answers.0.next: unknown step id "fuse" (use a step id or "report")',
    ],
    [
      "a next pointing backwards (a possible loop)",
      (c) => {
        step(c, 1).answers[0] = { id: "good", patterns: ["good"], finding: "bulb=good", next: "plug" };
      },
      'systems.0.procedure.steps.1.answers.0.next: must point forward to a later step or "report" ("plug" is not after this step)',
    ],
    [
      "a next pointing at its own step",
      (c) => {
        step(c, 1).default_next = "bulb";
      },
      'systems.0.procedure.steps.1.default_next: must point forward to a later step or "report" ("bulb" is not after this step)',
    ],
    [
      "a duplicate step id",
      (c) => {
        step(c, 1).id = "plug";
      },
      'systems.0.procedure.steps: duplicate step id "plug"',
    ],
    [
      "a duplicate answer id",
      (c) => {
        const a = step(c, 0).answers[1];
        if (a) a.id = "yes";
      },
      'systems.0.procedure.steps.0.answers: duplicate answer id "yes"',
    ],
    [
      "two answers offered with the same label",
      (c) => {
        const [first, second] = step(c, 0).answers;
        if (first && second) {
          first.label = "Plugged in";
          second.label = "plugged  IN";
        }
      },
      'systems.0.procedure.steps.0.answers: two answers are offered as "plugged in": labels must differ',
    ],
    [
      "a duplicate system id",
      (c) => {
        c.systems.push(structuredClone(lamp(c)));
      },
      'systems: duplicate system id "lamp"',
    ],
    [
      "an empty procedure",
      (c) => {
        lamp(c).procedure.steps = [];
      },
      "systems.0.procedure.steps: empty procedure: must list at least one step",
    ],
    [
      "a step without answers",
      (c) => {
        step(c, 1).answers = [];
      },
      "systems.0.procedure.steps.1.answers: must offer at least one answer",
    ],
    [
      "a finding that is not key=value",
      (c) => {
        const a = step(c, 0).answers[0];
        if (a) a.finding = "plugged";
      },
      'systems.0.procedure.steps.0.answers.0.finding: must be "key=value" (e.g. "pump_runs=no")',
    ],
    [
      "two evidence keys in one step",
      (c) => {
        const a = step(c, 0).answers[1];
        if (a) a.finding = "outlet=dead";
      },
      "systems.0.procedure.steps.0.answers: all answers of a step record the same evidence key (found plug, outlet)",
    ],
    [
      "an evidence key shared by two steps",
      (c) => {
        step(c, 1).answers = [{ id: "good", patterns: ["good"], finding: "plug=good" }];
      },
      'systems.0.procedure.steps: evidence key "plug" is used by two steps',
    ],
    [
      "the same pattern in two answers",
      (c) => {
        const a = step(c, 0).answers[1];
        if (a) a.patterns = ["no", "Plugged  in"];
      },
      'systems.0.procedure.steps.0.answers: pattern "plugged in" belongs to more than one answer',
    ],
    [
      "a pattern with no words",
      (c) => {
        const a = step(c, 0).answers[1];
        if (a) a.patterns = ["?!"];
      },
      "systems.0.procedure.steps.0.answers.1.patterns.0: must contain at least one letter or digit",
    ],
    [
      "requires naming a finding no earlier step records",
      (c) => {
        step(c, 1).requires = { finding: "bulb=bad" };
      },
      'systems.0.procedure.steps.1.requires.finding: no earlier step records "bulb=bad"',
    ],
    [
      "an unknown constraint id",
      (c) => {
        step(c, 1).constraints = ["gloves"];
      },
      'systems.0.procedure.steps.1.constraints.0: unknown constraint id "gloves"',
    ],
    [
      'a step called "report"',
      (c) => {
        step(c, 1).id = "report";
      },
      'systems.0.procedure.steps.1.id: "report" is reserved for the end of a procedure',
    ],
    [
      "an id with capitals",
      (c) => {
        lamp(c).id = "Lamp";
      },
      'systems.0.id: must start with a lowercase letter, then lowercase letters, digits or "_"',
    ],
    [
      "an unknown field",
      (c) => {
        Object.assign(step(c, 0), { regex: "^yes$" });
      },
      'systems.0.procedure.steps.0: Unrecognized key: "regex"',
    ],
    [
      "a doctrine naming a finding no step records",
      (c) => {
        lamp(c).doctrine = [
          { id: "d", rule: "A good bulb is kept.", when: "bulb=new", rules_out: ["bulb=bad"], instead: "plug=no" },
        ];
      },
      'systems.0.doctrine.0.when: no step records "bulb=new"',
    ],
    [
      "a doctrine concluding on a finding without a cause",
      (c) => {
        lamp(c).doctrine = [
          { id: "d", rule: "A plugged lamp is kept.", when: "plug=yes", rules_out: ["bulb=bad"], instead: "plug=yes" },
        ];
      },
      "systems.0.doctrine.0.instead: must be a finding with a cause and correction",
    ],
    [
      "an example recording a step the procedure lacks",
      (c) => {
        lamp(c).examples = [{ text: "fuse is fine", records: [{ step: "fuse", answer: "ok" }] }];
      },
      'systems.0.examples.0.records.0.step: unknown step id "fuse"',
    ],
    [
      "an example recording an answer its step lacks",
      (c) => {
        lamp(c).examples = [{ text: "bulb flickers", records: [{ step: "bulb", answer: "flickers" }] }];
      },
      'systems.0.examples.0.records.0.answer: step "bulb" has no answer "flickers"',
    ],
    [
      "an empty example",
      (c) => {
        lamp(c).examples = [{ text: "  ", records: [] }];
      },
      "systems.0.examples.0.text: must not be empty",
    ],
  ])("rejects %s", (_name, mutate, issue) => {
    expect(issuesOf(mutate)).toContain(issue);
  });

  it("lists every problem at once", () => {
    const issues = issuesOf((c) => {
      step(c, 1).id = "plug";
      step(c, 1).constraints = ["gloves"];
    });
    expect(issues.length).toBeGreaterThanOrEqual(2);
  });
});
