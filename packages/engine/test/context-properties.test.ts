// Issue 22: property tests of the context engine on generated technician input.
//   (a) a reply classifyMessage reads as a non-answer never records a finding, in any language,
//       with fillers, casing and punctuation noise, at random steps reached by real answers
//   (b) authorization never follows a message that is not a plain yes
//   (c) contextTurn is pure and deterministic over random conversations
//   (d) classifyMessage and contextTurn finish on random 8,000-character inputs
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  classifyMessage,
  consentOf,
  contextTurn,
  DIRECTIVE_KINDS,
  getSystem,
  isPlainYes,
  LANGUAGE_PACKS,
  MAX_MESSAGE_CHARS_READ,
  matchingSystem,
  parseContextState,
  RV_SERVICE_CATALOG,
  startContext,
  type TContextState,
} from "../src/index";

const catalog = RV_SERVICE_CATALOG;
const SYSTEMS = catalog.systems.map((s) => s.id);
const PACKS = [...LANGUAGE_PACKS.values()];

const COMPLAINTS: Record<string, string> = {
  water_pump: "water pump won't run",
  roof_ac: "A/C is not cooling",
  furnace: "furnace won't light",
  slide_out: "slide won't go out",
};

function complaintOf(systemId: string): string {
  const complaint = COMPLAINTS[systemId];
  if (complaint === undefined) throw new Error(`no complaint for ${systemId}`);
  return complaint;
}

function systemOf(systemId: string) {
  const system = getSystem(catalog, systemId);
  if (system === null) throw new Error(`no system ${systemId}`);
  return system;
}

/** What classifyMessage reads messages against for a system (every language's patterns). */
const matching = (systemId: string) => matchingSystem(catalog, systemOf(systemId));

function send(state: TContextState, messages: readonly string[]): TContextState {
  return messages.reduce((s, m) => contextTurn(catalog, s, m).state, state);
}

/**
 * A case of `systemId` after its complaint and up to `choices.length` real answers: at each step
 * the technician picks answer `choice % answers` by its label (what the option buttons send).
 * Stops early when the diagnosis leaves diagnostic mode.
 */
function reach(systemId: string, choices: readonly number[]): TContextState {
  let state = contextTurn(catalog, startContext(catalog, systemId), complaintOf(systemId)).state;
  for (const choice of choices) {
    if (state.mode !== "diagnostic" || state.active_step === null) break;
    const step = systemOf(systemId).procedure.steps.find((s) => s.id === state.active_step);
    if (step === undefined) throw new Error(`no step ${state.active_step}`);
    const answer = step.answers[choice % step.answers.length];
    if (answer === undefined) throw new Error("no answer");
    const turn = contextTurn(catalog, state, answer.label ?? answer.id);
    // the label is a real answer: it is recorded for the step
    expect(turn.state.evidence_log.at(-1)).toMatchObject({ step: step.id, finding: answer.finding });
    state = turn.state;
  }
  return state;
}

/** Conversations that end at the authorization request, one per system (several decisive steps). */
const TO_AUTHORIZATION: readonly [string, readonly string[]][] = [
  ["water_pump", ["water pump won't run", "fuse is fine", "0V", "no output"]],
  ["water_pump", ["water pump won't run", "fuse is fine", "12.6 V", "no it doesn't run"]],
  ["roof_ac", ["A/C is not cooling", "breaker tripped", "trips again"]],
  [
    "furnace",
    [
      "furnace won't light",
      "stove lights",
      "thermostat calls for heat",
      "blower runs",
      "sail switch closes",
      "no spark",
    ],
  ],
  ["slide_out", ["slide won't go out", "12.6V", "switch works", "motor doesn't run", "runs on direct 12 V"]],
];
const AUTH_STATES = TO_AUTHORIZATION.map(([system, messages]) => {
  const state = send(startContext(catalog, system), messages);
  if (state.mode !== "authorization")
    throw new Error(`${system}: ${messages.join(" / ")} does not reach authorization (${state.mode})`);
  return state;
});

// ── generators ───────────────────────────────────────────────────────────────────────────────

const casing = fc.constantFrom<(s: string) => string>(
  (s) => s,
  (s) => s.toLowerCase(),
  (s) => s.toUpperCase(),
  (s) => s.charAt(0).toUpperCase() + s.slice(1),
  (s) => [...s].map((ch, i) => (i % 2 === 0 ? ch.toUpperCase() : ch)).join(""),
);
const endPunctuation = fc.constantFrom("", ".", "!", "!!", "...", "…", " :(", " lol", ",");
const joint = fc.constantFrom(" ", ", ", "... ", " - ");

