// The procedure-mode scenario suite (issue 22): conversations typed the way technicians type,
// over all four systems, played through the API (respondToTurn) with the offline model on a real
// database. Each turn's expectations are checked on the procedure view the turn returns, and the
// offline model's reply is checked to be in the technician's language.
//
// The conversations are data, in test/fixtures/procedure-scenarios/:
//   development.json  written with the engine, used while it was built
//   held-out.json     written apart from the engine; used for tuning after its first measurement
//   held-out-2.json   written apart, measured once (45 of 81) before it was used for tuning
//   held-out-3.json   written apart; measured once (50 of 78) before anything was changed for it
//   held-out-4.json   written apart after that; measured once (58 of 63), never tuned on
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { TChatRespondResponse, TProcedureView } from "@solserver/contracts";
import { localSystem, RV_SERVICE_CATALOG } from "@solserver/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { respondToTurn } from "../src/index";
import { openTestControlPlane, type TTestActor } from "../src/testing";

type TExpect = {
  mode?: TProcedureView["mode"];
  active_step?: string | null;
  evidence?: Record<string, string | null>;
  unchecked?: string[];
  authorized?: boolean | null;
  report?: null;
  escalation?: "warranty" | "evidence" | null;
  resolution?: "fixed_by_technician";
  revision?: number;
  labor_minutes?: number;
  language?: string;
  safety_rule?: string;
  observation?: string;
};
type TScenario = { id: string; class: string; system: string; why: string; turns: { say: string; expect?: TExpect }[] };

const DIR = path.join(import.meta.dirname, "fixtures/procedure-scenarios");
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith(".json"))
  .sort();

