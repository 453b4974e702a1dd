// ADR 004, acceptance criterion 6: the context engine is the SINGLE flow authority. The registry
// is a data provider only (it returns catalog data and prompt text, never a next step or a state),
// and engine.ts is the only module that exports transitions or writes the conversation state.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as catalogIndex from "../src/context/catalog-index";
import * as catalogSchema from "../src/context/catalog-schema";
import * as consent from "../src/context/consent";
import * as conversations from "../src/context/conversations";
import * as directive from "../src/context/directive";
import * as echo from "../src/context/echo";
import * as engine from "../src/context/engine";
import * as intent from "../src/context/intent";
import * as items from "../src/context/items";
import * as languagePack from "../src/context/language-pack";
import * as learnedAnswers from "../src/context/learned-answers";
import * as learnedReader from "../src/context/learned-reader";
import * as limits from "../src/context/limits";
import * as localize from "../src/context/localize";
import * as match from "../src/context/match";
import * as messageRead from "../src/context/message-read";
import * as phrases from "../src/context/phrases";
import * as readingSteps from "../src/context/reading-steps";
import * as readings from "../src/context/readings";
import * as registry from "../src/context/registry";
import * as report from "../src/context/report";
import * as rvCatalog from "../src/context/rv-catalog";
import * as speechActs from "../src/context/speech-acts";
import * as spelling from "../src/context/spelling";
import * as state from "../src/context/state";
import * as text from "../src/context/text";
import * as vocabulary from "../src/context/vocabulary";
import * as api from "../src/index";

const CONTEXT_DIR = path.resolve(import.meta.dirname, "../src/context");
const catalog = api.RV_SERVICE_CATALOG;

const MODULES: Record<string, Record<string, unknown>> = {
  "catalog-index": catalogIndex,
  "catalog-schema": catalogSchema,
  consent,
  conversations,
  directive,
  echo,
  engine,
  intent,
  items,
  "language-pack": languagePack,
  "learned-answers": learnedAnswers,
  "learned-reader": learnedReader,
  limits,
  localize,
  match,
  "message-read": messageRead,
  phrases,
  "reading-steps": readingSteps,
  readings,
  registry,
  report,
  "rv-catalog": rvCatalog,
  "speech-acts": speechActs,
  spelling,
  state,
  text,
  vocabulary,
};

/** Names that would mean a module decides flow. */
const TRANSITION_NAME = /turn|transition|advance|replan|pivot|next|settle|rollback|process|^start/i;
/** Fields of the conversation state: only engine.ts may assign them. */
const STATE_WRITE =
  /\.(active_step|mode|submode|completed|topic_stack|evidence|evidence_log|guard|labor|report|complaint|turn|reasks|more_info_asked_last|last_directive_kind|language|not_checked|pending_findings|safety|observations|report_history|reopened_because)\s*(=[^=>]|\+=|-=)/;

function functionsOf(module: Record<string, unknown>): string[] {
  return Object.entries(module)
    .filter(([, value]) => typeof value === "function" && !/^[A-Z]/.test((value as { name: string }).name))
    .map(([name]) => name)
    .sort();
}

describe("single flow authority (ADR acceptance criterion 6)", () => {
  it("the src/context folder holds exactly the modules checked here", () => {
    const files = readdirSync(CONTEXT_DIR)
      .filter((f) => f.endsWith(".ts") && f !== "index.ts")
      .map((f) => f.replace(/\.ts$/, ""))
      .sort();
    expect(files).toEqual(Object.keys(MODULES).sort());
  });

  it("the registry exports only data functions", () => {
    expect(functionsOf(registry)).toEqual([
      "buildStepContext",
      "detectSystem",
      "getConstraints",
      "getProcedure",
      "getStep",
      "getSystem",
    ]);
  });

  it("registry lookups return the catalog's own objects: nothing computed, no next step chosen", () => {
    const system = catalog.systems[0];
    expect(registry.getSystem(catalog, "water_pump")).toBe(system);
    expect(registry.getProcedure(catalog, "water_pump")).toBe(system?.procedure);
    expect(registry.getStep(catalog, "water_pump", "fuse")).toBe(system?.procedure.steps[0]);
  });

  it("the registry's computed results are text and scores only", () => {
    expect(Object.keys(registry.detectSystem(catalog, "water pump") ?? {}).sort()).toEqual(["score", "system_id"]);
    expect(Object.keys(registry.buildStepContext(catalog, "water_pump", "fuse") ?? {}).sort()).toEqual([
      "constraints",
      "explain",
      "howto",
      "locate",
      "question",
    ]);
    for (const line of registry.getConstraints(catalog, "water_pump")) expect(line).toMatch(/^(Safety|Warranty): /);
  });

  it("the registry does not import the engine, intents, state or directives", () => {
    const source = readFileSync(path.join(CONTEXT_DIR, "registry.ts"), "utf8");
    const imports = [...source.matchAll(/from\s+"([^"]+)"/g)].map((m) => m[1]).sort();
    // catalog data, every language's patterns (localize), and the text readers
    expect(imports).toEqual(["./catalog-schema", "./localize", "./text", "./vocabulary"]);
  });

  it("engine.ts exports exactly the two transitions; no other module exports one", () => {
    expect(functionsOf(engine)).toEqual(["contextTurn", "startContext"]);
    for (const [name, module] of Object.entries(MODULES)) {
      if (name === "engine") continue;
      expect(
        functionsOf(module).filter((fn) => TRANSITION_NAME.test(fn)),
        name,
      ).toEqual([]);
    }
  });

  it("only engine.ts writes the conversation state", () => {
    const engineWrites = readFileSync(path.join(CONTEXT_DIR, "engine.ts"), "utf8")
      .split("\n")
      .filter((line) => STATE_WRITE.test(line));
    expect(engineWrites.length).toBeGreaterThan(5); // the pattern does find state writes
    for (const file of readdirSync(CONTEXT_DIR).filter((f) => f.endsWith(".ts") && f !== "engine.ts")) {
      const offending = readFileSync(path.join(CONTEXT_DIR, file), "utf8")
        .split("\n")
        .filter((line) => STATE_WRITE.test(line));
      expect(offending, file).toEqual([]);
    }
  });

  it("the legacy flow functions of the ADR do not exist", () => {
    for (const legacy of ["processUserMessage", "shouldPivot", "initializeCase", "markContextStepCompleted"])
      expect(Object.keys(api)).not.toContain(legacy);
  });

  it("the public API exposes the engine's transitions and the registry's data functions", () => {
    for (const fn of [
      "startContext",
      "contextTurn",
      "detectSystem",
      "getProcedure",
      "buildStepContext",
      "parseCatalog",
    ])
      expect(typeof (api as Record<string, unknown>)[fn]).toBe("function");
  });

  it("a transition's result is the only place a next step appears", () => {
    const start = api.startContext(catalog, "water_pump");
    const turn = api.contextTurn(catalog, start, "water pump is dead");
    expect(Object.keys(turn).sort()).toEqual(["directive", "events", "state"]);
    expect(turn.directive.step_id).toBe(turn.state.active_step);
  });
});