/** A non-answer of one pack, maybe between fillers of the same pack, with casing and punctuation noise. */
const nonAnswerReply = fc.constantFrom(...PACKS).chain((pack) => {
  const phrases = Object.values(pack.non_answers).flat();
  return fc
    .record({
      phrase: fc.constantFrom(...phrases),
      before: fc.option(fc.constantFrom(...pack.fillers), { nil: undefined }),
      after: fc.option(fc.constantFrom(...pack.fillers), { nil: undefined }),
      j1: joint,
      j2: joint,
      end: endPunctuation,
      caseOf: casing,
    })
    .map(({ phrase, before, after, j1, j2, end, caseOf }) =>
      caseOf(`${before === undefined ? "" : before + j1}${phrase}${after === undefined ? "" : j2 + after}${end}`),
    );
});

const choices = fc.array(fc.nat({ max: 5 }), { maxLength: 7 });

// Consent fragments (natural phrasing, every pack's language).
const YES_WORDS = [
  ...new Set([...PACKS.flatMap((p) => p.consent.yes), ...PACKS.flatMap((p) => p.yes_words), "y", "Y"]),
];
const CONDITIONALS = [
  "if it's under warranty",
  "if the owner agrees",
  "only if it's covered",
  "as long as it's under $200",
  "provided the part is in stock",
  "unless it's over budget",
  "depends on the price",
  "si está en garantía",
  "solo si la garantía lo cubre",
  "если по гарантии",
  "только если клиент согласится",
];
const DEFERRALS = [
  "but I need to ask the customer first",
  "let me check with the owner",
  "not yet",
  "hold off for now",
  "I'll get back to you tomorrow",
  "need approval from the owner",
  "tengo que preguntar al cliente",
  "todavía no",
  "спрошу клиента",
  "пока нет",
];
const COSTS = [
  "how much will it cost?",
  "what's the price",
  "how much",
  "will the warranty cover it",
  "can you send a quote",
  "¿cuánto cuesta?",
  "сколько стоит?",
];
const QUESTIONS = [
  "which switch?",
  "do I need to order it?",
  "how long will it take?",
  "is that the right fix?",
  "what part number?",
];
const NOT_PLAIN = [...CONDITIONALS, ...DEFERRALS, ...COSTS, ...QUESTIONS];
const RANDOM_WORDS = [
  "please",
  "the",
  "pump",
  "switch",
  "now",
  "today",
  "ok",
  "hmm",
  "customer",
  "fuse",
  "owner",
  "maybe",
  "warranty",
  "part",
  "fine",
  "call",
];

const consentPart = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...YES_WORDS) },
  { weight: 2, arbitrary: fc.constantFrom(...NOT_PLAIN) },
  { weight: 2, arbitrary: fc.constantFrom(...RANDOM_WORDS) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 12 }) },
);
const consentMessage = fc
  .array(fc.tuple(consentPart, fc.constantFrom(" ", ", ", ". ", "? ", "! ", " - ")), { minLength: 1, maxLength: 4 })
  .chain((parts) => casing.map((caseOf) => caseOf(parts.map(([p, sep], i) => (i === 0 ? p : sep + p)).join(""))));

/** A yes with a condition, a deferral, a cost question or another question, in either order. */
const yesWithCondition = fc
  .record({
    yes: fc.constantFrom(...YES_WORDS),
    fragment: fc.constantFrom(...NOT_PLAIN),
    sep: fc.constantFrom(" ", ", ", ". ", " - "),
    yesFirst: fc.boolean(),
    caseOf: casing,
  })
  .map(({ yes, fragment, sep, yesFirst, caseOf }) =>
    caseOf(yesFirst ? `${yes}${sep}${fragment}` : `${fragment}${sep}${yes}`),
  );

