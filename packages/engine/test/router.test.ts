// The router (router/route.ts, classifier.ts): a classifier trained on a config's example
// messages, operator rules, and what an unrouted turn does. A small config of its own (a garden
// centre's help desk), so that every expectation follows from the examples written here.
import { type TRoutingConfigInput, ZRoutingConfig } from "@solserver/contracts";
import { describe, expect, it } from "vitest";
import { buildRouter, routeTurn, type TRouteInput, trainRouter } from "../src";

const CONFIG: TRoutingConfigInput = {
  fallback_domain: "general",
  min_confidence: 0.5,
  domains: [
    {
      id: "garden",
      label: "Garden",
      mode_label: "Gardening",
      examples: [
        "my tomato plants have yellow leaves",
        "when should I prune the roses",
        "how often do I water seedlings in summer",
        "the lawn has brown patches after the heatwave",
        "what compost is best for vegetables",
        "aphids all over the beans, what do I spray",
        "can I plant tulip bulbs in november",
        "my hedge is growing too fast",
        "meine Tomaten haben braune Flecken",
        "quand faut-il tailler les rosiers",
      ],
      keywords: ["fertiliser", "weeds"],
      always: ["lawn mower"],
    },
    {
      id: "shed",
      label: "Tools",
      mode_label: "Tools",
      strict: true,
      scope: "domain",
      examples: [
        "the chainsaw chain keeps slipping off",
        "my drill battery will not charge",
        "the pressure washer loses pressure after a minute",
        "how do I sharpen the hedge trimmer blades",
        "the leaf blower engine starts and dies",
        "which oil goes in a two-stroke engine",
        "the angle grinder sparks at the switch",
        "mein Akku-Bohrschrauber lädt nicht mehr",
        "la tronçonneuse ne démarre pas",
      ],
      procedures: ["chainsaw"],
    },
    {
      id: "general",
      label: "General",
      mode_label: "System",
      examples: [
        "thanks a lot",
        "hello there",
        "what is the weather like tomorrow",
        "tell me a joke",
        "who won the football match yesterday",
        "what time is it in Tokyo",
        "ok great",
        "recommend a good film for tonight",
      ],
    },
  ],
};
const config = ZRoutingConfig.parse(CONFIG);
const router = buildRouter(config);

const route = (message: string, extra: Partial<TRouteInput> = {}) =>
  routeTurn(router, { message, previousDomain: null, hintHistory: [], procedureSystem: null, ...extra });

describe("the classifier", () => {
  it("is deterministic: the same examples train the same weights, the same message gets the same ranking", () => {
    const again = buildRouter(ZRoutingConfig.parse(CONFIG));
    for (const message of ["tomato leaves curling", "drill will not start", "hello"])
      expect(again.model.classify(message)).toEqual(router.model.classify(message));
  });

  it("ranks every domain with probabilities that sum to 1, best first", () => {
    const ranking = router.model.classify("the roses need pruning");
    expect(ranking.map((r) => r.domain).sort()).toEqual(["garden", "general", "shed"]);
    expect(ranking.reduce((sum, r) => sum + r.p, 0)).toBeCloseTo(1, 10);
    expect(ranking.map((r) => r.p)).toEqual([...ranking.map((r) => r.p)].sort((a, b) => b - a));
  });

  it.each([
    ["a message no example holds", "my seedlings look yellow, should I water less", "garden"],
    ["a typo", "tomatoe leafs going yelow", "garden"],
    ["a plural and another tense", "the chainsaws chains slipped", "shed"],
    ["German", "Die Tomaten im Garten haben Flecken", "garden"],
    ["French", "ma tronçonneuse ne démarre plus", "shed"],
    ["a keyword", "so many weeds", "garden"],
    ["small talk", "thanks, hello", "general"],
  ])("routes %s: %j → %s", (_kind, message, domain) => {
    expect(route(message)).toMatchObject({ domain, reason: "classifier" });
  });

  it("reports the best domain's probability as the confidence, and the strictness and scope of the domain", () => {
    const r = route("the drill battery does not charge");
    expect(r).toMatchObject({ domain: "shed", mode_label: "Tools", strict: true, scope: "domain" });
    expect(r.confidence).toBe(r.ranking[0]?.p);
    expect(r.confidence).toBeGreaterThanOrEqual(config.min_confidence);
  });

  it("refuses an example of a domain it was not given", () => {
    expect(() => trainRouter(["a"], [{ text: "x y", domain: "b" }])).toThrow('example of unknown domain "b"');
  });
});

