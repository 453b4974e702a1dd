// ADR 004's strictness tests, from the pipeline's side: the context engine is the SINGLE flow
// authority. The control plane and the web app import no flow internals of the engine, only one
// module calls its transitions, nothing outside the engine assigns its state, and what a turn
// stores, returns and tells the model is exactly contextTurn's result, with no second path (no
// answer from CFBs, no step chosen elsewhere).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { contextTurn, RV_SERVICE_CATALOG, startContext, type TContextState } from "@solserver/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { respondToTurn } from "../src/index";
import { createOfflineModel } from "../src/model/offline-model";
import type { TModelInput, TModelProvider } from "../src/model/provider";
import { openTestControlPlane, type TTestActor, testCfb } from "../src/testing";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SOURCES = ["packages/control-plane/src", "packages/db/src", "apps/web/src"];

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.tsx?$/.test(f) && !f.includes("generated"))
    .map((f) => path.join(dir, f));
}
const files = SOURCES.flatMap(sourceFiles);
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** Names imported from @solserver/engine, per file. */
function engineImports(source: string): string[] {
  return [...source.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"@solserver\/engine"/g)].flatMap((m) =>
    (m[1] ?? "")
      .split(",")
      .map((n) => n.replace(/^\s*type\s+/, "").trim())
      .filter(Boolean),
  );
}

/** What the pipeline may use of the context engine: its transitions, data lookups and types. */
const ALLOWED = new Set([
  // transitions (only procedures/procedure-turn.ts calls them, below)
  "startContext",
  "contextTurn",
  // data provider functions and validation
  "detectSystem",
  "getSystem",
  "getStep",
  "optionsOf",
  "recordedAnswer",
  "parseContextState",
  "ContextEngineError",
  "RV_SERVICE_CATALOG",
  "ZCatalog",
  "withExamples",
  // the warm-up: trains a system's learned reader before the first message needs it
  "trainSystemReader",
  // the technician's language: the catalog's texts in it and the packs' reply wording
  "localSystem",
  "LANGUAGE_PACKS",
  "fillTemplate",
  // types
  "TCatalog",
  "TContextState",
  "TContextTurn",
  "TContextEvent",
  "TContextMode",
  "TDirective",
  "TReport",
  "TStep",
  "TLanguagePack",
  // the selector step's router (seed 001 §7.1): picks a domain, not a step
  "routeTurn",
  "buildRouter",
  "domainExamples",
  "TRoute",
  "TRouter",
  // the breakpoint engine and memento operations (seed 000), not flow of a diagnosis
  "decideBreakpointAction",
  "shouldFreezeSummaryAtPeak",
  "isAckOnlyMessage",
  "emptyMemento",
  "messageIntensity",
  "nextShape",
  "recordUserAffect",
  "TMementoShape",
]);

/** Assignments to the context engine's state fields (the engine's own authority test uses the same). */
const STATE_WRITE =
  /\.(active_step|submode|completed|topic_stack|evidence_log|guard|labor|complaint|reasks|more_info_asked_last|last_directive_kind)\s*(=[^=>]|\+=|-=)/;

describe("single flow authority in the pipeline (ADR acceptance criterion 6)", () => {
  it("scans the pipeline's sources", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain("packages/control-plane/src/procedures/procedure-turn.ts");
  });

  it("imports nothing of the engine but its transitions, data lookups and types", () => {
    for (const file of files) {
      const names = engineImports(read(file));
      expect(
        names.filter((n) => !ALLOWED.has(n)),
        file,
      ).toEqual([]);
      expect(read(file), file).not.toMatch(/from\s+"(@solserver\/engine\/|[^"]*packages\/engine\/src)/);
    }
  });

  it("only procedures/procedure-turn.ts calls the engine's transitions", () => {
    const callers = files.filter((f) => /\b(contextTurn|startContext)\s*\(/.test(read(f)));
    expect(callers).toEqual(["packages/control-plane/src/procedures/procedure-turn.ts"]);
  });

  it("nothing outside the engine assigns the engine's state", () => {
    for (const file of files) {
      const offending = read(file)
        .split("\n")
        .filter((line) => STATE_WRITE.test(line));
      expect(offending, file).toEqual([]);
    }
  });

  it("the legacy flow of the ADR exists nowhere", () => {
    for (const file of files)
      expect(read(file), file).not.toMatch(/processUserMessage|shouldPivot|initializeCase|markContextStepCompleted/);
  });
});

