// What counts as a statement of an answer, and which statements a claim map leaves uncovered
// (services/claim-statements.ts; issue 17, "strict means complete"). Real answer shapes: the
// issue's "30 A fuse … bypass it with a wire", units and abbreviations that must not cut a
// sentence, questions in several languages and the assertions dressed as questions, greetings and
// thanks, the offline model's own sentences, and the procedure directive's wording on real engine
// turns of the shipped RV catalog. Everything is pure: no database, no model.
import { contextTurn, RV_SERVICE_CATALOG, startContext, type TCatalog, type TContextTurn } from "@solserver/engine";
import { describe, expect, it } from "vitest";
import { procedureReply } from "../src/model/procedure-text";
import { procedureWording } from "../src/model/procedure-wording";
import { modelDirective } from "../src/procedures/procedure-turn";
import {
  classifySentences,
  sentenceKind,
  splitSentences,
  statementIndexes,
  type TStatementContext,
  uncoveredStatements,
} from "../src/services/claim-statements";

const texts = (text: string) => splitSentences(text).map((s) => s.text);
const kinds = (text: string, ctx: TStatementContext = {}) => classifySentences(text, ctx).map((s) => [s.text, s.kind]);

describe("splitSentences", () => {
  it("keeps the issue's answer whole: one sentence, whatever its units", () => {
    expect(texts("The pump uses a 30 A fuse and you can bypass it with a wire.")).toEqual([
      "The pump uses a 30 A fuse and you can bypass it with a wire.",
    ]);
  });

  it.each([
    [
      "units, decimals, initialisms and abbreviations",
      "Use a 12 V meter, e.g. a Fluke 117. It reads 3.5 A at approx. 13.2 V in the U.S. version. Dr. Smith checked it at 3 p.m. yesterday.",
      [
        "Use a 12 V meter, e.g. a Fluke 117.",
        "It reads 3.5 A at approx. 13.2 V in the U.S. version.",
        "Dr. Smith checked it at 3 p.m. yesterday.",
      ],
    ],
    [
      "URLs, with dots and a question mark inside",
      "See https://example.com/docs/v1.2/pump.html?model=xp&rev=3 for the wiring. Then test the switch.",
      ["See https://example.com/docs/v1.2/pump.html?model=xp&rev=3 for the wiring.", "Then test the switch."],
    ],
    ["a unit ends a sentence after a number", "It is 30 A. Check it.", ["It is 30 A.", "Check it."]],
    ["an initial does not", "J. Smith wired it. Check it.", ["J. Smith wired it.", "Check it."]],
    [
      "etc. before a capital ends one",
      "Fuses, relays, etc. The pump is next.",
      ["Fuses, relays, etc.", "The pump is next."],
    ],
    ["etc. mid-sentence does not", "Fuses, relays, etc. are in the panel.", ["Fuses, relays, etc. are in the panel."]],
    ["No. before a number does not", "Use breaker No. 5 for the pump.", ["Use breaker No. 5 for the pump."]],
    [
      "list numbers open their line",
      "1. Open a faucet.\n2. Does the pump run?",
      ["1. Open a faucet.", "2. Does the pump run?"],
    ],
    [
      "quoted questions stay inside their sentence",
      'I don\'t have knowledge that answers "How do we test it?". If you know, tell me.',
      ['I don\'t have knowledge that answers "How do we test it?".', "If you know, tell me."],
    ],
    ["!? and ?! runs", "Really?! The fuse blew again!? Check it.", ["Really?!", "The fuse blew again!?", "Check it."]],
    ["ellipses", "The pump hums… then stops. Check it.", ["The pump hums…", "then stops.", "Check it."]],
    ["Chinese and Japanese need no space", "保险丝完好吗？电压正常。", ["保险丝完好吗？", "电压正常。"]],
    [
      "line breaks always cut",
      "Cause: open fuse\nCorrection: replace it",
      ["Cause: open fuse", "Correction: replace it"],
    ],
  ])("%s", (_label, text, expected) => {
    expect(texts(text)).toEqual(expected);
  });

  it("numbers sentences from 0, skipping pieces with no letter or digit, with offsets into the text", () => {
    const text = "Hello!\n---\n🙂\n  Bye now.  ";
    const sentences = splitSentences(text);
    expect(sentences.map((s) => [s.index, s.text])).toEqual([
      [0, "Hello!"],
      [1, "Bye now."],
    ]);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
  });
});

