// How the offline model words the context engine's directives (model/procedure-text.ts), and the
// procedure section of the chat models' system prompt (model/prompt.ts). Every directive is
// produced by real engine turns on the shipped RV catalog (startContext / contextTurn): ask_step
// (options, ⚠ constraint lines, noted findings, unclear replies), clarifications on a step and
// during authorization, replans, authorization requests, rephrasings, final reports, warranty and
// loop-guard escalations, and the choose-system question.

import { MAX_MESSAGE_CHARS } from "@solserver/contracts";
import {
  contextTurn,
  getStep,
  getSystem,
  MAX_MESSAGE_CHARS_READ,
  RV_SERVICE_CATALOG,
  startContext,
  type TCatalog,
  type TContextTurn,
  type TReport,
  type TStep,
} from "@solserver/engine";
import { describe, expect, it } from "vitest";
import { procedureReply, reportText } from "../src/model/procedure-text";
import { buildSystemPrompt } from "../src/model/prompt";
import type { TModelInput } from "../src/model/provider";
import { modelDirective } from "../src/procedures/procedure-turn";

const AUTHORIZATION_QUESTION = "Do you authorize the repair? Answer yes or no.";
const COMPLAINT = "The fresh water system stopped working this morning.";

/** The engine's last turn after `messages` (the first is the complaint). */
function engineTurn(messages: string[], systemId = "water_pump", catalog: TCatalog = RV_SERVICE_CATALOG): TContextTurn {
  let state = startContext(catalog, systemId);
  let last: TContextTurn | null = null;
  for (const message of messages) {
    last = contextTurn(catalog, state, message);
    state = last.state;
  }
  if (last === null) throw new Error("engineTurn needs at least one message");
  return last;
}

/** What the control plane hands the model for an engine turn (procedure-turn.ts's own builder). */
const modelProcedure = (turn: TContextTurn, catalog: TCatalog = RV_SERVICE_CATALOG) => modelDirective(catalog, turn);

/** The offline reply to the last of `messages`, as lines, with the engine turn behind it. */
function reply(messages: string[], systemId = "water_pump", catalog: TCatalog = RV_SERVICE_CATALOG) {
  const turn = engineTurn(messages, systemId, catalog);
  return { turn, lines: procedureReply(modelProcedure(turn, catalog)).split("\n") };
}

function pumpStep(id: string): TStep {
  const step = getStep(RV_SERVICE_CATALOG, "water_pump", id);
  if (step === null) throw new Error(`no water_pump step ${id}`);
  return step;
}

function answerOf(step: TStep, finding: string) {
  const answer = step.answers.find((a) => a.finding === finding);
  if (answer === undefined) throw new Error(`no answer ${finding} on ${step.id}`);
  return answer;
}

const optionsLine = (step: TStep) => `Answer with one of: ${step.answers.map((a) => a.label ?? a.id).join(" / ")}.`;
const warningLines = (constraints: string[]) => constraints.map((c) => `⚠ ${c}`);

const FUSE = pumpStep("fuse");
const VOLTAGE = pumpStep("voltage_at_pump");
const SWITCH = pumpStep("pump_switch");
const RUNS = pumpStep("pump_runs");
const STRAINER = pumpStep("strainer");
const PUMP_SYSTEM = getSystem(RV_SERVICE_CATALOG, "water_pump");
const PUMP_DEAD = answerOf(RUNS, "pump_runs=no");

/** Messages that take the water-pump case to its authorization request (pump motor dead). */
/** The catalog's finding keys of the pump system as their answers read (what a report shows). */
const LABELS = Object.fromEntries(
  (PUMP_SYSTEM?.procedure.steps ?? []).flatMap((step) =>
    step.answers.flatMap((a) => (a.label ? [[a.finding, a.label]] : [])),
  ),
);
const TO_AUTHORIZATION = [COMPLAINT, "fuse is good", "12 volts", "no, it doesn't run"];