describe("an unrouted turn", () => {
  // Words no example holds: no evidence for any domain.
  const UNKNOWN = "xyzzy plugh quux";

  it("of a new thread goes to the fallback domain, saying so", () => {
    const r = route(UNKNOWN);
    expect(r).toMatchObject({ domain: "general", reason: "fallback", strict: false, confidence: 0, ranking: [] });
    // Known words that point nowhere in particular: a ranking, but below min_confidence.
    const vague = route("what about the blades and the summer");
    expect(vague.ranking).toHaveLength(3);
    expect(vague.confidence).toBeLessThan(config.min_confidence);
    expect(vague).toMatchObject({ domain: "general", reason: "fallback" });
  });

  it("keeps the thread's previous domain", () => {
    expect(route(UNKNOWN, { previousDomain: "garden" })).toMatchObject({ domain: "garden", reason: "previous" });
  });

  it("follows the domain most recent answers name, unless a strict previous domain holds", () => {
    const hintHistory = [["garden"], ["garden"], []];
    expect(route(UNKNOWN, { hintHistory })).toMatchObject({ domain: "garden", reason: "history" });
    expect(route(UNKNOWN, { hintHistory: [["garden"], [], []] })).toMatchObject({ reason: "fallback" });
    expect(route(UNKNOWN, { hintHistory, previousDomain: "shed" })).toMatchObject({
      domain: "shed",
      reason: "previous",
      hints_overruled: "garden",
    });
  });

  it("includes a message that is nothing in particular in a thread that has a domain", () => {
    expect(route("thanks a lot, hello")).toMatchObject({ domain: "general", reason: "classifier" });
    expect(route("thanks a lot, hello", { previousDomain: "shed" })).toMatchObject({
      domain: "shed",
      reason: "previous",
    });
  });

  it("includes a message that leans to another domain but not by min_confidence over the thread's", () => {
    const message = "the blades and the leaves";
    const fresh = route(message);
    const [best] = fresh.ranking;
    const garden = fresh.ranking.find((r) => r.domain === "garden")?.p as number;
    expect(best?.domain).toBe("shed");
    expect((best?.p as number) - garden).toBeLessThan(config.min_confidence);
    expect(route(message, { previousDomain: "garden" })).toMatchObject({ domain: "garden", reason: "previous" });
    // A clear request moves the thread.
    expect(route("my drill battery will not charge", { previousDomain: "garden" })).toMatchObject({
      domain: "shed",
      reason: "classifier",
    });
  });

  it("includes a message with no word to read (empty, emoji, punctuation): no ranking, confidence 0", () => {
    for (const message of ["", "   ", "🙂🙂", "?!"]) {
      const r = route(message);
      expect(r).toMatchObject({ domain: "general", reason: "fallback", confidence: 0, ranking: [] });
    }
  });

  it("a fallback domain outside the config is the general, non-strict one", () => {
    const custom = buildRouter(ZRoutingConfig.parse({ ...CONFIG, fallback_domain: "misc" }));
    const r = routeTurn(custom, { message: UNKNOWN, previousDomain: null, hintHistory: [], procedureSystem: null });
    expect(r).toMatchObject({
      domain: "misc",
      mode_label: "System",
      strict: false,
      scope: "boost",
      reason: "fallback",
    });
  });
});

describe("rules before the classifier", () => {
  it("a procedure thread routes to the domain listing its system, whatever it says", () => {
    expect(route("thanks, hello", { procedureSystem: "chainsaw" })).toMatchObject({
      domain: "shed",
      reason: "procedure",
      confidence: 1,
    });
  });

  it("an operator's `always` phrase routes its domain, analysed like the message, its words in a row", () => {
    const r = route("the Lawn-Mowers blade is blunt");
    expect(r).toMatchObject({ domain: "garden", reason: "rule", rule: "lawn mower", confidence: 1 });
    // The words apart, or in two sentences, are no rule: the classifier decides.
    expect(route("the mower blade is blunt, the lawn is fine")).toMatchObject({ rule: null });
    expect(route("Cut the lawn. The mower blade is blunt.")).toMatchObject({ rule: null });
  });
});

describe("learning", () => {
  it("examples filed later join the training: a phrase the config never saw routes where it was filed", () => {
    const message = "the zorbing ball got a puncture";
    expect(route(message).domain).not.toBe("shed");
    const taught = buildRouter(config, [
      { text: "the zorbing ball got a puncture", domain: "shed" },
      { text: "zorbing ball puncture repair", domain: "shed" },
      // A domain the config no longer has is ignored.
      { text: "zorbing", domain: "retired" },
    ]);
    const r = routeTurn(taught, { message, previousDomain: null, hintHistory: [], procedureSystem: null });
    expect(r).toMatchObject({ domain: "shed", reason: "classifier" });
  });

  it("with sentence vectors, each domain's nearest examples vote too", () => {
    const { model } = router;
    // One direction per domain: garden's examples along x, shed's along y, general's along z.
    const axis = { garden: [1, 0, 0], shed: [0, 1, 0], general: [0, 0, 1] } as const;
    const vectors = model.examples.map((e) => Float32Array.from(axis[e.domain as keyof typeof axis]));
    const withMeaning = model.withVectors(vectors);
    expect([model.meaning, withMeaning.meaning]).toEqual([false, true]);
    const message = "what about the blades and the summer";
    const words = model.classify(message);
    const meant = withMeaning.classify(message, Float32Array.from([0, 1, 0]));
    expect(meant[0]?.domain).toBe("shed");
    expect(meant[0]?.p).toBeGreaterThan(words.find((r) => r.domain === "shed")?.p as number);
    // Without the message's vector the words alone decide.
    expect(withMeaning.classify(message)).toEqual(words);
    expect(() => model.withVectors(vectors.slice(1))).toThrow(
      `${vectors.length - 1} vectors for ${vectors.length} examples`,
    );
  });
});
