// The offline model (docs: model/offline-model.ts header): a deterministic heuristic whose output
// is untrusted input to the server, so every envelope it produces must satisfy the contract.
import { OUTPUT_LIMITS, ZOutputEnvelope } from "@solserver/contracts";
import {
  createOfflineModel,
  OFFLINE_MODEL_NAME,
  offlineEnvelope,
  type TModelCfb,
  type TModelInput,
} from "@solserver/control-plane";
import { prng } from "@solserver/db/testing";
import { tokens as words } from "@solserver/text";
import { describe, expect, it } from "vitest";

const ANALYTICS: TModelCfb = {
  cfb_id: "CFB-0001",
  domain: "data",
  title: "Analytics database",
  summary: "Analytics workloads run on Postgres with nightly rollups.",
  tags: ["analytics", "postgres"],
  entities: ["Postgres"],
};
const DEPLOYS: TModelCfb = {
  cfb_id: "CFB-0002",
  domain: "ops",
  title: "Deploy schedule",
  summary: "Production deploys happen on Tuesdays after the release review.",
  tags: ["deploys"],
  entities: [],
};
const SECRETS: TModelCfb = {
  cfb_id: "CFB-0003",
  domain: "security",
  title: "Secret rotation",
  summary: "API keys rotate every thirty days.",
  tags: ["security"],
  entities: ["Vault"],
};
const ALL = [ANALYTICS, DEPLOYS, SECRETS];

const run = (message: string, cfbs: TModelCfb[] = []) => offlineEnvelope({ message, history: [], cfbs });

/** Parses with the wire contract and fails the test with the issues when it does not validate. */
function expectValid(envelope: unknown) {
  const result = ZOutputEnvelope.safeParse(envelope);
  expect(result.success, result.success ? "" : JSON.stringify(result.error.issues).slice(0, 500)).toBe(true);
  return result;
}