describe("the engine reads the whole message", () => {
  it("up to the chat API's message limit (one limit, two packages: the engine imports no contracts)", () => {
    expect(MAX_MESSAGE_CHARS_READ).toBe(MAX_MESSAGE_CHARS);
  });
});

describe("ask_step", () => {
  it("the complaint turn: the procedure, the first step, its options and the warranty line", () => {
    const { turn, lines } = reply([COMPLAINT]);
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "fuse" });
    expect(lines).toEqual([
      `Let's diagnose the 12 V fresh-water pump step by step (${PUMP_SYSTEM?.procedure.title}).`,
      FUSE.question,
      optionsLine(FUSE),
      ...warningLines(turn.directive.constraints),
    ]);
    expect(turn.directive.constraints).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/^⚠ Warranty: The pump is under its manufacturer's warranty/);
  });

  it("a step with a safety constraint gets one ⚠ line per constraint, after the recorded answer", () => {
    const { turn, lines } = reply([COMPLAINT, "fuse is good", "no voltage"]);
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "pump_switch" });
    expect(turn.directive.constraints).toHaveLength(2);
    expect(lines).toEqual([
      "Recorded: No voltage.",
      SWITCH.question,
      optionsLine(SWITCH),
      "⚠ Safety: Set the battery disconnect off before removing or rewiring the pump switch or the pump.",
      expect.stringMatching(/^⚠ Warranty: /),
    ]);
  });

  it("findings stated in the complaint are recorded at once and said so; their steps are not asked", () => {
    const { turn, lines } = reply(["The water pump won't run. Fuse is fine and I have 12.6 V at the pump."]);
    expect(turn.state.evidence).toEqual({ fuse: "ok", pump_voltage: "ok" });
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "pump_runs" });
    expect(lines.slice(0, 3)).toEqual([
      `Let's diagnose the 12 V fresh-water pump step by step (${PUMP_SYSTEM?.procedure.title}).`,
      "From your description I recorded: Fuse intact / breaker on; About 12 V at the pump.",
      RUNS.question,
    ]);
  });

  it("several findings in one reply are all recorded; an unmatched reply says so; both ask the next open step", () => {
    const several = reply([COMPLAINT, "fuse is good, 12.6V at the pump"]);
    expect(several.turn.directive).toMatchObject({ kind: "ask_step", step_id: "pump_runs" });
    expect(several.lines.slice(0, 2)).toEqual([
      "Recorded: Fuse intact / breaker on; About 12 V at the pump.",
      RUNS.question,
    ]);
    const unclear = reply([COMPLAINT, "banana"]);
    expect(unclear.turn.directive.kind).toBe("ask_step");
    expect(unclear.lines.slice(0, 3)).toEqual([
      "I could not match that to an answer for this step.",
      FUSE.question,
      optionsLine(FUSE),
    ]);
  });
});

describe("non_answer", () => {
  it("nothing is recorded: the reason, how to check it and the skip offer, then the step again", () => {
    const { turn, lines } = reply([COMPLAINT, "no idea"]);
    expect(turn.directive).toMatchObject({ kind: "non_answer", step_id: "fuse" });
    expect(turn.state.evidence).toEqual({});
    expect(lines).toEqual([
      "Nothing is recorded for this step (the answer is not known).",
      `How to check it: ${FUSE.howto}`,
      'If you cannot check it now, say "skip" and it will be reported as not checked.',
      FUSE.question,
      optionsLine(FUSE),
    ]);
  });

  it("the second one passes the step as not checked and asks the next one", () => {
    const { turn, lines } = reply([COMPLAINT, "no idea", "no multimeter here"]);
    expect(turn.directive).toMatchObject({ kind: "ask_step", step_id: "voltage_at_pump" });
    expect(lines[0]).toBe(
      `Marked as not checked (no tool at hand): "${FUSE.question}". It will be listed in the report.`,
    );
    expect(lines).toContain(VOLTAGE.question);
  });

  it("in Spanish: the same reply in the technician's language, with the translated question", () => {
    const { turn, lines } = reply(["La bomba de agua no funciona", "ni idea"]);
    const es = RV_SERVICE_CATALOG.translations?.find((t) => t.language === "es")?.systems.water_pump?.steps?.fuse;
    expect(turn.state.language).toBe("es");
    expect(turn.directive.registry.question).toBe(es?.question);
    expect(lines[0]).toMatch(/^No se registr/);
    expect(lines).toContain(es?.question);
  });
});

