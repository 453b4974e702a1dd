// SOLSERVER_PROCEDURE_CATALOG: an operator's own procedure catalog, in YAML or JSON, validated
// whole at start-up (errors name the variable, the file, the key path and the rule), and used by
// the turn pipeline in place of the shipped RV catalog.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { RV_SERVICE_CATALOG } from "@solserver/engine";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { loadServerEnv } from "../src/env";
import { getProcedureCatalog, respondToTurn } from "../src/index";
import { openTestControlPlane } from "../src/testing";

const dir = mkdtempSync(path.join(tmpdir(), "solserver-catalog-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A two-step catalog for a generator: does it crank, does it start. */
const GENERATOR = {
  id: "genset_desk",
  title: "Generator desk",
  systems: [
    {
      id: "generator",
      name: "Onan generator",
      detect: { keywords: ["generator", "genset"] },
      procedure: {
        id: "generator_start",
        title: "Generator will not start",
        steps: [
          {
            id: "cranks",
            question: "Does the generator crank when you press START?",
            howto: "Hold START for 5 seconds and listen for the starter.",
            answers: [
              { id: "yes", label: "It cranks", patterns: ["yes", "cranks"], finding: "cranks=yes" },
              {
                id: "no",
                label: "No crank",
                patterns: ["no", "no crank"],
                finding: "cranks=no",
                next: "report",
                cause: "No crank: starting battery or starter.",
                correction: "Charge or replace the starting battery.",
              },
            ],
          },
          {
            id: "fuel",
            question: "Is the fuel tank above a quarter?",
            howto: "Generators stop drawing fuel below a quarter tank by design.",
            answers: [
              {
                id: "yes",
                patterns: ["yes", "above"],
                finding: "fuel=ok",
                cause: "Unknown.",
                correction: "Call Onan.",
              },
              {
                id: "no",
                patterns: ["no", "below"],
                finding: "fuel=low",
                cause: "Fuel below the pickup.",
                correction: "Refuel above a quarter tank.",
              },
            ],
          },
        ],
      },
      constraints: {
        safety: [{ id: "co", text: "Never run it with the exhaust blocked.", always: true }],
        warranty: [],
      },
    },
  ],
};

function write(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

const envWith = (catalog: string) =>
  loadServerEnv({ BETTER_AUTH_SECRET: "x".repeat(40), SOLSERVER_PROCEDURE_CATALOG: catalog });

describe("SOLSERVER_PROCEDURE_CATALOG", () => {
  it("defaults to the shipped RV catalog", () => {
    expect(loadServerEnv({ BETTER_AUTH_SECRET: "x".repeat(40) }).catalog).toBe(RV_SERVICE_CATALOG);
  });

  it("loads a YAML catalog", () => {
    const env = envWith(write("generator.yaml", stringify(GENERATOR)));
    expect(env.catalog.systems.map((s) => s.id)).toEqual(["generator"]);
    expect(env.catalog.systems[0]?.procedure.steps.map((s) => s.id)).toEqual(["cranks", "fuel"]);
  });

  it("loads the shipped JSON catalog from its path relative to the repository root", () => {
    expect(envWith("packages/engine/catalogs/rv-service.json").catalog).toEqual(RV_SERVICE_CATALOG);
  });

  it("refuses a catalog whose flow could loop, naming the variable, the file, the key and the rule", () => {
    const broken = structuredClone(GENERATOR);
    const fuel = broken.systems[0]?.procedure.steps[1];
    if (fuel?.answers[0]) Object.assign(fuel.answers[0], { next: "cranks" });
    const file = write("loop.json", JSON.stringify(broken));
    expect(() => envWith(file)).toThrow(
      `SOLSERVER_PROCEDURE_CATALOG: ${file}: systems.0.procedure.steps.1.answers.0.next: must point forward to a later step or "report" ("cranks" is not after this step)`,
    );
  });

  it("takes its systems' examples from the labelled conversations beside it, tune split only", () => {
    const turns = (message: string, answer: string) => [
      { message: "generator won't start", expect: { kind: "complaint" } },
      { message, expect: { kind: "answer", records: [{ step: "cranks", answer }] } },
    ];
    write(
      "taught.conversations.json",
      JSON.stringify({
        conversations: [
          { id: "t1", system: "generator", split: "tune", turns: turns("starter just clicks", "no") },
          { id: "h1", system: "generator", split: "holdout", turns: turns("starter whirs", "yes") },
        ],
      }),
    );
    const env = envWith(write("taught.json", JSON.stringify(GENERATOR)));
    expect(env.catalog.systems[0]?.examples).toEqual([
      { text: "starter just clicks", records: [{ step: "cranks", answer: "no" }] },
    ]);
  });

  it("refuses labelled conversations it cannot read, naming that file and the key", () => {
    const conversations = write("odd.conversations.json", JSON.stringify({ conversations: [{ system: "generator" }] }));
    expect(() => envWith(write("odd.json", JSON.stringify(GENERATOR)))).toThrow(
      `SOLSERVER_PROCEDURE_CATALOG: ${conversations}: conversations.0.split:`,
    );
  });

  it("refuses a missing file and a file that is not YAML", () => {
    expect(() => envWith(path.join(dir, "nope.yaml"))).toThrow(
      /SOLSERVER_PROCEDURE_CATALOG: .*nope\.yaml: cannot read the procedure catalog \(ENOENT\)/,
    );
    expect(() => envWith(write("bad.yaml", "systems: [\n  - id: x\n  bad"))).toThrow(/not valid YAML or JSON/);
  });

  it("drives procedure mode with its own systems", async () => {
    const cp = await openTestControlPlane({
      label: "catalog-file",
      catalog: envWith(write("g.yaml", stringify(GENERATOR))).catalog,
    });
    try {
      const tech = await cp.account("user");
      const catalog = getProcedureCatalog(cp.as(tech));
      expect(catalog).toMatchObject({ catalog_id: "genset_desk", systems: [{ system_id: "generator", steps: 2 }] });
      const first = await respondToTurn(cp.as(tech), {
        request_id: "gen-1",
        message: "The genset will not start",
        procedure: "auto",
      });
      expect(first.procedure).toMatchObject({ system_id: "generator", active_step: { id: "cranks" } });
      expect(first.assistant_text).toContain("⚠ Safety: Never run it with the exhaust blocked.");
      const second = await respondToTurn(cp.as(tech), {
        request_id: "gen-2",
        message: "No crank",
        thread_id: first.thread_id,
      });
      expect(second.procedure?.mode).toBe("authorization");
      expect(second.assistant_text).toContain("Charge or replace the starting battery.");
      await expect(
        respondToTurn(cp.as(tech), { request_id: "gen-3", message: "pump is dead", procedure: "water_pump" }),
      ).rejects.toMatchObject({ code: "BAD_INPUT", field: "procedure" });
    } finally {
      await cp.close();
    }
  });
});