describe("offlineEnvelope: statements become suggestions", () => {
  it.each([
    ["We decided to use Postgres for analytics.", "decision", "Use Postgres for analytics", 0.8],
    ["We've agreed that deploys happen on Tuesdays.", "decision", "Deploys happen on Tuesdays", 0.8],
    ["Our decision is to use Redis for caching.", "decision", "Use Redis for caching", 0.8],
    ["The team settled on Kotlin for mobile.", "decision", "Kotlin for mobile", 0.8],
    ["From now on, all migrations need review.", "rule", "All migrations need review", 0.75],
    ["Going forward we ship weekly releases.", "rule", "We ship weekly releases", 0.75],
    ["The rule is that every PR needs tests.", "rule", "Every PR needs tests", 0.75],
    ["Our policy is to encrypt backups at rest.", "rule", "Encrypt backups at rest", 0.75],
    ["Remember that staging resets nightly.", "fact", "Staging resets nightly", 0.7],
    ["Please note that the API key rotates monthly.", "fact", "The API key rotates monthly", 0.7],
    ["For the record, billing runs in UTC.", "fact", "Billing runs in UTC", 0.7],
    ["FYI the VPN drops idle sessions.", "fact", "The VPN drops idle sessions", 0.7],
    ["Ok, we decided to use Postgres for analytics", "decision", "Use Postgres for analytics", 0.8],
    ["So the team just agreed on blue-green deploys!", "decision", "Blue-green deploys", 0.8],
    ["We\u2019ve decided to freeze the schema on Fridays.", "decision", "Freeze the schema on Fridays", 0.8],
    ["Ok so we decided to archive old threads.", "decision", "Archive old threads", 0.8],
    ["The team has decided to pin Node 20.", "decision", "Pin Node 20", 0.8],
  ] as const)("%j → one %s suggestion titled %j", (message, kind, title, confidence) => {
    const envelope = run(message);
    expectValid(envelope);
    const { cfb_suggestions, assumptions, unknowns } = envelope.meta;
    expect(cfb_suggestions).toHaveLength(1);
    const [s] = cfb_suggestions;
    expect(s?.op).toBe("create");
    expect(s?.target_cfb_id).toBeUndefined();
    expect(s?.tags[0]).toBe(kind);
    expect(s?.title).toBe(title);
    expect(s?.delta_summary).toBe(`${title}.`);
    expect(s?.confidence).toBe(confidence);
    expect(s?.rationale).toContain(`User stated a ${kind}`);
    expect(assumptions).toEqual([]);
    expect(unknowns).toEqual([]);
    expect(envelope.assistant_text).toBe(`Noted. I proposed saving this as new knowledge for review: "${title}".`);
  });

  it("labels a suggestion with the clause's longest words and its proper nouns", () => {
    const [s] = run("We decided to use Postgres for analytics.").meta.cfb_suggestions;
    expect(s?.tags).toEqual(["decision", "analytics", "postgres", "use"]);
    expect(s?.entities).toEqual(["Postgres"]);
  });

  it("prefers the knowledge base's own tags and entities", () => {
    // "security" is a known tag and "vault" a known entity (spelt "Vault" in the CFB).
    const [s] = run("Remember that the vault holds security certificates.", [SECRETS]).meta.cfb_suggestions;
    expect(s?.tags.slice(0, 2)).toEqual(["fact", "security"]);
    expect(s?.entities).toEqual(["Vault"]);
  });

  it("caps tags and entities at four", () => {
    const [s] = run("We decided that our Alpha Bravo Charlie Delta Echo services migrate quarterly.").meta
      .cfb_suggestions;
    expect(s?.tags).toHaveLength(4);
    expect(s?.entities).toEqual(["Alpha", "Bravo", "Charlie", "Delta"]);
  });

  it.each(["We decided.", "We decided to.", "From now on.", "Remember that.", "For the record, ok."])(
    "a bare trigger %j yields no suggestion",
    (message) => {
      const envelope = run(message);
      expectValid(envelope);
      expect(envelope.meta.cfb_suggestions).toEqual([]);
    },
  );

  it("a trigger that is not at the sentence start is not a statement", () => {
    expect(run("Nobody remembers that we decided to use Postgres for analytics.").meta.cfb_suggestions).toEqual([]);
  });

  it("one suggestion per stated sentence, in order", () => {
    const envelope = run("We decided to use Postgres for analytics. Remember that staging resets nightly!");
    expect(envelope.meta.cfb_suggestions.map((s) => [s.tags[0], s.title])).toEqual([
      ["decision", "Use Postgres for analytics"],
      ["fact", "Staging resets nightly"],
    ]);
    expect(envelope.assistant_text.split("\n")).toHaveLength(2);
  });

  it("cuts a long clause's title at a word boundary near 80 characters", () => {
    const clause = "every service exposes health checks and readiness probes and liveness probes and metrics";
    const [s] = run(`From now on, ${clause}.`).meta.cfb_suggestions;
    expect(clause.length).toBeGreaterThan(80);
    expect(s?.title.endsWith("…")).toBe(true);
    expect(s?.title.length).toBeLessThanOrEqual(81);
    expect(`${clause.charAt(0).toUpperCase()}${clause.slice(1)}`.startsWith(s?.title.slice(0, -1) ?? "?")).toBe(true);
    // The summary keeps the whole clause.
    expect(s?.delta_summary).toBe(`${clause.charAt(0).toUpperCase()}${clause.slice(1)}.`);
  });
});

describe("offlineEnvelope: hedged statements", () => {
  it.each([
    ["We decided to maybe use Kafka for events.", 0.8, "maybe use Kafka for events"],
    ["From now on, we probably squash merge commits.", 0.75, "we probably squash merge commits"],
    ["Remember that staging might reset nightly.", 0.7, "staging might reset nightly"],
    ["We agreed that I think Kafka fits events.", 0.8, "I think Kafka fits events"],
  ])("%j lowers confidence by 0.25 and records an assumption", (message, base, clause) => {
    const envelope = run(message);
    expectValid(envelope);
    const [s] = envelope.meta.cfb_suggestions;
    expect(s?.confidence).toBeCloseTo(base - 0.25, 10);
    expect(envelope.meta.assumptions).toEqual([
      { id: "A1", text: `Treating "${clause}" as tentative: it was hedged.`, severity: "low" },
    ]);
  });

  it("a hedge before the trigger counts too", () => {
    const envelope = run("I think we decided to use Kafka for events.");
    const [s] = envelope.meta.cfb_suggestions;
    expect(s?.title).toBe("Use Kafka for events");
    expect(s?.confidence).toBeCloseTo(0.55, 10);
    expect(envelope.meta.assumptions).toHaveLength(1);
  });

  it("numbers assumptions per hedged statement and leaves unhedged ones alone", () => {
    const envelope = run(
      "We decided to maybe use Kafka for events. Remember that staging resets nightly. From now on, we perhaps tag releases.",
    );
    expect(envelope.meta.cfb_suggestions.map((s) => s.confidence)).toEqual([0.55, 0.7, 0.5]);
    expect(envelope.meta.assumptions.map((a) => a.id)).toEqual(["A1", "A2"]);
  });

  it("only whole hedge words count ('mighty' is not 'might')", () => {
    const envelope = run("We decided the mighty cluster hosts analytics.");
    expect(envelope.meta.cfb_suggestions[0]?.confidence).toBe(0.8);
    expect(envelope.meta.assumptions).toEqual([]);
  });
});