describe("answer_clarification", () => {
  it.each([
    ["locate", "where is the fuse panel?", FUSE.locate],
    ["explain", "why?", FUSE.explain],
    ["howto", "how do I check the fuse?", FUSE.howto],
  ] as const)("%s: the registry text, then back to the step with its options", (topic, message, text) => {
    const { turn, lines } = reply([COMPLAINT, message]);
    expect(turn.directive).toMatchObject({ kind: "answer_clarification", step_id: "fuse", topic });
    expect(turn.state.submode).toBe(topic);
    expect(lines).toEqual([text, `Back to the step: ${FUSE.question}`, optionsLine(FUSE)]);
  });

  it("a step with no text for the topic points to the service manual", () => {
    const catalog = structuredClone(RV_SERVICE_CATALOG);
    const fuse = catalog.systems.find((s) => s.id === "water_pump")?.procedure.steps.find((s) => s.id === "fuse");
    if (fuse === undefined) throw new Error("no fuse step");
    delete fuse.locate;
    const { turn, lines } = reply([COMPLAINT, "where is the fuse panel?"], "water_pump", catalog);
    expect(turn.directive).toMatchObject({ kind: "answer_clarification", topic: "locate" });
    expect(lines[0]).toBe("The procedure has no location for this: check the unit's service manual.");
    expect(lines[1]).toBe(`Back to the step: ${FUSE.question}`);
  });

  it("during authorization: the registry text, then back to the repair, with no step options", () => {
    const { turn, lines } = reply([...TO_AUTHORIZATION, "why?"]);
    expect(turn.state.mode).toBe("authorization");
    expect(turn.directive).toMatchObject({ kind: "answer_clarification", step_id: "pump_runs", topic: "explain" });
    expect(lines).toEqual([RUNS.explain, `Back to the repair: ${AUTHORIZATION_QUESTION}`]);
  });
});

describe("replan", () => {
  it("a correction that changes the branch: what changed, the steps set aside, then the new branch's step", () => {
    const { turn, lines } = reply([COMPLAINT, "fuse is good", "12 volts", "actually wait, the fuse was blown"]);
    expect(turn.directive).toMatchObject({ kind: "replan", step_id: "fuse_recheck" });
    expect(turn.state.mode).toBe("diagnostic");
    expect(lines).toEqual([
      `You corrected an earlier answer: "Fuse intact / breaker on" is now "Fuse blown / breaker tripped". That changes the diagnosis, so we go back to: ${FUSE.question}`,
      "Steps set aside (asked again if still needed): voltage_at_pump.",
      pumpStep("fuse_recheck").question,
      optionsLine(pumpStep("fuse_recheck")),
      ...warningLines(turn.directive.constraints),
    ]);
  });

  it("a correction that changes the branch: what changed, then the next step of the new branch", () => {
    const { turn, lines } = reply([
      COMPLAINT,
      "fuse is good",
      "no voltage",
      "actually I rechecked, 12 volts at the pump",
    ]);
    expect(turn.directive).toMatchObject({ kind: "replan", step_id: "pump_runs" });
    expect(turn.state).toMatchObject({ mode: "diagnostic", submode: "replan", active_step: "pump_runs" });
    expect(lines).toEqual([
      `You corrected an earlier answer: "No voltage" is now "About 12 V at the pump". That changes the diagnosis, so we go back to: ${VOLTAGE.question}`,
      RUNS.question,
      optionsLine(RUNS),
      ...warningLines(turn.directive.constraints),
    ]);
    expect(lines.join("\n")).not.toContain("Steps set aside");
  });
});

