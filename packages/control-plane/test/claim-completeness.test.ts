// Strict means complete (issue 17): in a strict domain every sentence of assistant_text that
// states something must be covered by a claim, else the attempt is refused with
// CLAIM_MAP_INCOMPLETE and the next one is tried; elsewhere the uncovered sentences are a warning.
// What counts as a statement: services/claim-statements.ts (unit tests: claim-statements.test.ts).
//  - through the turn pipeline (real SQLite, the shipped routing: rv_service is strict) with a
//    scripted model: an empty map, a partial map (the issue's "30 A fuse … bypass it with a
//    wire"), a complete map, a greeting without claims, and the same answers in a non-strict domain;
//  - the offline model in rv_service: its answers (CFB answers, unknowns, proposals, acknowledgements,
//    guided diagnoses) are still delivered, and its envelopes are complete for any message;
//  - procedure mode: the offline wording of every kind of directive of the shipped catalog states
//    nothing beyond the directive, and a sentence of its own in a procedure answer is refused.
import type { TClaimMapEntry, TOutputMeta } from "@solserver/contracts";
import { prng } from "@solserver/db/testing";
import {
  contextTurn,
  DIRECTIVE_KINDS,
  RV_SERVICE_CATALOG,
  startContext,
  type TCatalog,
  type TContextState,
  type TContextTurn,
  type TStep,
} from "@solserver/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getThread, respondToTurn } from "../src/index";
import { offlineEnvelope } from "../src/model/offline-model";
import { procedureReply } from "../src/model/procedure-text";
import { procedureWording } from "../src/model/procedure-wording";
import type { TModelAttempt, TModelCfb, TModelInput, TModelProcedure } from "../src/model/provider";
import { modelDirective } from "../src/procedures/procedure-turn";
import { statementIndexes, uncoveredStatements } from "../src/services/claim-statements";
import type { TServiceDeps } from "../src/services/deps";
import { checkClaims, createClaimJudge } from "../src/services/turn/claims";
import {
  openTestControlPlane,
  scriptedProvider,
  type TScriptedMeta,
  type TTestActor,
  testCfb,
  testEnvelope,
  turnFailure,
} from "../src/testing";

const claim = (id: string, span: TClaimMapEntry["span"], support: TClaimMapEntry["support"]): TClaimMapEntry => ({
  claim_id: id,
  span,
  text: `Claim ${id}.`,
  support,
});

// The answer, as two sentences and as the one sentence it was measured with.
const FUSE = "The pump uses a 30 A fuse.";
const BYPASS = "You can bypass it with a wire.";
const TWO = `${FUSE} ${BYPASS}`;
const ONE = "The pump uses a 30 A fuse and you can bypass it with a wire.";
const RV_MESSAGE = "What fuse does the water pump in my camper use?";
const SOLSERVER_MESSAGE = "How does Umbra turn a proposal into a CFB?";

// ---- the control plane under test --------------------------------------------------------------

const provider = scriptedProvider("scripted-completeness");
let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let seq = 0;
let pumpFuse: string;

beforeAll(async () => {
  opened = await openTestControlPlane({
    label: "claim-completeness",
    model: provider.model,
    limits: { chatTurnsPerMinute: 10_000 },
  });
  user = await opened.account("user");
  // Matches RV_MESSAGE, so it is injected there.
  pumpFuse = (
    await opened.repos.cfbs.create(
      testCfb({
        domain: "rv_service",
        title: "Water pump fuse",
        summary: "The camper water pump uses a 30 A fuse in the converter panel.",
        tags: ["rv", "fuse"],
        trust_tier: "repo_adr",
        source_refs: ["file:claim-completeness.md"],
      }),
    )
  ).cfb_id;
});
afterAll(async () => opened?.close());

const turn = (message: string) => respondToTurn(opened.as(user), { request_id: `cc-${++seq}`, message });

/** The DomainError a turn fails with (fails the test when the turn succeeds). */
const turnError = (message: string) => turnFailure(turn(message));

const mainAttempts = async (transmissionId: string) =>
  (await opened.db.deliveryAttempt.findMany({ where: { transmissionId, step: "main" }, orderBy: { n: "asc" } })).map(
    ({ n, outcome, reason }) => ({ n, outcome, reason }),
  );

const claimsTrace = async (transmissionId: string) =>
  (await opened.repos.traces.forTransmission(transmissionId)).filter((e) => e.phase === "claims");