describe("questions", () => {
  it.each([
    "Is the fuse intact?",
    "What does the pump draw?",
    "Fuse intact?",
    "If the pump hums, is the strainer clogged?",
    "With the pump switch ON, is there battery voltage at the pump connector: about 12 V, low (under 11.5 V), or none?",
    "So, what did the meter read?",
    "1. Is the water pump fuse intact?",
    "¿Está intacto el fusible?",
    "Si la bomba zumba, ¿está limpio el filtro?",
    "Le fusible est-il intact ?",
    "Quelle tension lisez-vous ?",
    "Ist die Sicherung intakt?",
    "Wie viel Volt messen Sie?",
    "Dove si trova il fusibile?",
    "Quanto mede a tensão?",
    "ヒューズは大丈夫ですか？",
    "保险丝完好吗？",
    "هل الفيوز سليم؟",
    "Предохранитель цел?",
  ])("%j is a question", (sentence) => {
    expect(sentenceKind(sentence)).toBe("question");
  });

  it.each([
    ["a tag question", "The fuse is 30 A, right?"],
    ["a tag question with an auxiliary", "You can bypass it with a wire, can't you?"],
    ["a tag phrase", "The breaker resets itself, is that right?"],
    ["a Spanish tag", "El fusible es de 30 A, ¿verdad?"],
    ["a rhetorical opener", "Did you know you can bypass the fuse with a wire?"],
    ["a declarative with a question mark", "The pump uses a 30 A fuse and you can bypass it with a wire?"],
    ["an assertion before the question", "The pump uses a 30 A fuse, so can you bypass it with a wire?"],
    ["a Spanish assertion before the question", "El fusible es de 30 A, ¿puedo puentearlo?"],
  ])("%s states something: %j", (_label, sentence) => {
    expect(sentenceKind(sentence)).toBe("statement");
  });

  it("a Latin-script question with no question word or inversion counts as a statement (the safe side)", () => {
    // Italian and Portuguese yes/no questions look like statements; in a strict domain the model
    // covers them with a claim, or asks with a question word.
    expect(sentenceKind("Il fusibile è intatto?")).toBe("statement");
    expect(sentenceKind("A bomba funciona agora?")).toBe("statement");
  });
});

describe("greetings, thanks and acknowledgements", () => {
  it.each([
    "Hi",
    "Hi!",
    "Hello there, thanks for asking!",
    "Thanks!",
    "Thank you so much.",
    "You're welcome.",
    "You’re welcome!",
    "No problem, happy to help.",
    "Got it.",
    "OK.",
    "Noted.",
    "Good question!",
    "Here is what I know.",
    "I hope this helps!",
    "Let me know if you have any other questions.",
    "If you have any other questions, let me know.",
    "I don't know.",
    "Have a great day! 🙂",
    "Good luck!",
    "¡Gracias!",
    "Merci beaucoup !",
    "Danke schön.",
    "Hola, buenos días.",
  ])("%j is courtesy", (sentence) => {
    expect(sentenceKind(sentence)).toBe("courtesy");
  });

  it.each([
    ["agreement answers a question", "Yes."],
    ["so does 'sure'", "Sure."],
    ["and 'no'", "No."],
    ["and 'right'", "Right."],
    ["and 'of course'", "Of course!"],
    ["a number answers too", "30."],
    ["thanks with a fact", "Thanks, the fuse is 30 A."],
    ["a greeting with advice", "Hi, you can bypass it with a wire."],
    ["an acknowledgement with an instruction", "OK, bypass it."],
  ])("%s: %j is a statement", (_label, sentence) => {
    expect(sentenceKind(sentence)).toBe("statement");
  });

  it("the offline model's own sentences about the conversation are not statements", () => {
    expect(
      statementIndexes(
        [
          'I have no stored knowledge about this yet. Tell me what you decided or want remembered ("we decided ...", "remember that ...") and I will propose it for review.',
          "If you know, tell me and I will propose saving it.",
          "I can propose at most 16 pieces of knowledge per message; send the rest separately.",
          "I can track at most 32 open questions per message; ask the rest separately.",
          "Got it.",
        ].join("\n"),
      ),
    ).toEqual([]);
  });

  it("a proposal report is courtesy only for a suggestion of the same answer", () => {
    const create = 'I proposed saving this as new knowledge for review: "Use Postgres for analytics".';
    const update = 'I proposed adding this to CFB-0001 for review: "Analytics workloads run on Postgres replicas".';
    expect(sentenceKind(create, { proposals: [{ title: "Use Postgres for analytics" }] })).toBe("courtesy");
    expect(sentenceKind(create)).toBe("statement");
    expect(sentenceKind(create, { proposals: [{ title: "Bypass the fuse with a wire" }] })).toBe("statement");
    const title = "Analytics workloads run on Postgres replicas";
    expect(sentenceKind(update, { proposals: [{ title, target_cfb_id: "CFB-0001" }] })).toBe("courtesy");
    expect(sentenceKind(update, { proposals: [{ title, target_cfb_id: "CFB-0002" }] })).toBe("statement");
    expect(sentenceKind(update, { proposals: [{ title }] })).toBe("statement");
  });
});