describe("request_authorization and rephrase", () => {
  it("request_authorization: the recorded answer, the cause, the correction and the question", () => {
    const { turn, lines } = reply(TO_AUTHORIZATION);
    expect(turn.directive).toMatchObject({ kind: "request_authorization", step_id: "pump_runs" });
    expect(lines).toEqual([
      "Recorded: Pump does not run.",
      "The diagnosis is complete.",
      `Cause: ${PUMP_DEAD.cause}`,
      `Proposed correction: ${PUMP_DEAD.correction}`,
      AUTHORIZATION_QUESTION,
    ]);
  });

  it("rephrase of a step (second unclear reply): the how-to, the question and the options", () => {
    const { turn, lines } = reply([COMPLAINT, "banana", "banana"]);
    expect(turn.directive).toMatchObject({ kind: "rephrase", step_id: "fuse" });
    expect(lines).toEqual(["Let me put it another way.", FUSE.howto, FUSE.question, optionsLine(FUSE)]);
  });

  it("rephrase of the authorization: a plain yes or no, with the proposed correction", () => {
    const { turn, lines } = reply([...TO_AUTHORIZATION, "banana", "banana"]);
    expect(turn.directive.kind).toBe("rephrase");
    expect(turn.state.mode).toBe("authorization");
    expect(lines).toEqual([
      "I need a plain yes or no.",
      `Proposed correction: ${PUMP_DEAD.correction}`,
      AUTHORIZATION_QUESTION,
    ]);
  });
});

describe("final_report and reportText", () => {
  // The answers as the technician reads them, never the catalog's keys (fuse=ok, ...).
  const steps = [
    `1. ${FUSE.question} → Fuse intact / breaker on`,
    `2. ${VOLTAGE.question} → About 12 V at the pump`,
    `3. ${RUNS.question} → Pump does not run`,
  ];

  it("authorized: the whole report, ending with the authorization", () => {
    const { turn, lines } = reply([...TO_AUTHORIZATION, "yes"]);
    expect(turn.directive.kind).toBe("final_report");
    expect(turn.directive.report?.authorized).toBe(true);
    expect(lines).toEqual([
      "Final report",
      `Complaint: ${COMPLAINT}`,
      `Cause: ${PUMP_DEAD.cause}`,
      `Correction: ${PUMP_DEAD.correction}`,
      "Steps performed:",
      ...steps,
      "Labor (draft): 20 min",
      "Repair authorized.",
    ]);
    expect(lines).toEqual(reportText(turn.directive.report as TReport, LABELS));
    // Without labels (a catalog whose answers have none) the record's keys are shown.
    expect(reportText(turn.directive.report as TReport)).toContain(`3. ${RUNS.question} → pump_runs=no`);
  });

  it("not authorized: the correction is only a recommendation", () => {
    const { turn, lines } = reply([...TO_AUTHORIZATION, "no"]);
    expect(turn.directive.report?.authorized).toBe(false);
    expect(lines.at(-1)).toBe("Repair not authorized: the correction is a recommendation.");
    expect(lines).not.toContain("Repair authorized.");
    expect(lines.slice(5, 8)).toEqual(steps);
  });

  it("after the report: thanks changes nothing; a labor change and a note make revisions", () => {
    const thanks = reply([...TO_AUTHORIZATION, "yes", "thanks"]);
    expect(thanks.turn.directive).toMatchObject({ kind: "report_update", update: "none" });
    expect(thanks.lines).toEqual(["The report stands as written. Tell me if anything needs correcting."]);
    const labor = reply([...TO_AUTHORIZATION, "yes", "labor was 45 minutes"]);
    expect(labor.turn.state.report?.revision).toBe(2);
    expect(labor.lines[0]).toBe("Labor updated: 45 min.");
    expect(labor.lines[1]).toBe("Final report, revision 2 (labor changed)");
    expect(labor.lines).toContain("Labor (draft): 45 min");
    const note = reply([...TO_AUTHORIZATION, "yes", "customer wants the old pump back"]);
    expect(note.lines[0]).toBe("Added to the report as a technician note.");
    expect(note.lines).toContain("Technician notes:");
    expect(note.lines).toContain("- customer wants the old pump back");
  });

  it("a report in another language: English first, then the copy in the technician's language", () => {
    const { turn, lines } = reply([
      "la bomba de agua no funciona",
      "el fusible esta bien",
      "12 voltios",
      "no funciona",
      "si",
    ]);
    expect(turn.state.report?.translation?.language).toBe("es");
    expect(lines[0]).toBe("Final report");
    const copy = lines.indexOf("Copia en Español:");
    expect(copy).toBeGreaterThan(0);
    expect(lines.slice(copy + 1).join("\n")).toContain(turn.state.report?.translation?.cause ?? "?");
  });
});