type TTracedFinding = { code: string; claim_id: string | null; detail: string; sentences?: number[] };
/** The findings of a "claims" trace event that must be there. */
function findingsOf(event: { metadata: unknown } | undefined): TTracedFinding[] {
  if (event === undefined) throw new Error("expected a claims trace event");
  return (event.metadata as { findings: TTracedFinding[] }).findings;
}

const claimCheckOf = async (responseId: string) =>
  (await opened.db.responseMeta.findUniqueOrThrow({ where: { responseId } })).claimCheck;

const routedTo = async (transmissionId: string) =>
  (await opened.db.transmission.findUniqueOrThrow({ where: { id: transmissionId } })).routerDomain;

/** The injected pump-fuse CFB (fails the test when the turn did not inject it). */
function injectedFuse(input: TModelInput): string {
  const id = input.cfbs.find((c) => c.cfb_id === pumpFuse)?.cfb_id;
  if (id === undefined) throw new Error("the pump fuse CFB was not injected");
  return id;
}

/** A complete answer: both sentences claimed, the first on the injected CFB, the second on U1. */
const COMPLETE = (input: TModelInput): TScriptedMeta => ({
  text: `${FUSE} Whether it can be bypassed is not in the knowledge base.`,
  unknowns: [{ id: "U1", text: "Whether the fuse may be bypassed." }],
  claim_map: [
    claim("c1", { sentence: 0 }, { cfb_ids: [injectedFuse(input)] }),
    claim("c2", { sentence: 1 }, { unknown_id: "U1" }),
  ],
});

describe("in the strict rv_service domain", () => {
  it("an empty claim map on an answer with statements is refused CLAIM_MAP_INCOMPLETE; the next attempt is tried", async () => {
    provider.answer((input, n) => (n === 1 ? { text: TWO, claim_map: [] } : COMPLETE(input)));
    const res = await turn(RV_MESSAGE);
    expect(await routedTo(res.transmission_id)).toBe("rv_service");
    expect(res.assistant_text).toMatch(/^The pump uses a 30 A fuse\. Whether/);
    expect(await mainAttempts(res.transmission_id)).toEqual([
      {
        n: 1,
        outcome: "blocked",
        reason: "claim map refused in strict domain rv_service: CLAIM_MAP_INCOMPLETE (sentences 0, 1)",
      },
      { n: 2, outcome: "ok", reason: null },
    ]);
    const [refused, delivered] = await claimsTrace(res.transmission_id);
    expect(refused).toMatchObject({
      status: "failed",
      summary: "Claim map of attempt 1: 1 finding(s): refused (strict)",
    });
    expect(findingsOf(refused)).toEqual([
      {
        code: "CLAIM_MAP_INCOMPLETE",
        claim_id: null,
        detail: "the claim map is empty: sentences 0, 1 of assistant_text state something no claim covers",
        sentences: [0, 1],
      },
    ]);
    expect(delivered).toMatchObject({ status: "completed", summary: "Claim map of attempt 2: supported" });
    expect(await claimCheckOf(res.response_id)).toEqual({ strict: true, domain: "rv_service", findings: [] });
  });

  it("a partial map (the issue's answer with one claim) is refused, by sentence and by character range", async () => {
    provider.answer((input, n) =>
      n === 1
        ? { text: TWO, claim_map: [claim("c1", { sentence: 0 }, { cfb_ids: [injectedFuse(input)] })] }
        : n === 2
          ? {
              text: ONE,
              claim_map: [
                claim("c1", { start_char: 0, end_char: ONE.indexOf(" and") }, { cfb_ids: [injectedFuse(input)] }),
              ],
            }
          : COMPLETE(input),
    );
    const res = await turn(RV_MESSAGE);
    expect((await mainAttempts(res.transmission_id)).map((a) => [a.n, a.outcome, a.reason])).toEqual([
      [1, "blocked", "claim map refused in strict domain rv_service: CLAIM_MAP_INCOMPLETE (sentence 1)"],
      [2, "blocked", "claim map refused in strict domain rv_service: CLAIM_MAP_INCOMPLETE (sentence 0)"],
      [3, "ok", null],
    ]);
    const [first, second] = await claimsTrace(res.transmission_id);
    expect(findingsOf(first)[0]?.detail).toBe("sentence 1 of assistant_text states something no claim covers");
    expect(findingsOf(second)[0]?.detail).toBe(
      "sentence 0 (in part) of assistant_text states something no claim covers",
    );
  });

  it("fails the turn UPSTREAM when every attempt leaves a statement uncovered, naming sentences, never words", async () => {
    provider.answer((input) => ({
      text: TWO,
      claim_map: [claim("c1", { sentence: 0 }, { cfb_ids: [injectedFuse(input)] })],
    }));
    const packets = await opened.db.packet.count();
    const error = await turnError(RV_MESSAGE);
    expect(error.code).toBe("UPSTREAM");
    expect(error.message).toContain("claim map refused in strict domain rv_service: CLAIM_MAP_INCOMPLETE (sentence 1)");
    expect(error.message).not.toContain("bypass");
    expect(error.message).not.toContain("wire");
    expect(await opened.db.packet.count()).toBe(packets);
  });

  it("a complete map is delivered at the first attempt", async () => {
    provider.answer(COMPLETE);
    const res = await turn(RV_MESSAGE);
    expect(await mainAttempts(res.transmission_id)).toEqual([{ n: 1, outcome: "ok", reason: null }]);
    const answer = (await getThread(opened.as(user), { thread_id: res.thread_id })).turns[0]?.answer;
    expect(answer?.claim_check).toEqual({ strict: true, domain: "rv_service", findings: [] });
  });

  it("a greeting, thanks and a question with no claims at all are delivered", async () => {
    const text = "Hi! Thanks for the details. Is the pump switch on? Let me know if you have any other questions.";
    provider.answer({ text, claim_map: [] });
    const res = await turn(RV_MESSAGE);
    expect(await routedTo(res.transmission_id)).toBe("rv_service");
    expect(res.assistant_text).toBe(text);
    expect(await mainAttempts(res.transmission_id)).toEqual([{ n: 1, outcome: "ok", reason: null }]);
  });

  it("a missing claim map stays CLAIM_MAP_MISSING (one finding, not two)", async () => {
    provider.answer((input, n) => (n === 1 ? { text: TWO, claim_map: undefined } : COMPLETE(input)));
    const res = await turn(RV_MESSAGE);
    const [refused] = await claimsTrace(res.transmission_id);
    expect(findingsOf(refused).map((f) => f.code)).toEqual(["CLAIM_MAP_MISSING"]);
  });

  it("unsupported claims and uncovered sentences are both named, claim findings first", async () => {
    provider.answer((input, n) =>
      n === 1 ? { text: `${TWO} Check it yearly.`, claim_map: [claim("c1", { sentence: 1 }, {})] } : COMPLETE(input),
    );
    const res = await turn(RV_MESSAGE);
    expect((await mainAttempts(res.transmission_id))[0]?.reason).toBe(
      "claim map refused in strict domain rv_service: CLAIM_UNSUPPORTED (c1), CLAIM_MAP_INCOMPLETE (sentences 0, 2)",
    );
  });
});