describe("offlineEnvelope: questions", () => {
  it("answers a question an injected CFB covers, citing it", () => {
    // Content words: database, runs, analytics → CFB-0001 covers 2 of 3.
    const envelope = run("What database runs analytics?", ALL);
    expectValid(envelope);
    expect(envelope.assistant_text).toBe(
      "According to CFB-0001 (Analytics database): Analytics workloads run on Postgres with nightly rollups.",
    );
    expect(envelope.meta.used_cfb_ids).toEqual(["CFB-0001"]);
    expect(envelope.meta.ignored_cfb_ids).toEqual(["CFB-0002", "CFB-0003"]);
    expect(envelope.meta.claim_map).toEqual([
      { claim_id: "c1", span: { sentence: 0 }, text: ANALYTICS.summary, support: { cfb_ids: ["CFB-0001"] } },
    ]);
    expect(envelope.meta.unknowns).toEqual([]);
    expect(envelope.meta.missing_cfb_queries).toEqual([]);
    expect(envelope.meta.domainHints).toEqual(["data"]);
    expect(envelope.meta.cfb_suggestions).toEqual([]);
  });

  it("answers at exactly 50% coverage", () => {
    // database, handles, analytics, exports → 2 of 4.
    const envelope = run("Which database handles analytics exports?", ALL);
    expect(envelope.meta.used_cfb_ids).toEqual(["CFB-0001"]);
    expect(envelope.meta.unknowns).toEqual([]);
  });

  it("turns a question below 50% coverage into an unknown", () => {
    // database, handles, billing → CFB-0001 covers 1 of 3.
    const envelope = run("Which database handles billing?", ALL);
    expect(envelope.meta.used_cfb_ids).toEqual([]);
    expect(envelope.meta.unknowns.map((u) => u.id)).toEqual(["U1"]);
  });

  it("an uncovered question yields U1, a missing_cfb_query and an unknown-backed claim", () => {
    const question = "How do we rotate the staging certificates?";
    const envelope = run(question, ALL);
    expectValid(envelope);
    expect(envelope.meta.unknowns).toEqual([
      { id: "U1", text: `No knowledge block answers: ${question}`, needs_user_input: true },
    ]);
    expect(envelope.meta.missing_cfb_queries).toEqual(["rotate staging certificates"]);
    expect(envelope.meta.claim_map).toEqual([
      { claim_id: "c1", span: { sentence: 0 }, text: question, support: { unknown_id: "U1" } },
    ]);
    expect(envelope.assistant_text).toBe(
      `I don't have knowledge that answers "${question}". If you know, tell me and I will propose saving it.`,
    );
    expect(envelope.meta.used_cfb_ids).toEqual([]);
    expect(envelope.meta.ignored_cfb_ids).toEqual(["CFB-0001", "CFB-0002", "CFB-0003"]);
    expect(envelope.meta.domainHints).toEqual(["general"]);
  });

  it("recognises a question by its first word even without a question mark", () => {
    const envelope = run("When do deploys happen", ALL);
    expect(envelope.meta.used_cfb_ids).toEqual(["CFB-0002"]);
  });

  it("numbers unknowns and de-duplicates their queries", () => {
    const envelope = run("Who owns billing? Who owns billing? Where are invoices archived?");
    expect(envelope.meta.unknowns.map((u) => u.id)).toEqual(["U1", "U2", "U3"]);
    expect(envelope.meta.missing_cfb_queries).toEqual(["owns billing", "invoices archived"]);
    expect(envelope.meta.claim_map?.map((c) => c.support.unknown_id)).toEqual(["U1", "U2", "U3"]);
  });

  it("falls back to the lower-cased sentence when a question has no content words", () => {
    const envelope = run("Why?");
    expectValid(envelope);
    expect(envelope.meta.missing_cfb_queries).toEqual(["why?"]);
  });

  it("claim spans point at the assistant_text line they support", () => {
    const envelope = run(
      "We decided to use Redis for caching. How do we rotate the staging certificates? What database runs analytics?",
      ALL,
    );
    const lines = envelope.assistant_text.split("\n");
    expect(lines).toHaveLength(3);
    const claims = envelope.meta.claim_map ?? [];
    expect(claims.map((c) => c.claim_id)).toEqual(["c1", "c2"]);
    expect(claims[0]?.support).toEqual({ unknown_id: "U1" });
    expect(lines[claims[0]?.span.sentence ?? -1]).toContain("I don't have knowledge");
    expect(claims[1]?.support).toEqual({ cfb_ids: ["CFB-0001"] });
    expect(lines[claims[1]?.span.sentence ?? -1]).toContain("According to CFB-0001");
  });

  it("cites a CFB once in used_cfb_ids even when it answers twice", () => {
    const envelope = run("What database runs analytics? Which database handles analytics?", ALL);
    expect(envelope.meta.used_cfb_ids).toEqual(["CFB-0001"]);
    expect(envelope.meta.claim_map).toHaveLength(2);
  });

  it("on equal coverage keeps the earlier (better-ranked) CFB", () => {
    const twin: TModelCfb = { ...ANALYTICS, cfb_id: "CFB-0009", domain: "twin" };
    expect(run("What database runs analytics?", [twin, ANALYTICS]).meta.used_cfb_ids).toEqual(["CFB-0009"]);
    expect(run("What database runs analytics?", [ANALYTICS, twin]).meta.used_cfb_ids).toEqual(["CFB-0001"]);
  });
});