// Random conversations: real answers, non-answers, consent, corrections, safety and evidence
// phrases, labor, notes, clarifications and noise.
const LABELS = catalog.systems.flatMap((s) =>
  s.procedure.steps.flatMap((st) => st.answers.map((a) => a.label ?? a.id)),
);
const PATTERNS = catalog.systems.flatMap((s) =>
  s.procedure.steps.flatMap((st) => st.answers.flatMap((a) => a.patterns.slice(0, 3))),
);
const MESSAGE_POOL = [
  "yes",
  "no",
  "no idea",
  "skip",
  "no meter",
  "not yet",
  "12.6V",
  "0V",
  "118v",
  "under 11 volts",
  "blown, no wait it's fine",
  "wait, I never checked the fuse, it's actually blown",
  "actually the pump does run",
  "I smell propane",
  "leak test passed",
  "smoke coming from the pump",
  "wiring inspected",
  "found a refrigerant leak on the condenser coil",
  "melted wire",
  "found a bent rail",
  "replaced the switch, works now",
  "fixed it",
  "labor was 45 minutes",
  "add 30 min",
  "thanks",
  "customer wants the old part",
  "where is the water pump?",
  "how do I check it?",
  "I already told you",
  "ok, I need to ask the customer first",
  "yes if it's under warranty",
  "sí",
  "no sé",
  "да",
  "не знаю",
  "пахнет газом",
  "",
  "   ",
];
const conversationMessage = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...MESSAGE_POOL) },
  { weight: 3, arbitrary: fc.constantFrom(...LABELS) },
  { weight: 2, arbitrary: fc.constantFrom(...PATTERNS) },
  { weight: 1, arbitrary: nonAnswerReply },
  { weight: 1, arbitrary: consentMessage },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

// ── (a) non-answers ──────────────────────────────────────────────────────────────────────────

describe("(a) a non-answer never records a finding", () => {
  it("at random steps of random systems, in every language, with fillers, casing and punctuation noise", () => {
    let nonAnswers = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.constantFrom(...SYSTEMS), choices, nonAnswerReply, fc.boolean(), (system, path, reply, twice) => {
        runs += 1;
        let state = reach(system, path);
        // sometimes the same step has already had one non-answer (the second one passes it)
        if (twice && state.mode === "diagnostic") {
          const c0 = classifyMessage(matching(system), state, reply);
          if (c0.nonAnswer !== null) state = contextTurn(catalog, state, reply).state;
        }
        const c = classifyMessage(matching(system), state, reply);
        if (c.nonAnswer === null) return;
        nonAnswers += 1;
        const turn = contextTurn(catalog, state, reply);
        expect(turn.state.evidence).toEqual(state.evidence);
        expect(turn.state.evidence_log).toEqual(state.evidence_log);
        expect(turn.state.pending_findings).toEqual(state.pending_findings);
        expect(turn.directive.recorded).toBeUndefined();
        // a step completed this turn was passed as not checked, with no finding
        for (const id of turn.state.completed.filter((step) => !state.completed.includes(step)))
          expect(turn.state.not_checked[id]).toMatchObject({ passed: true });
        if (state.mode === "authorization") expect(turn.state.report?.authorized ?? null).not.toBe(true);
      }),
      { numRuns: 200 },
    );
    // the property is about non-answers: most generated replies must be read as one
    expect(nonAnswers).toBeGreaterThan(runs * 0.8);
  });

  it("every pack's non-answer phrases, sent plainly at the first step of every system, are read as non-answers", () => {
    // (the property above checks that a reply read as a non-answer records nothing)
    const missed: string[] = [];
    for (const system of SYSTEMS) {
      const state = reach(system, []);
      for (const pack of PACKS)
        for (const [reason, phrases] of Object.entries(pack.non_answers))
          for (const phrase of phrases) {
            const c = classifyMessage(matching(system), state, phrase);
            if (c.nonAnswer === null) missed.push(`${system} ${pack.language} ${reason} "${phrase}" → ${c.intent}`);
          }
    }
    expect(missed).toEqual([]);
  });
});

// ── (b) consent ──────────────────────────────────────────────────────────────────────────────