describe("in a non-strict domain (solserver)", () => {
  it("delivers a partial map at the first attempt with a warning listing the uncovered sentences", async () => {
    provider.answer({
      text: `Umbra files a proposal for review. ${BYPASS} Is that what you meant?`,
      claim_map: [claim("c1", { sentence: 0 }, { unknown_id: "U1" })],
      unknowns: [{ id: "U1", text: "How Umbra files proposals." }],
    });
    const res = await turn(SOLSERVER_MESSAGE);
    expect(await routedTo(res.transmission_id)).toBe("solserver");
    expect(await mainAttempts(res.transmission_id)).toEqual([{ n: 1, outcome: "ok", reason: null }]);
    const finding = {
      code: "CLAIM_MAP_INCOMPLETE",
      claim_id: null,
      detail: "sentence 1 of assistant_text states something no claim covers",
    };
    expect(await claimCheckOf(res.response_id)).toEqual({
      strict: false,
      domain: "solserver",
      findings: [{ ...finding, sentences: [1] }],
    });
    const answer = (await getThread(opened.as(user), { thread_id: res.thread_id })).turns[0]?.answer;
    expect(answer?.claim_check).toEqual({
      strict: false,
      domain: "solserver",
      findings: [{ ...finding, sentences: [1] }],
    });
    const [event] = await claimsTrace(res.transmission_id);
    expect(event).toMatchObject({ status: "completed", summary: "Claim map of attempt 1: 1 warning(s)" });
  });

  it("an empty map is a warning too", async () => {
    provider.answer({ text: TWO, claim_map: [] });
    const res = await turn(SOLSERVER_MESSAGE);
    expect(res.assistant_text).toBe(TWO);
    expect(await claimCheckOf(res.response_id)).toMatchObject({
      strict: false,
      findings: [{ code: "CLAIM_MAP_INCOMPLETE", sentences: [0, 1] }],
    });
  });
});