describe("authorization_pending and safety_stop", () => {
  it("a cost question: not authorized yet, the labor so far, the diagnosis and the question again", () => {
    const { turn, lines } = reply([...TO_AUTHORIZATION, "sure, but how much will it cost?"]);
    expect(turn.directive).toMatchObject({ kind: "authorization_pending", pending: "cost" });
    expect(turn.state.mode).toBe("authorization");
    expect(lines).toEqual([
      "The repair is not authorized yet: the case waits here.",
      "The procedure has no prices. The labor estimate so far is 20 min; parts and rates come from your shop.",
      `Cause: ${PUMP_DEAD.cause}`,
      `Proposed correction: ${PUMP_DEAD.correction}`,
      AUTHORIZATION_QUESTION,
    ]);
  });

  it("a safety stop gives the catalog's instruction and no step", () => {
    const { turn, lines } = reply(["furnace blows cold air", "I smell propane"], "furnace");
    expect(turn.directive).toMatchObject({ kind: "safety_stop" });
    expect(lines[0]).toBe(`Stop: ${turn.directive.safety?.instruction}`);
    expect(lines[1]).toMatch(/^The diagnosis is on hold for safety\. Tell me when it is safe again/);
    expect(lines.join("\n")).not.toContain("Answer with one of");
  });
});

describe("escalate", () => {
  const TO_STRAINER = [COMPLAINT, "fuse is good", "12 volts", "runs but no water", "tank has water"];

  it("warranty: a clean strainer stops the diagnosis and sends the case to the dealer", () => {
    expect(engineTurn(TO_STRAINER).directive).toMatchObject({ kind: "ask_step", step_id: "strainer" });
    const { turn, lines } = reply([...TO_STRAINER, "clean"]);
    const clear = answerOf(STRAINER, "strainer=clear");
    expect(turn.directive).toMatchObject({ kind: "escalate", step_id: "strainer" });
    expect(turn.state.mode).toBe("final_report");
    expect(turn.directive.constraints).toHaveLength(4);
    expect(lines).toEqual([
      "Stop here: continuing is not allowed under warranty.",
      `Cause: ${clear.cause}`,
      `Escalate to the dealer: ${clear.correction}`,
      "Do not open, adjust or repair the component.",
      ...warningLines(turn.directive.constraints),
    ]);
    const report = reportText(turn.directive.report as TReport);
    expect(report.at(-1)).toBe("Escalated to the dealer under warranty: no repair was done.");
    expect(report).toContain("Steps performed:");
    expect(report).toContain(`5. ${STRAINER.question} → strainer=clear`);
  });

  it("loop guard on a step: the third unclear reply asks for a senior technician", () => {
    const { turn, lines } = reply([COMPLAINT, "banana", "banana", "banana"]);
    expect(turn.directive).toMatchObject({ kind: "escalate", step_id: "fuse" });
    expect(turn.events.map((e) => e.type)).toEqual(["intent", "loop_guard", "escalate"]);
    expect(lines).toEqual([
      `We have had 3 replies without a usable answer to "${FUSE.question}".`,
      "Please involve a senior technician or the dealer: the case stays open and continues as soon as they answer.",
    ]);
  });

  it("loop guard on the authorization request", () => {
    const { turn, lines } = reply([...TO_AUTHORIZATION, "banana", "banana", "banana"]);
    expect(turn.directive.kind).toBe("escalate");
    expect(turn.directive.step_id).toBeUndefined();
    expect(lines[0]).toBe("We have had 3 replies without a usable answer to the authorization request.");
  });
});