describe("(b) authorization follows a plain yes only", () => {
  it("authorized ⇒ isPlainYes(message), for messages mixing yes-words, conditions, deferrals, costs, questions and noise", () => {
    let authorized = 0;
    fc.assert(
      fc.property(fc.constantFrom(...AUTH_STATES), consentMessage, (state, message) => {
        const turn = contextTurn(catalog, state, message);
        if (turn.state.report?.authorized === true) {
          authorized += 1;
          expect(isPlainYes(message)).toBe(true);
          expect(consentOf(message)).toBe("yes");
        }
      }),
      { numRuns: 400 },
    );
    // the generator produces plain yeses too: the implication is not vacuous
    expect(authorized).toBeGreaterThan(0);
  });

  it("a yes with a condition, a deferral, a cost question or a question never authorizes", () => {
    fc.assert(
      fc.property(fc.constantFrom(...AUTH_STATES), yesWithCondition, (state, message) => {
        const turn = contextTurn(catalog, state, message);
        expect(isPlainYes(message)).toBe(false);
        expect(turn.state.report?.authorized ?? null).not.toBe(true);
        if (turn.state.mode === "authorization") expect(turn.state.report).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it("a plain yes-word (any pack, any casing, trailing punctuation) authorizes", () => {
    const plainYes = fc
      .record({
        yes: fc.constantFrom("yes", "yep", "yeah", "y", "go ahead", "approved", "sí", "si", "dale", "да"),
        caseOf: casing,
        end: fc.constantFrom("", ".", "!"),
      })
      .map(({ yes, caseOf, end }) => caseOf(yes) + end);
    fc.assert(
      fc.property(fc.constantFrom(...AUTH_STATES), plainYes, (state, message) => {
        expect(contextTurn(catalog, state, message).state.report?.authorized).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});

// ── (c) purity and determinism ───────────────────────────────────────────────────────────────

describe("(c) contextTurn is pure and deterministic", () => {
  it("same inputs give deep-equal outputs and the input state is never mutated, over random conversations", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SYSTEMS),
        fc.array(conversationMessage, { minLength: 1, maxLength: 10 }),
        (system, messages) => {
          let state = startContext(catalog, system);
          for (const message of messages) {
            const before = structuredClone(state);
            const first = contextTurn(catalog, state, message);
            expect(state).toEqual(before);
            const second = contextTurn(catalog, state, message);
            expect(second).toEqual(first);
            // a persisted copy (JSON round trip, validated) gives the same turn
            const restored = parseContextState(JSON.parse(JSON.stringify(state)));
            expect(contextTurn(catalog, restored, message)).toEqual(first);
            expect(state).toEqual(before);
            expect(first.state).not.toBe(state);
            expect(() => parseContextState(first.state)).not.toThrow();
            state = first.state;
          }
        },
      ),
      { numRuns: 70 },
    );
  });
});

// ── (d) long random input ────────────────────────────────────────────────────────────────────

describe("(d) classifyMessage and contextTurn finish on random 8,000-character input", () => {
  const CASES: [string, TContextState][] = [
    ["fresh water_pump case", startContext(catalog, "water_pump")],
    [
      "water_pump at the voltage step",
      send(startContext(catalog, "water_pump"), ["water pump won't run", "fuse is fine"]),
    ],
    ["furnace in authorization", AUTH_STATES[3] as TContextState],
    [
      "roof_ac final report",
      send(startContext(catalog, "roof_ac"), ["A/C is not cooling", "breaker tripped", "trips again", "yes"]),
    ],
    ["furnace in safety stop", send(startContext(catalog, "furnace"), ["furnace won't light and I smell propane"])],
    [
      "slide_out at the motor step",
      send(startContext(catalog, "slide_out"), ["slide won't go out", "12.6V", "switch works"]),
    ],
  ];
  const WORDS = [
    "fuse",
    "blown",
    "ok",
    "yes",
    "no",
    "idea",
    "12.6V",
    "12,6",
    "v",
    "0V",
    "pump",
    "runs",
    "wait",
    "actually",
    "?",
    "smell",
    "propane",
    "melted",
    "wire",
    "labor",
    "45",
    "min",
    "skip",
    "не",
    "знаю",
    "sí",
    "fundido",
    "and",
    "but",
    ",",
    ".",
    "if",
    "how",
    "much",
    "where",
    "is",
    "the",
    "refrigerant",
    "leak",
    "fixed",
    "it",
    "works",
    "now",
    "already",
    "told",
    "you",
    "¿",
    "!",
  ];
  const words8000 = fc
    .array(fc.constantFrom(...WORDS), { minLength: 2_000, maxLength: 2_000 })
    .map((ws) => ws.join(" ").padEnd(MAX_MESSAGE_CHARS_READ, " fuse").slice(0, MAX_MESSAGE_CHARS_READ));
  const inputs = fc.oneof(
    words8000,
    fc.string({ unit: "grapheme", minLength: MAX_MESSAGE_CHARS_READ, maxLength: MAX_MESSAGE_CHARS_READ }),
    fc.string({ unit: "binary", minLength: MAX_MESSAGE_CHARS_READ, maxLength: MAX_MESSAGE_CHARS_READ }),
  );

  it("in every mode, without an exception, with a valid next state", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CASES), inputs, ([, state], message) => {
        expect(message.length).toBeGreaterThanOrEqual(MAX_MESSAGE_CHARS_READ);
        const c = classifyMessage(matching(state.system_id), state, message);
        expect(c.intent).toBeTypeOf("string");
        const turn = contextTurn(catalog, state, message);
        expect(DIRECTIVE_KINDS).toContain(turn.directive.kind);
        expect(() => parseContextState(turn.state)).not.toThrow();
      }),
      { numRuns: 24 },
    );
  });
});