// ---- the offline model in the strict domain ---------------------------------------------------------

describe("the offline model in rv_service", () => {
  let offline: Awaited<ReturnType<typeof openTestControlPlane>>;
  let tech: TTestActor;
  let n = 0;
  const ask = (message: string, extra: { thread_id?: string; procedure?: string } = {}) =>
    respondToTurn(offline.as(tech), { request_id: `off-${++n}`, message, ...extra });
  const delivered = async (transmissionId: string) => {
    const attempts = await offline.db.deliveryAttempt.findMany({ where: { transmissionId, step: "main" } });
    expect(attempts.map((a) => [a.outcome, a.reason])).toEqual([["ok", null]]);
    const t = await offline.db.transmission.findUniqueOrThrow({ where: { id: transmissionId } });
    return t.routerDomain;
  };

  beforeAll(async () => {
    offline = await openTestControlPlane({
      label: "claim-completeness-offline",
      limits: { chatTurnsPerMinute: 10_000 },
    });
    tech = await offline.account("user");
    await offline.repos.cfbs.create(
      testCfb({
        domain: "rv_service",
        title: "Propane regulator check",
        // Two sentences: the offline model's claim must cover both (a character range).
        summary:
          "Check the propane regulator lockup pressure with a manometer. A reading above 14 inches of water column means the regulator is worn.",
        tags: ["propane", "rv"],
        trust_tier: "repo_adr",
        source_refs: ["file:claim-completeness.md"],
      }),
    );
  });
  afterAll(async () => offline?.close());

  it.each([
    ["a question a CFB answers", "How do I check the propane regulator on the camper?"],
    ["a question nothing answers", "Why does the slide-out on my camper creak when it moves?"],
    ["a stated fact", "Remember that the Suburban furnace in the RV needs a 3/8 inch gas line."],
    [
      "all three at once",
      "Remember that the Suburban furnace in the RV needs a 3/8 inch gas line. Why does the slide-out creak? How do I check the propane regulator on the camper?",
    ],
    ["an acknowledgement", "ok thanks, camper is fine now"],
  ])("%s is delivered at the first attempt", async (_label, message) => {
    const res = await ask(message);
    expect(await delivered(res.transmission_id)).toBe("rv_service");
    const meta = await offline.db.responseMeta.findUniqueOrThrow({ where: { responseId: res.response_id } });
    expect(meta.claimCheck).toEqual({ strict: true, domain: "rv_service", findings: [] });
  });

  it("a guided diagnosis runs from the complaint to the final report, every answer delivered", async () => {
    const first = await ask("The water pump in my camper won't run and there is no water at the faucet", {
      procedure: "water_pump",
    });
    expect(await delivered(first.transmission_id)).toBe("rv_service");
    for (const message of [
      "where is the fuse panel?",
      "the fuse is good",
      "about 12 volts",
      "no, it does not run",
      "why?",
      "yes",
    ]) {
      const res = await ask(message, { thread_id: first.thread_id });
      expect(await delivered(res.transmission_id)).toBe("rv_service");
    }
    const thread = await getThread(offline.as(tech), { thread_id: first.thread_id });
    expect(thread.turns.at(-1)?.answer?.assistant_text.startsWith("Final report")).toBe(true);
  });

  it("the choose-system question is delivered in the strict domain", async () => {
    const res = await ask("My RV camper makes a strange noise", { procedure: "auto" });
    expect(res.assistant_text).toContain("Which system is this about?");
    expect(await delivered(res.transmission_id)).toBe("rv_service");
  });
});