describe("choose_system", () => {
  it("lists every system with its first keyword and asks which one", () => {
    const systems = RV_SERVICE_CATALOG.systems.map((s) => ({ id: s.id, name: s.name, keywords: s.detect.keywords }));
    const text = procedureReply({ kind: "choose_system", systems });
    expect(text.startsWith("Which system is this about? I can guide a diagnosis of: ")).toBe(true);
    for (const s of systems) expect(text).toContain(`${s.name} (e.g. "${s.keywords[0]}")`);
    expect(text).toContain('12 V fresh-water pump (e.g. "water pump")');
    expect(text.endsWith("Describe the problem and name the system.")).toBe(true);
    // A system without keywords is named by its id.
    expect(
      procedureReply({ kind: "choose_system", systems: [{ id: "awning", name: "Awning", keywords: [] }] }),
    ).toContain('Awning (e.g. "awning")');
  });
});

describe("buildSystemPrompt: the procedure section", () => {
  const base: TModelInput = { message: "no voltage", history: [], cfbs: [] };

  it("carries the directive text, each constraint on its own line and the Procedure mode label", () => {
    const turn = engineTurn([COMPLAINT, "fuse is good", "no voltage"]);
    const prompt = buildSystemPrompt({ ...base, procedure: modelProcedure(turn) });
    const lines = prompt.split("\n");
    expect(turn.directive.constraints).toHaveLength(2);
    expect(lines).toContain(`Directive: ${turn.directive.text}`);
    for (const c of turn.directive.constraints) expect(lines).toContain(c);
    expect(prompt).toContain('"Procedure"');
    expect(lines).toContain(
      `## Diagnostic procedure: 12 V fresh-water pump (${PUMP_SYSTEM?.procedure.title}), mode diagnostic`,
    );
    const data = lines.find((l) => l.startsWith("Directive data: "));
    expect(JSON.parse((data ?? "").slice("Directive data: ".length))).toMatchObject({
      kind: "ask_step",
      step_id: "pump_switch",
      options: SWITCH.answers.map((a) => a.label),
    });
  });

  it("carries the report data for a final report", () => {
    const turn = engineTurn([...TO_AUTHORIZATION, "yes"]);
    const prompt = buildSystemPrompt({ ...base, procedure: modelProcedure(turn) });
    expect(prompt).toContain(`Directive: ${turn.directive.text}`);
    expect(prompt).toContain("mode final_report");
    expect(prompt).toContain(JSON.stringify(turn.directive.report));
  });

  it("lists the systems for choose_system", () => {
    const systems = RV_SERVICE_CATALOG.systems.map((s) => ({ id: s.id, name: s.name, keywords: s.detect.keywords }));
    const lines = buildSystemPrompt({ ...base, procedure: { kind: "choose_system", systems } }).split("\n");
    expect(lines).toContain("## Diagnostic procedure");
    for (const s of systems) expect(lines).toContain(`- ${s.name} (e.g. "${s.keywords[0]}")`);
    expect(lines.some((l) => l.startsWith("Directive:"))).toBe(false);
  });

  it("has no procedure section without a procedure", () => {
    for (const input of [base, { ...base, procedure: null }]) {
      const prompt = buildSystemPrompt(input);
      expect(prompt).not.toContain("Diagnostic procedure");
      expect(prompt).not.toContain('"Procedure"');
      expect(prompt).not.toContain("Directive:");
    }
  });
});