describe("offlineEnvelope: other sentences", () => {
  it("cites a CFB that clearly covers a plain sentence", () => {
    const envelope = run("Production deploys happen on Tuesdays.", ALL);
    expect(envelope.assistant_text).toBe(`This relates to CFB-0002 (Deploy schedule): ${DEPLOYS.summary}`);
    expect(envelope.meta.used_cfb_ids).toEqual(["CFB-0002"]);
    expect(envelope.meta.domainHints).toEqual(["ops"]);
  });

  it("says it knows nothing when no sentence matches", () => {
    const envelope = run("The weather is lovely today.", ALL);
    expectValid(envelope);
    expect(envelope.assistant_text).toMatch(/^I have no stored knowledge about this yet\./);
    expect(envelope.meta.used_cfb_ids).toEqual([]);
    expect(envelope.meta.ignored_cfb_ids).toEqual(["CFB-0001", "CFB-0002", "CFB-0003"]);
    expect(envelope.meta.claim_map).toEqual([]);
  });

  it.each(["ok thanks", "Thanks!", "Sounds good. Got it.", "okay, cool"])("acknowledgement %j → Got it.", (m) => {
    const envelope = run(m, ALL);
    expectValid(envelope);
    expect(envelope.assistant_text).toBe("Got it.");
    expect(envelope.meta.cfb_suggestions).toEqual([]);
    expect(envelope.meta.unknowns).toEqual([]);
    expect(envelope.meta.used_cfb_ids).toEqual([]);
  });

  it("skips acknowledgements but still handles the rest of the message", () => {
    const envelope = run("Ok thanks. We decided to use Postgres for analytics.");
    expect(envelope.meta.cfb_suggestions).toHaveLength(1);
    expect(envelope.assistant_text).not.toContain("Got it.");
  });

  it("labels its mode Offline", () => {
    expect(run("hello").meta.modeLabel).toBe("Offline");
  });
});