/** What a view shows against what a turn expects: one line per difference. */
function differences(view: TProcedureView, e: TExpect): string[] {
  const out: string[] = [];
  const check = (name: string, want: unknown, got: unknown) => {
    if (JSON.stringify(want) !== JSON.stringify(got))
      out.push(`${name}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  };
  if (e.mode !== undefined) check("mode", e.mode, view.mode);
  if (e.active_step !== undefined) check("active_step", e.active_step, view.active_step?.id ?? null);
  for (const [key, value] of Object.entries(e.evidence ?? {}))
    check(`evidence.${key}`, value, view.evidence[key] ?? null);
  const passed = view.unchecked_steps.filter((s) => s.passed).map((s) => s.id);
  for (const id of e.unchecked ?? [])
    if (!passed.includes(id)) out.push(`unchecked: want ${id} among ${JSON.stringify(passed)}`);
  if (e.authorized !== undefined) check("authorized", e.authorized, view.report?.authorized ?? null);
  if (e.report === null) check("report", null, view.report === null ? null : "a report");
  if (e.escalation !== undefined) check("escalation", e.escalation, view.report?.escalation ?? null);
  if (e.resolution !== undefined) check("resolution", e.resolution, view.report?.resolution ?? null);
  if (e.revision !== undefined) check("revision", e.revision, view.report?.revision ?? null);
  if (e.labor_minutes !== undefined) check("labor_minutes", e.labor_minutes, view.report?.labor.draft_minutes ?? null);
  if (e.language !== undefined) check("language", e.language, view.language);
  if (e.safety_rule !== undefined) check("safety_rule", e.safety_rule, view.safety?.rule ?? null);
  if (e.observation !== undefined && !view.observations.some((o) => o.rule === e.observation))
    out.push(`observation: want ${e.observation} among ${JSON.stringify(view.observations.map((o) => o.rule))}`);
  return out;
}

/** A reply in another language asks the active step in that language (the catalog's translation). */
function languageProblems(view: TProcedureView, reply: string): string[] {
  if (view.language === "en" || view.active_step === null || view.mode !== "diagnostic") return [];
  const system = RV_SERVICE_CATALOG.systems.find((s) => s.id === view.system_id);
  if (system === undefined) return [];
  const local = localSystem(RV_SERVICE_CATALOG, system, view.language);
  const question = local.procedure.steps.find((s) => s.id === view.active_step?.id)?.question ?? "";
  return reply.includes(question) ? [] : [`reply is not in ${view.language}: it does not ask "${question}"`];
}

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let tech: TTestActor;
let n = 0;

beforeAll(async () => {
  opened = await openTestControlPlane({ label: "procedure-scenarios", limits: { chatTurnsPerMinute: 100_000 } });
  tech = await opened.account("user");
});
afterAll(async () => opened?.close());

/** Plays one conversation through the API; the differences from its expectations, turn by turn. */
async function play(scenario: TScenario): Promise<string[]> {
  let thread: string | undefined;
  const problems: string[] = [];
  for (const [i, t] of scenario.turns.entries()) {
    const response: TChatRespondResponse = await respondToTurn(opened.as(tech), {
      request_id: `scn-${process.pid}-${++n}`,
      message: t.say,
      ...(thread === undefined ? { procedure: scenario.system } : { thread_id: thread }),
    });
    thread = response.thread_id;
    const view = response.procedure;
    if (view === null) {
      problems.push(`turn ${i}: no procedure view`);
      break;
    }
    for (const d of [...differences(view, t.expect ?? {}), ...languageProblems(view, response.assistant_text)])
      problems.push(`turn ${i} ("${t.say.slice(0, 60)}"): ${d}`);
  }
  return problems;
}

const load = (file: string) => JSON.parse(readFileSync(path.join(DIR, file), "utf8")) as TScenario[];

/**
 * The measurement sets, each run once before anything was changed for it (the figures
 * docs/procedure-mode.md reports as held-out): held-out-3 passed 50 of 78, and the fixes its
 * failures then led to brought it to 76; held-out-4, written after those fixes, passed 58 of 63
 * at its first run and has not been tuned on. Neither may fall below where it stands.
 */
const MEASURED: Readonly<Record<string, number>> = { "held-out-3.json": 76, "held-out-4.json": 58 };

for (const file of FILES.filter((f) => !Object.hasOwn(MEASURED, f))) {
  const scenarios = load(file);
  describe(`${file} (${scenarios.length} conversations)`, () => {
    it.each(scenarios.map((s) => [`${s.id} [${s.class}] ${s.why}`, s] as const))("%s", async (_name, scenario) => {
      expect(await play(scenario)).toEqual([]);
    });
  });
}

for (const [file, floor] of Object.entries(MEASURED)) {
  describe(`${file}: a held-out measurement`, () => {
    it(`passes at least ${floor} conversations`, async () => {
      const scenarios = load(file);
      const failed: string[] = [];
      for (const scenario of scenarios) {
        const problems = await play(scenario);
        if (problems.length > 0) failed.push(`${scenario.id}: ${problems[0]}`);
      }
      const passed = scenarios.length - failed.length;
      expect(passed, `failed:\n${failed.join("\n")}`).toBeGreaterThanOrEqual(floor);
    }, 120_000);
  });
}

describe("the suite", () => {
  it("covers every class over all four systems, with at least 60 conversations", () => {
    const all = FILES.flatMap((f) => JSON.parse(readFileSync(path.join(DIR, f), "utf8")) as TScenario[]);
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
    const classes = new Set(all.map((s) => s.class));
    for (const c of [
      "non_answer",
      "consent",
      "correction_after_report",
      "free_evidence",
      "safety",
      "slang_yes_no",
      "readings",
      "self_correction",
      "multiple_findings",
      "fixed_works_now",
      "already_told",
      "first_message_findings",
      "clarification_other_part",
      "long_message",
      "spanish",
      "russian",
      "doctrine",
      "acceptance",
    ])
      expect(classes, c).toContain(c);
    const systems = new Set(all.map((s) => s.system));
    for (const s of ["water_pump", "roof_ac", "furnace", "slide_out"]) expect(systems, s).toContain(s);
  });
});