describe("offlineEnvelope: complete claim maps for any message", () => {
  const cfb = (id: string, title: string, summary: string): TModelCfb => ({
    cfb_id: id,
    domain: "rv_service",
    title,
    summary,
    tags: [],
    entities: [],
  });
  const CFBS = [
    cfb("CFB-0001", "Water pump fuse", "The water pump fuse is 15 A. It sits in the converter panel."),
    cfb("CFB-0002", "Furnace sail switch", "A weak blower leaves the furnace sail switch open."),
    cfb(
      "CFB-0003",
      "Slide-out motor",
      "The slide-out motor draws about 30 A, e.g. on a Lippert unit. Check the 12 V supply first.",
    ),
  ];
  const SENTENCES = [
    "What fuse does the water pump use?",
    "Why does the furnace sail switch stay open?",
    "How much does the slide-out motor draw?",
    "Why is the awning torn?",
    "We decided to stock 15 A fuses in every van.",
    "Remember that the U.S. models use e.g. Dometic pumps.",
    "From now on, every furnace job ends with a CO test.",
    "The slide-out motor is noisy.",
    "ok thanks",
    "hello",
    "The weather is lovely today.",
    "I think we decided maybe to replace the pumps… eventually.",
  ];

  it("leaves no statement uncovered for any combination of sentences", () => {
    const known = { injected: new Set(CFBS.map((c) => c.cfb_id)), existing: new Set(CFBS.map((c) => c.cfb_id)) };
    let checked = 0;
    for (let i = 0; i < SENTENCES.length; i++)
      for (let j = 0; j < SENTENCES.length; j++)
        for (const k of [0, 5, 10]) {
          const message = [SENTENCES[i], SENTENCES[j], SENTENCES[k]].join(" ");
          const envelope = offlineEnvelope({ message, history: [], cfbs: CFBS });
          const findings = checkClaims(envelope.meta, known, { text: envelope.assistant_text, procedure: null });
          expect(findings, `${message}\n→ ${envelope.assistant_text}`).toEqual([]);
          checked++;
        }
    expect(checked).toBe(SENTENCES.length * SENTENCES.length * 3);
  });
});

// ---- procedure mode: the directive's wording ----------------------------------------------------

/** What the control plane hands the model for an engine turn (procedure-turn.ts's own builder). */
const modelProcedure = (turn: TContextTurn, catalog: TCatalog = RV_SERVICE_CATALOG) => modelDirective(catalog, turn);

/** What a technician might say next: an option, a clarification, nonsense, a correction, yes/no. */
function nextMessage(state: TContextState, random: () => number): string {
  const system = RV_SERVICE_CATALOG.systems.find((s) => s.id === state.system_id);
  const step: TStep | undefined = system?.procedure.steps.find((s) => s.id === state.active_step);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)] as T;
  const labels = (s: TStep) => s.answers.map((a) => a.label ?? a.id);
  const done = system?.procedure.steps.filter((s) => state.completed.includes(s.id)) ?? [];
  const roll = random();
  if (state.mode === "safety_stop")
    return pick(["ok what now", ...(system?.safety_rules ?? []).flatMap((r) => r.clear_patterns)]);
  if (state.mode === "final_report")
    return pick(["thanks", "labor was 45 minutes", "add 30 min for access", "customer will pick it up friday"]);
  if (roll < 0.1) return pick(["where is it?", "why?", "how do I check that?", "¿dónde está?", "где это?"]);
  if (roll < 0.16) return "banana";
  if (roll < 0.2) return pick(["no idea", "no multimeter here", "skip", "no sé", "не знаю"]);
  if (roll < 0.23) return pick((system?.safety_rules ?? []).flatMap((r) => r.patterns.slice(0, 2)));
  if (roll < 0.27 && done.length > 0) return `actually ${pick(labels(pick(done)))}`;
  if (state.mode === "authorization")
    return pick([
      "yes",
      "no",
      "yes",
      "why?",
      "sure, but how much will it cost?",
      "ok, I need to ask the customer first",
      "sí",
      "да",
    ]);
  return step ? pick(labels(step)) : "thanks";
}

/** Every engine turn of `walks` seeded walks through each system of the shipped catalog. */
function catalogTurns(walks: number): TContextTurn[] {
  const turns: TContextTurn[] = [];
  const random = prng(17);
  for (const system of RV_SERVICE_CATALOG.systems) {
    for (let w = 0; w < walks; w++) {
      let state = startContext(RV_SERVICE_CATALOG, system.id);
      let message = `The ${system.detect.keywords[0]} stopped working this morning.`;
      let after = 0;
      for (let t = 0; t < 16; t++) {
        const turn = contextTurn(RV_SERVICE_CATALOG, state, message);
        turns.push(turn);
        state = turn.state;
        // after the report, two more messages: revisions and acknowledgements are worded too
        if (state.mode === "final_report" && ++after > 2) break;
        message = nextMessage(state, random);
      }
    }
  }
  return turns;
}