describe("offlineEnvelope: update vs create", () => {
  it("a statement an injected CFB covers >= 60% becomes an update of it", () => {
    // analytics, workloads, run, postgres, replicas → CFB-0001 covers 4 of 5.
    const envelope = run("We decided that analytics workloads run on Postgres replicas.", ALL);
    expectValid(envelope);
    const [s] = envelope.meta.cfb_suggestions;
    expect(s).toMatchObject({
      op: "update",
      target_cfb_id: "CFB-0001",
      title: "Analytics workloads run on Postgres replicas",
      delta_summary: "Add decision: analytics workloads run on Postgres replicas.",
      tags: ["decision", "analytics", "postgres", "workloads"],
      entities: ["Postgres"],
      confidence: 0.8,
    });
    expect(s?.rationale).toContain("CFB-0001 already covers 80%");
    expect(envelope.assistant_text).toBe(
      'Noted. I proposed adding this to CFB-0001 for review: "Analytics workloads run on Postgres replicas".',
    );
  });

  it("updates at exactly 60% coverage", () => {
    // analytics, workloads, run, kafka, streams → 3 of 5.
    const [s] = run("We decided analytics workloads run on Kafka streams.", ALL).meta.cfb_suggestions;
    expect(s?.op).toBe("update");
    expect(s?.target_cfb_id).toBe("CFB-0001");
  });

  it("creates below 60% coverage, without a target", () => {
    // analytics, dashboards, use, postgres → 2 of 4.
    const [s] = run("We decided analytics dashboards use Postgres.", ALL).meta.cfb_suggestions;
    expect(s?.op).toBe("create");
    expect(s).not.toHaveProperty("target_cfb_id");
    expect(s?.delta_summary).toBe("Analytics dashboards use Postgres.");
  });

  it("ignored_cfb_ids is exactly the injected CFBs minus the used ones, in injected order", () => {
    const envelope = run(
      "We decided that analytics workloads run on Postgres replicas. When do deploys happen? Who owns billing?",
      [SECRETS, DEPLOYS, ANALYTICS],
    );
    expect(envelope.meta.used_cfb_ids).toEqual(["CFB-0002"]);
    // The update's target is proposed, not cited: it stays in ignored_cfb_ids.
    expect(envelope.meta.cfb_suggestions[0]?.target_cfb_id).toBe("CFB-0001");
    expect(envelope.meta.ignored_cfb_ids).toEqual(["CFB-0003", "CFB-0001"]);
    const all = [...envelope.meta.used_cfb_ids, ...envelope.meta.ignored_cfb_ids].sort();
    expect(all).toEqual(["CFB-0001", "CFB-0002", "CFB-0003"]);
  });
});

describe("offlineEnvelope: domainHints", () => {
  it("is the sorted, de-duplicated domains of the used CFBs", () => {
    const moreOps: TModelCfb = { ...SECRETS, cfb_id: "CFB-0004", domain: "ops" };
    const envelope = run("When do deploys happen? What database runs analytics? Which API keys rotate?", [
      DEPLOYS,
      ANALYTICS,
      moreOps,
    ]);
    expect(envelope.meta.used_cfb_ids).toEqual(["CFB-0002", "CFB-0001", "CFB-0004"]);
    expect(envelope.meta.domainHints).toEqual(["data", "ops"]);
  });

  it('is ["general"] when nothing was used', () => {
    expect(run("We decided to use Postgres for analytics.", ALL).meta.domainHints).toEqual(["general"]);
    expect(run("hello there").meta.domainHints).toEqual(["general"]);
  });
});

describe("offlineEnvelope: determinism and contract", () => {
  const message =
    "Ok, we decided to maybe use Kafka for events. What database runs analytics? Who owns billing? Production deploys happen on Tuesdays.";

  it("the same input twice gives deep-equal output that validates", () => {
    const first = run(message, ALL);
    const second = run(message, ALL);
    expect(second).toEqual(first);
    expect(first.meta.cfb_suggestions).toHaveLength(1);
    expect(first.meta.used_cfb_ids).toEqual(["CFB-0001", "CFB-0002"]);
    // Parsing changes nothing: the model already emits every defaulted field.
    expect(expectValid(first).data).toEqual(first);
  });

  it("ignores history", () => {
    const withHistory = offlineEnvelope({
      message,
      history: [{ role: "user", content: "We decided to use MySQL for analytics." }],
      cfbs: ALL,
    });
    expect(withHistory).toEqual(run(message, ALL));
  });

  it("does not mutate its input", () => {
    const input: TModelInput = { message, history: [], cfbs: structuredClone(ALL) };
    const snapshot = structuredClone(input);
    offlineEnvelope(input);
    expect(input).toEqual(snapshot);
  });
});