// ---- procedure mode: the directive's own wording ------------------------------------------------

const COMPLAINT = "The fresh water system stopped working this morning.";

function engineTurn(messages: string[], systemId = "water_pump"): TContextTurn {
  let state = startContext(RV_SERVICE_CATALOG, systemId);
  let last: TContextTurn | null = null;
  for (const message of messages) {
    last = contextTurn(RV_SERVICE_CATALOG, state, message);
    state = last.state;
  }
  if (last === null) throw new Error("engineTurn needs at least one message");
  return last;
}

/** What the control plane hands the model for an engine turn (procedure-turn.ts's own builder). */
const modelProcedure = (turn: TContextTurn, catalog: TCatalog = RV_SERVICE_CATALOG) => modelDirective(catalog, turn);

describe("the procedure directive's wording", () => {
  const complaint = modelProcedure(engineTurn([COMPLAINT]));
  const ctx = { procedure: procedureWording(complaint) };

  it("the offline wording of the complaint turn states nothing; without the directive it does", () => {
    const reply = procedureReply(complaint);
    expect(kinds(reply, ctx)).toEqual([
      [expect.stringMatching(/^Let's diagnose the 12 V fresh-water pump step by step/), "directive"],
      [expect.stringMatching(/^Is the water pump fuse/), "question"],
      [expect.stringMatching(/^Answer with one of: /), "directive"],
      [expect.stringMatching(/^⚠ Warranty: /), "directive"],
    ]);
    expect(statementIndexes(reply)).toEqual([0, 2, 3]);
  });

  it.each([
    "Please check the water pump fuse at the distribution panel.",
    "Check whether the pump fuse is intact or blown.",
    "Next, tell me if the 12 V breaker is on or tripped.",
    "Pump fuse intact or blown?",
  ])("asking the next check in other words is not a statement: %j", (sentence) => {
    expect(sentenceKind(sentence, ctx)).toBe("directive");
  });

  it.each([
    ["advice the directive does not give", "Bypass the fuse with a wire."],
    ["a check that smuggles advice", "Check the fuse, then bypass it with a wire."],
    ["a warranty line without its 'do not'", "Disassemble the pump head or motor."],
    ["a bare number", "30."],
    ["a check with a number of its own", "Check that the fuse is 30 A."],
  ])("%s is a statement: %j", (_label, sentence) => {
    expect(sentenceKind(sentence, ctx)).toBe("statement");
  });

  it("a cause and correction are directive wording only when the directive carries them", () => {
    const authorization = modelProcedure(engineTurn([COMPLAINT, "fuse is good", "12 volts", "no, it doesn't run"]));
    const diagnosis = authorization.kind === "directive" ? authorization.directive.diagnosis : undefined;
    if (!diagnosis) throw new Error("expected a diagnosis");
    const cause = `Cause: ${diagnosis.cause}`;
    expect(sentenceKind(cause, { procedure: procedureWording(authorization) })).toBe("directive");
    // The complaint turn's directive has no diagnosis yet.
    expect(sentenceKind(cause, ctx)).toBe("statement");
  });
});

// ---- coverage --------------------------------------------------------------------------------------

describe("uncoveredStatements", () => {
  const TWO = "The pump uses a 30 A fuse. You can bypass it with a wire.";
  const ONE = "The pump uses a 30 A fuse and you can bypass it with a wire.";

  it("an empty map leaves every statement uncovered; questions and courtesy need no claim", () => {
    expect(uncoveredStatements(TWO, [])).toEqual([
      { index: 0, partly: false },
      { index: 1, partly: false },
    ]);
    expect(uncoveredStatements("Hi! Thanks for the details. Is the pump switch on?", [])).toEqual([]);
  });

  it("a claim naming a sentence covers all of it", () => {
    expect(uncoveredStatements(TWO, [{ span: { sentence: 0 } }])).toEqual([{ index: 1, partly: false }]);
    expect(uncoveredStatements(TWO, [{ span: { sentence: 0 } }, { span: { sentence: 1 } }])).toEqual([]);
    // One sentence, one claim naming it: the model answers for the whole sentence.
    expect(uncoveredStatements(ONE, [{ span: { sentence: 0 } }])).toEqual([]);
  });

  it("a character range covers the clauses it overlaps: the issue's answer with one claim is incomplete", () => {
    const fuse = ONE.indexOf(" and");
    expect(uncoveredStatements(ONE, [{ span: { start_char: 0, end_char: fuse } }])).toEqual([
      { index: 0, partly: true },
    ]);
    expect(uncoveredStatements(ONE, [{ span: { start_char: 0, end_char: ONE.length } }])).toEqual([]);
    expect(
      uncoveredStatements(ONE, [
        { span: { start_char: 0, end_char: fuse } },
        { span: { start_char: fuse + 5, end_char: ONE.length - 1 } },
      ]),
    ).toEqual([]);
    // A range across both sentences covers both.
    expect(uncoveredStatements(TWO, [{ span: { start_char: 10, end_char: 40 } }])).toEqual([]);
  });

  it("a valid range decides over the sentence index; an invalid one leaves the index", () => {
    expect(uncoveredStatements(TWO, [{ span: { sentence: 1, start_char: 0, end_char: 5 } }])).toEqual([
      { index: 1, partly: false },
    ]);
    expect(uncoveredStatements(TWO, [{ span: { sentence: 1, start_char: 5, end_char: 5000 } }])).toEqual([
      { index: 0, partly: false },
    ]);
  });

  it("a clause that is only courtesy needs no claim", () => {
    const text = "Thanks, and the pump uses a 30 A fuse.";
    const start = text.indexOf("the pump");
    expect(uncoveredStatements(text, [{ span: { start_char: start, end_char: text.length } }])).toEqual([]);
  });

  it("stays linear on adversarial text: 32× the characters cost far less than 1,024× the time", () => {
    // The process's own CPU time (other processes' work on a busy machine is not counted), the
    // fastest of seven runs at each size, the sizes taking turns; linear code scales about 32×, a
    // quadratic pass 1,024×, and the bound sits between them with room for a loaded machine's
    // cache misses (at load 20 on 2 cores, 16× the characters once cost 162× the wall time).
    const run = (text: string) => {
      const started = process.cpuUsage();
      uncoveredStatements(text, [{ span: { start_char: 0, end_char: 10 } }]);
      const spent = process.cpuUsage(started);
      return (spent.user + spent.system) / 1000;
    };
    for (const unit of ["e.g. ", "?", "a. ", "1. ", "Hi ", "x", "¿", "“", ", and you "]) {
      const sized = (n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
      // (sizes large enough that the small one is not lost in the clock's resolution)
      const [small, large] = [sized(4_000), sized(128_000)];
      run(large);
      let fastSmall = Number.POSITIVE_INFINITY;
      let fastLarge = Number.POSITIVE_INFINITY;
      for (let round = 0; round < 7; round++) {
        fastSmall = Math.min(fastSmall, run(small));
        fastLarge = Math.min(fastLarge, run(large));
      }
      expect(fastLarge / Math.max(fastSmall, 0.05), unit).toBeLessThan(256);
    }
  });
});