describe("procedure mode: the offline wording of every kind of directive", () => {
  const turns = catalogTurns(40);
  const known = { injected: new Set<string>(), existing: new Set<string>() };
  const meta = (): TOutputMeta => ({ ...testEnvelope("x").meta, claim_map: [] }) as unknown as TOutputMeta;

  it("covers every kind of directive on every system", () => {
    const seen = new Set(turns.map((t) => t.directive.kind));
    expect([...seen].sort()).toEqual([...DIRECTIVE_KINDS].sort());
    // and in every language of the catalog
    expect(new Set(turns.map((t) => t.state.language))).toEqual(new Set(["en", "es", "ru"]));
    expect(new Set(turns.map((t) => t.state.system_id)).size).toBe(RV_SERVICE_CATALOG.systems.length);
  });

  it("states nothing beyond the directive: no claim is needed", () => {
    for (const turn of turns) {
      const procedure = modelProcedure(turn);
      const text = procedureReply(procedure);
      const findings = checkClaims(meta(), known, { text, procedure: procedureWording(procedure) });
      expect(findings, `${turn.directive.kind}:\n${text}`).toEqual([]);
    }
  });

  it("a sentence of the model's own in a procedure answer is refused, and so is another turn's wording", () => {
    const turn = turns.find((t) => t.directive.kind === "request_authorization");
    const other = turns.find((t) => t.directive.kind === "ask_step" && t.state.system_id !== turn?.state.system_id);
    if (!turn || !other) throw new Error("expected an authorization and another system's step");
    const procedure = modelProcedure(turn);
    const reply = procedureReply(procedure);
    const own = `${reply}\nYou can bypass the fuse with a wire.`;
    const wording = procedureWording(procedure);
    expect(uncoveredStatements(own, [], { procedure: wording })).toEqual([
      { index: statementIndexes(own).at(-1) ?? -1, partly: false },
    ]);
    // The words of another system's directive are not this directive's.
    const foreign = procedureReply(modelProcedure(other));
    expect(statementIndexes(foreign, { procedure: wording }).length).toBeGreaterThan(0);
  });
});

describe("createClaimJudge and the turn's procedure", () => {
  const deps = {
    repos: { cfbs: { existingIds: async () => new Set<string>() } },
    catalog: RV_SERVICE_CATALOG,
  } as unknown as TServiceDeps;
  const attempt: TModelAttempt = {
    n: 1,
    model: "m",
    tokensIn: null,
    tokensOut: null,
    latencyMs: 1,
    outcome: "ok",
    reason: null,
  };
  const output = (text: string) => ({
    envelope: testEnvelope(text, { claim_map: [] }),
    tokensIn: null,
    tokensOut: null,
  });
  const pump = catalogTurns(1).filter((t) => t.state.system_id === "water_pump");
  const report = pump.find((t) => t.directive.kind === "final_report") ?? pump.at(-1);
  if (!report) throw new Error("expected a water-pump turn");
  const procedure = modelProcedure(report);
  const reply = procedureReply(procedure);

  it("given the procedure, its wording passes and a sentence of the model's own is refused", async () => {
    const strict = { domain: "rv_service", strict: true, reason: "procedure" };
    const judge = createClaimJudge(deps, strict, new Set(), procedure);
    expect(await judge.judge({ output: output(reply), attempt })).toEqual({ deliver: true });
    const refused = await judge.judge({ output: output(`${reply}\nBypass the fuse with a wire.`), attempt });
    expect(refused).toMatchObject({ deliver: false });
    expect(refused.deliver ? "" : refused.reason).toMatch(/CLAIM_MAP_INCOMPLETE \(sentence \d+\)$/);
  });

  it("the choose-system question passes as its own wording; a plain turn may repeat none of it", async () => {
    const chooseSystem: TModelProcedure = {
      kind: "choose_system",
      systems: RV_SERVICE_CATALOG.systems.map((s) => ({ id: s.id, name: s.name, keywords: s.detect.keywords })),
    };
    const choose = procedureReply(chooseSystem);
    const judge = createClaimJudge(
      deps,
      { domain: "rv_service", strict: true, reason: "words" },
      new Set(),
      chooseSystem,
    );
    expect(await judge.judge({ output: output(choose), attempt })).toEqual({ deliver: true });
    expect(await judge.judge({ output: output("Bypass the fuse with a wire."), attempt })).toMatchObject({
      deliver: false,
    });
    // A plain turn (procedure null) gets no catalog wording at all.
    const plain = createClaimJudge(deps, { domain: "rv_service", strict: true, reason: "words" }, new Set(), null);
    expect(await plain.judge({ output: output(choose), attempt })).toMatchObject({ deliver: false });
  });
});