describe("createOfflineModel", () => {
  it("wraps offlineEnvelope with word counts", async () => {
    const model = createOfflineModel();
    expect(model.name).toBe(OFFLINE_MODEL_NAME);
    expect(OFFLINE_MODEL_NAME).toBe("offline-heuristic-v1");
    const input: TModelInput = { message: "What database runs analytics?", history: [], cfbs: [ANALYTICS] };
    const output = await model.generate(input);
    expect(output.envelope).toEqual(offlineEnvelope(input));
    // 4 message words + "Analytics database" (2) + the 8-word summary.
    expect(output.tokensIn).toBe(4 + 2 + 8);
    const text = (output.envelope as { assistant_text: string }).assistant_text;
    expect(output.tokensOut).toBe(words(text).length);
    expect(output.tokensOut).toBeGreaterThan(0);
  });

  it("is deterministic across calls", async () => {
    const model = createOfflineModel();
    const input: TModelInput = { message: "We decided to use Redis for caching. Why?", history: [], cfbs: ALL };
    expect(await model.generate(input)).toEqual(await model.generate(input));
  });
});

// --- Generated inputs -----------------------------------------------------------------------

const VOCAB = [
  "we decided",
  "we've agreed that",
  "our decision is",
  "from now on,",
  "going forward",
  "the rule is",
  "remember that",
  "please note that",
  "for the record,",
  "maybe",
  "probably",
  "I think",
  "ok",
  "thanks",
  "what",
  "how",
  "why",
  "database",
  "analytics",
  "Postgres",
  "deploys",
  "Tuesdays",
  "API",
  "keys",
  "rotate",
  "staging",
  "it's",
  "naïve",
  "Straße",
  "日本語",
  "🚀",
  "42",
  "3.14",
  "e.g.",
  "—",
  "'",
  '"quoted"',
  "x",
  "!!",
  "???",
  "...",
  "\n",
  "\t",
  "CFB-0001",
];

/** A message of up to 60 sentences of up to 14 tokens (past the per-message caps on suggestions and unknowns). */
function generateMessage(next: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const sentenceCount = 1 + Math.floor(next() * 60);
  const out: string[] = [];
  for (let i = 0; i < sentenceCount; i++) {
    const tokens = Array.from({ length: 1 + Math.floor(next() * 14) }, () => pick(VOCAB));
    out.push(tokens.join(next() < 0.1 ? "" : " ") + pick([".", "?", "!", "", "\n"]));
  }
  return out.join(" ");
}

describe("offlineEnvelope: generated messages", () => {
  it("always returns a valid envelope with confidences in [0, 1], deterministically", () => {
    const next = prng(0x5eed);
    for (let i = 0; i < 400; i++) {
      const message = generateMessage(next);
      const cfbs = ALL.filter(() => next() < 0.6);
      const envelope = run(message, cfbs);
      const parsed = ZOutputEnvelope.safeParse(envelope);
      if (!parsed.success) {
        expect.fail(`case ${i} ${JSON.stringify(message)}: ${JSON.stringify(parsed.error.issues).slice(0, 400)}`);
      }
      for (const s of envelope.meta.cfb_suggestions) {
        expect(s.confidence).toBeGreaterThanOrEqual(0);
        expect(s.confidence).toBeLessThanOrEqual(1);
        if (s.op === "update") expect(cfbs.map((c) => c.cfb_id)).toContain(s.target_cfb_id);
      }
      const injected = cfbs.map((c) => c.cfb_id);
      expect([...envelope.meta.used_cfb_ids, ...envelope.meta.ignored_cfb_ids].sort()).toEqual([...injected].sort());
      expect(run(message, cfbs)).toEqual(envelope);
    }
  });
});

describe("offlineEnvelope: scales linearly far past the message limit", () => {
  // 25 times the 8000-character limit. No timing assertion: linear code finishes in well under
  // a second, while a quadratic regex (e.g. /[.!]+$/ on a long run of "!" that is not at the end,
  // ~4.5 s at 50k characters) would take over a minute and hit the test timeout.
  it.each([
    ["a run of bangs before another character", `we decided foo bar ${"!".repeat(200_000)}?`],
    ["a run of dots inside a statement", `Remember that the ${".".repeat(200_000)}x`],
    ["spaces after a hedge and a filler", `ok so I think ${" ".repeat(200_000)}we decided x y`],
    ["spaces inside a trigger", `we ${" ".repeat(200_000)}decided nothing`],
  ])("%s", (_label, message) => {
    const envelope = offlineEnvelope({ message, history: [], cfbs: [] });
    expect(envelope.assistant_text.length).toBeGreaterThan(0);
  });
});