describe("a turn's decisions are exactly the engine's", () => {
  const offline = createOfflineModel();
  const seen: TModelInput[] = [];
  const model: TModelProvider = {
    name: "recording-offline",
    generate(input, options) {
      seen.push(input);
      return offline.generate(input, options);
    },
  };
  let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
  let tech: TTestActor;

  beforeAll(async () => {
    opened = await openTestControlPlane({ label: "authority", model, limits: { chatTurnsPerMinute: 1000 } });
    tech = await opened.account("user");
    // Knowledge that matches the technician's question: a second authority would answer from it.
    await opened.repos.cfbs.create(
      testCfb({
        domain: "rv_service",
        title: "Where is the fuse panel",
        summary: "The fuse panel is in the garage of the main office.",
        tags: ["fuse", "panel"],
      }),
    );
  });
  afterAll(async () => opened?.close());

  it("stored state, returned view and the model's directive equal a replay through contextTurn", async () => {
    const messages = [
      "The water pump won't run at all",
      "where is the fuse panel?",
      "fuse is good",
      "hmm",
      "12 volts",
      "actually wait, the fuse was blown",
    ];
    let threadId: string | undefined;
    let expected: TContextState = startContext(RV_SERVICE_CATALOG, "water_pump");
    for (const [i, message] of messages.entries()) {
      const before = seen.length;
      const res = await respondToTurn(opened.as(tech), {
        request_id: `authority-${i}`,
        message,
        ...(threadId ? { thread_id: threadId } : { procedure: "water_pump" }),
      });
      threadId = res.thread_id;
      const engine = contextTurn(RV_SERVICE_CATALOG, expected, message);
      expected = engine.state;

      const row = await opened.db.conversationContext.findUniqueOrThrow({ where: { threadId } });
      expect(row.state, message).toEqual(expected);
      expect(row.version).toBe(i + 1);
      expect(res.procedure?.mode).toBe(expected.mode);
      expect(res.procedure?.submode).toBe(expected.submode);
      expect(res.procedure?.active_step?.id ?? null).toBe(expected.mode === "diagnostic" ? expected.active_step : null);
      expect(res.procedure?.completed_steps.map((s) => s.id)).toEqual(expected.completed);
      expect(res.procedure?.directive_kind).toBe(engine.directive.kind);

      const given = seen[before]?.procedure;
      expect(given?.kind).toBe("directive");
      if (given?.kind === "directive") {
        expect(given.directive).toEqual(engine.directive);
        expect(given.events).toEqual(engine.events);
      }
    }
  });

  it("a clarification is answered from the catalog, never from CFBs (no second authority)", async () => {
    const first = await respondToTurn(opened.as(tech), {
      request_id: "authority-cfb-1",
      message: "The water pump won't run",
      procedure: "water_pump",
    });
    const before = seen.length;
    const res = await respondToTurn(opened.as(tech), {
      request_id: "authority-cfb-2",
      message: "where is the fuse panel?",
      thread_id: first.thread_id,
    });
    // The CFB was injected (retrieval still runs) but the answer is the registry's locate text.
    expect(seen[before]?.cfbs.map((c) => c.title)).toContain("Where is the fuse panel");
    expect(res.assistant_text).toContain("converter / distribution centre");
    expect(res.assistant_text).not.toContain("garage of the main office");
    const meta = await opened.db.responseMeta.findUniqueOrThrow({ where: { responseId: res.response_id } });
    expect(meta.usedCfbIds).toEqual([]);
    expect(meta.modeLabel).toBe("Procedure");
  });
});