describe("offlineEnvelope: adversarial input stays linear", () => {
  // No timing assertions (they flake): the per-file test timeout is the guard against a
  // catastrophic regex. Each input is at the 8000-character message limit.
  it.each([
    ["repeated trigger", "we decided ".repeat(727)],
    ["bangs and letters", "!!!!a ".repeat(1333)],
    ["a single 8000-character word", "a".repeat(8000)],
    ["dots", ".".repeat(8000)],
    ["numbers and dots", "1.".repeat(4000)],
    ["lead filler", "ok ".repeat(2666)],
    ["capitalised words after a trigger", `We decided ${"Aa ".repeat(2660)}`],
    ["punctuation-wrapped token runs", `Remember that ${"(((((x))))) ".repeat(660)}`],
    ["apostrophes", `For the record, ${"''''''a ".repeat(990)}`],
  ])("%s", (_label, message) => {
    expect(message.length).toBeLessThanOrEqual(8000);
    expect(message.length).toBeGreaterThan(7900);
    const envelope = run(message, ALL);
    expectValid(envelope);
  });

  it("many short statements stop at the suggestion cap and say so", () => {
    const message = "We decided to use Redis. ".repeat(320);
    const envelope = run(message, ALL);
    expectValid(envelope);
    expect(envelope.meta.cfb_suggestions).toHaveLength(OUTPUT_LIMITS.suggestions);
    expect(envelope.meta.cfb_suggestions.every((s) => s.title === "Use Redis")).toBe(true);
    expect(envelope.assistant_text).toContain(`at most ${OUTPUT_LIMITS.suggestions} pieces of knowledge`);
  });

  it("many open questions stop at the unknowns cap", () => {
    const envelope = run(Array.from({ length: 40 }, (_, i) => `Why x${i}?`).join(" "), []);
    expectValid(envelope);
    expect(envelope.meta.unknowns).toHaveLength(OUTPUT_LIMITS.unknowns);
    expect(envelope.meta.missing_cfb_queries).toHaveLength(OUTPUT_LIMITS.queries);
  });

  it.each([
    ["a long question", `What ${"w".repeat(301)}?`],
    ["a word longer than a tag", `We decided to use ${"a".repeat(65)} everywhere.`],
    ["a 2000-character clause", `Remember that ${"data ".repeat(401)}`],
    ["a 2000-character question", `Why ${"a".repeat(1990)}?`],
  ])("%s stays within the contract", (_label, message) => {
    expectValid(run(message, []));
  });

  it("a statement with a huge clause of proper nouns completes with a short title", () => {
    const message = `We decided ${"Abc Def ".repeat(998)}`;
    expect(message.length).toBeGreaterThan(7900);
    const envelope = run(message, ALL);
    expectValid(envelope);
    const [s, ...rest] = envelope.meta.cfb_suggestions;
    expect(rest).toEqual([]);
    expect(s?.title.length).toBeLessThanOrEqual(81);
    // The clause's first word is sentence-initial, so it is not taken as a name there.
    expect(s?.entities).toEqual(["Def", "Abc"]);
  });
});

describe("a question about a decision still waiting for review", () => {
  const pending = [
    {
      proposal_id: "UP-0042",
      title: "Run the nightly export at 2am UTC",
      summary: "The nightly export runs at 2am UTC.",
    },
  ];
  it("says it is waiting for review, naming the proposal, and still records the unknown", () => {
    const env = offlineEnvelope({
      message: "When do we run the nightly export?",
      history: [],
      cfbs: [],
      pendingProposals: pending,
    });
    expect(env.assistant_text).toContain(
      '"Run the nightly export at 2am UTC" (proposal UP-0042) is waiting for review',
    );
    expect(env.meta.unknowns).toHaveLength(1);
  });

  it("answers as before when no pending proposal covers the question", () => {
    const env = offlineEnvelope({
      message: "Who owns the billing queue?",
      history: [],
      cfbs: [],
      pendingProposals: pending,
    });
    expect(env.assistant_text).toContain("I don't have knowledge that answers");
    expect(env.assistant_text).not.toContain("waiting for review");
  });
});
