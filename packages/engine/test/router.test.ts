// The selector step's router (`routeTurn`, seed 001 §7.1) on a small routing table: keyword,
// phrase, tag and entity weights, min_score, stickiness to the thread's previous domain (its
// bonus and the tie-break), ties toward the strict domain and then config order, the history
// share of domainHints and the strict route that hints cannot move, procedure threads, the
// fallbacks (previous domain, then the default, "general"-like when the default is not a
// configured domain); the matcher's normalisation (Unicode case folding, NFKC, accents,
// possessives, plurals, compounds written apart or together, typos, phrases in other languages);
// and properties over generated turns: same input same route, the winner holds the best score,
// stickiness never moves a turn away from the previous domain, domainHints never move a turn out
// of a strict route, full-width and upper-case text routes as its plain form.

import { fold as foldText } from "@solserver/text";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ROUTE_WEIGHTS, routeTurn, type TRouteInput, type TRoutingConfig, type TRoutingDomain } from "../src/index";
import { stemWord, toRouteClauses } from "../src/router/normalise";

function domain(id: string, over: Partial<TRoutingDomain> = {}): TRoutingDomain {
  return {
    id,
    label: id,
    mode_label: `${id} mode`,
    strict: false,
    scope: "boost",
    keywords: [],
    tags: [],
    entities: [],
    procedures: [],
    ...over,
  };
}

const INFRA = domain("infra", {
  keywords: ["deploy", "release train", "schedule"],
  tags: ["k8s"],
  entities: ["Kubernetes"],
});
const RV = domain("rv", {
  mode_label: "Service desk",
  strict: true,
  scope: "domain",
  keywords: ["water pump", "camper", "schedule"],
  tags: ["service"],
  entities: ["Dometic"],
  procedures: ["water_pump", "furnace"],
});
const DOCS = domain("docs", { keywords: ["manual"] });

const CONFIG: TRoutingConfig = { default_domain: "general", min_score: 1, domains: [INFRA, RV, DOCS] };
const withConfig = (over: Partial<TRoutingConfig>): TRoutingConfig => ({ ...CONFIG, ...over });

/** A turn of a new thread with this message, plus any thread context given. */
const turn = (message: string, over: Partial<TRouteInput> = {}): TRouteInput => ({
  message,
  previousDomain: null,
  hintHistory: [],
  procedureSystem: null,
  ...over,
});
const route = (message: string, over: Partial<TRouteInput> = {}, config = CONFIG) =>
  routeTurn(config, turn(message, over));

describe("word scores", () => {
  it.each([
    ["one keyword", "Deploy it now", [{ domain: "infra", score: 1, hits: ["keyword:deploy"] }]],
    [
      "a phrase of two words",
      "When does the release train leave?",
      [{ domain: "infra", score: ROUTE_WEIGHTS.phrase, hits: ["keyword:release train"] }],
    ],
    ["a tag", "Our K8S cluster is slow", [{ domain: "infra", score: ROUTE_WEIGHTS.tag, hits: ["tag:k8s"] }]],
    [
      "an entity, any case",
      "kubernetes is down",
      [{ domain: "infra", score: ROUTE_WEIGHTS.entity, hits: ["entity:Kubernetes"] }],
    ],
    [
      "each entry once however often it occurs",
      "deploy, deploy and deploy again",
      [{ domain: "infra", score: 1, hits: ["keyword:deploy"] }],
    ],
    [
      "several domains, best first",
      "Deploy a fix for the water pump",
      [
        { domain: "rv", score: 2, hits: ["keyword:water pump"] },
        { domain: "infra", score: 1, hits: ["keyword:deploy"] },
      ],
    ],
    [
      "keywords, tags and entities add up",
      "The Dometic service in the camper",
      [{ domain: "rv", score: 4, hits: ["keyword:camper", "tag:service", "entity:Dometic"] }],
    ],
  ] as const)("%s", (_name, message, scores) => {
    const r = route(message);
    expect(r.scores).toEqual(scores);
    expect(r).toMatchObject({ domain: scores[0].domain, reason: "words" });
  });

  it("never matches a phrase across a clause break, nor part of a word", () => {
    expect(route("the release, train").scores).toEqual([]);
    expect(route("redeploy the campervans").scores).toEqual([]);
    expect(route("the release, train")).toMatchObject({ domain: "general", reason: "default" });
  });

  it("carries the winning domain's mode label, strictness and scope", () => {
    expect(route("The water pump hums")).toMatchObject({
      domain: "rv",
      mode_label: "Service desk",
      strict: true,
      scope: "domain",
    });
    expect(route("deploy")).toMatchObject({ domain: "infra", mode_label: "infra mode", strict: false, scope: "boost" });
  });
});

// ---- normalisation -------------------------------------------------------------------------------

describe("matching normalises the message and the entries alike", () => {
  const DESK = domain("desk", {
    strict: true,
    keywords: [
      "rv",
      "water pump",
      "switch",
      "battery",
      "fuse",
      "slide-out",
      "roof a/c",
      "backup",
      "furnace",
      "Straße",
      "winterize",
      "clog",
      "502",
    ],
    phrases: { de: ["Wasserpumpe", "Kühlschrank"], fr: ["pompe à eau"], es: ["bomba de agua"], zh: ["水泵"] },
    entities: ["Dometic"],
  });
  const config = withConfig({ domains: [INFRA, DESK] });
  const hitsOf = (message: string) => route(message, {}, config).scores.find((s) => s.domain === "desk")?.hits ?? [];

  it.each([
    // case, Unicode-aware: upper case, ß and its upper-case spelling
    ["case", "WATER PUMP died", ["keyword:water pump"]],
    ["case folding of ß", "STRASSE", ["keyword:Straße"]],
    // NFKC: full-width letters and the ideographic space
    ["full-width", "ＲＶ　ｗａｔｅｒ　ｐｕｍｐ", ["keyword:rv", "keyword:water pump"]],
    ["full-width entity", "ＤＯＭＥＴＩＣ fridge", ["entity:Dometic"]],
    // possessives
    ["possessive 's", "My RV's fridge", ["keyword:rv"]],
    ["possessive ’s", "the RV’s pump", ["keyword:rv"]],
    ["plural possessive", "the RVs' awnings", ["keyword:rv"]],
    // plurals: -s, -es, -ies, and on the last word of a phrase
    ["plural -s", "both RVs", ["keyword:rv"]],
    ["plural of a phrase", "water pumps", ["keyword:water pump"]],
    ["plural -es", "the switches", ["keyword:switch"]],
    ["plural -ies", "house batteries", ["keyword:battery"]],
    ["plural of a word ending in e", "blown fuses", ["keyword:fuse"]],
    // compounds: hyphenated, apart, together
    ["hyphenated", "slide-out stuck", ["keyword:slide-out"]],
    ["apart", "slide out stuck", ["keyword:slide-out"]],
    ["together", "slideout stuck", ["keyword:slide-out"]],
    ["together, plural, upper case", "SLIDEOUTS stuck", ["keyword:slide-out"]],
    ["roof AC", "roof AC warm", ["keyword:roof a/c"]],
    ["roof A/C", "roof A/C warm", ["keyword:roof a/c"]],
    ["roofac", "roofac warm", ["keyword:roof a/c"]],
    ["a one-word entry across a hyphen", "the back-up failed", ["keyword:backup"]],
    // typos: one letter missing, extra, or two swapped, in words of six letters or more
    ["an extra letter", "furnance wont light", ["keyword:furnace"]],
    ["a missing letter", "furnce wont light", ["keyword:furnace"]],
    ["two letters swapped", "funrace wont light", ["keyword:furnace"]],
    // inflections of a message word in -ed and -ing, into an entry word
    ["-ed of a word ending in e", "we winterized it", ["keyword:winterize"]],
    ["-ing of a word ending in e", "winterizing tips", ["keyword:winterize"]],
    ["-ed with a doubled consonant", "drain clogged", ["keyword:clog"]],
    // a number with a suffix
    ["a number with a German suffix", "mehr 502er seit gestern", ["keyword:502"]],
    // other languages, accents or none
    ["German", "Die Wasserpumpe läuft", ["keyword(de):Wasserpumpe"]],
    ["German without the umlaut", "kuhlschrank warm", ["keyword(de):Kühlschrank"]],
    ["French", "la pompe à eau fuit", ["keyword(fr):pompe à eau"]],
    ["French without the accent", "la pompe a eau fuit", ["keyword(fr):pompe à eau"]],
    ["Spanish, upper case", "LA BOMBA DE AGUA", ["keyword(es):bomba de agua"]],
    ["Chinese, written without spaces", "房车的水泵坏了", ["keyword(zh):水泵"]],
  ] as const)("%s: %s", (_name, message, hits) => {
    expect(hitsOf(message)).toEqual(hits);
    expect(route(message, {}, config).domain).toBe("desk");
  });

  it.each([
    ["a one-word entry is not two words apart", "back up the photos"],
    ["a space next to a one-letter piece is no compound", "roofa c"],
    ["a word that merely contains an entry", "campervans and firmware"],
    ["a typo in a word shorter than six letters", "the fuze"],
    ["a typo that changes the first letter", "the burnace"],
    ["a word one substitution away", "the furnice"],
    ["an -ing word whose base is no entry word", "powering down"],
    ["a longer number, or a suffix that is not letters only", "5021 and 502x1"],
  ])("no match: %s (%s)", (_name, message) => {
    expect(hitsOf(message)).toEqual([]);
  });

  it("an entry's own -ing word never matches its stem: hosting is not host", () => {
    const hosting = withConfig({ domains: [domain("ops", { keywords: ["hosting"] })] });
    expect(route("we host a party", {}, hosting).domain).toBe("general");
    expect(route("cheap hosting", {}, hosting).domain).toBe("ops");
  });

  it("weighs a phrase by its words: a/c is one word, roof a/c two", () => {
    const ac = withConfig({ domains: [domain("cool", { keywords: ["a/c", "roof vent"] })] });
    expect(route("the A/C", {}, ac).scores).toEqual([{ domain: "cool", score: 1, hits: ["keyword:a/c"] }]);
    expect(route("roof vents", {}, ac).scores).toEqual([
      { domain: "cool", score: ROUTE_WEIGHTS.phrase, hits: ["keyword:roof vent"] },
    ]);
  });

  it("counts entries that normalise alike once, at the heaviest weight", () => {
    const dup = withConfig({
      domains: [
        domain("sol", {
          keywords: ["cfb", "CFBs", "umbra", "slide-out", "slideout"],
          tags: ["cfb"],
          entities: ["Umbra"],
        }),
      ],
    });
    expect(route("Umbra merged two CFBs", {}, dup).scores).toEqual([
      { domain: "sol", score: 1 + ROUTE_WEIGHTS.entity, hits: ["keyword:cfb", "entity:Umbra"] },
    ]);
    expect(route("slide outs", {}, dup).scores).toEqual([{ domain: "sol", score: 2, hits: ["keyword:slide-out"] }]);
  });

  it("folds case (Unicode), NFKC forms and Latin accents", () => {
    expect(foldText("ＲＶ’ｓ Ｆｒｉｄｇｅ")).toBe("rv’s fridge");
    expect(foldText("Straße STRASSE")).toBe("strasse strasse");
    expect(foldText("Kühlschrank, pompe à eau, calefacción")).toBe("kuhlschrank, pompe a eau, calefaccion");
    expect(foldText("ﬁx")).toBe("fix");
  });

  it("stems plurals with simple English rules", () => {
    expect(
      ["rvs", "pumps", "switches", "batteries", "fuses", "fuse", "boxes", "status", "glass", "ac", "cfbs"].map(
        stemWord,
      ),
    ).toEqual(["rv", "pump", "switch", "battery", "fus", "fus", "box", "status", "glass", "ac", "cfb"]);
  });

  it("splits clauses at punctuation, keeps decimals, drops possessives and marks glued words", () => {
    expect(toRouteClauses("RV's slide-out, v2.3 ok")).toEqual([
      [
        { text: "rv", glued: false },
        { text: "slide", glued: false },
        { text: "out", glued: true },
      ],
      [
        { text: "v2", glued: false },
        { text: "3", glued: false },
        { text: "ok", glued: false },
      ],
    ]);
  });

  it("is linear in the message: 200,000 characters route in well under a second", () => {
    const long = "the water pump on my camper, ".repeat(7_000);
    const started = performance.now();
    expect(route(long, {}, config).domain).toBe("desk");
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe("words against a domain", () => {
  const DESK = domain("desk", {
    strict: true,
    keywords: ["fridge", "furnace", "trailer", "travel trailer", "rv"],
    against: ["kitchen", "house", "movie", "new movie"],
  });
  const config = withConfig({ domains: [INFRA, DESK] });

  it("count against it, so a house's furnace and a movie trailer are not the desk's", () => {
    expect(route("my kitchen fridge buzzes", {}, config).domain).toBe("general");
    expect(route("the furnace in our house", {}, config).domain).toBe("general");
    const trailer = route("did you see the trailer for the new movie", {}, config);
    expect(trailer.domain).toBe("general");
    expect(trailer.scores).toEqual([]);
  });

  it("weigh like keywords (a phrase of several words: 2) and are named in the hits", () => {
    const scored = route("the RV fridge at my house", {}, config).scores.find((s) => s.domain === "desk");
    expect(scored).toEqual({ domain: "desk", score: 1, hits: ["keyword:fridge", "keyword:rv", "against:house"] });
    expect(route("the travel trailer is in the new movie", {}, config).scores).toEqual([]);
  });

  it("leave a domain whose own words outweigh them", () => {
    expect(route("RV fridge at my house", {}, config).domain).toBe("desk");
    expect(route("the travel trailer furnace at home", {}, config).domain).toBe("desk");
  });

  it("are matched like every entry (plurals, case, possessives)", () => {
    expect(route("our HOUSES' furnaces", {}, config).domain).toBe("general");
  });
});

describe("min_score", () => {
  const strict2 = withConfig({ min_score: 2 });

  it("a domain below it does not win, though its score is reported", () => {
    const r = route("Deploy it now", {}, strict2);
    expect(r).toMatchObject({ domain: "general", reason: "default" });
    expect(r.scores).toEqual([{ domain: "infra", score: 1, hits: ["keyword:deploy"] }]);
  });

  it("a domain at it wins", () => {
    expect(route("Kubernetes is down", {}, strict2)).toMatchObject({ domain: "infra", reason: "words" });
  });

  it("below it the previous domain holds", () => {
    expect(route("Deploy it now", { previousDomain: "rv" }, strict2)).toMatchObject({
      domain: "rv",
      reason: "previous",
    });
  });
});

describe("stickiness and ties", () => {
  // docs and infra share "schedule" here; rv (strict) has it too.
  const DOCS_SCHEDULE = domain("docs", { keywords: ["manual", "schedule"] });

  it("on a tie of words, a strict domain wins whatever the config order", () => {
    for (const domains of [
      [INFRA, RV, DOCS],
      [RV, INFRA, DOCS],
      [DOCS_SCHEDULE, INFRA, RV],
    ]) {
      const r = route("fix the schedule", {}, withConfig({ domains }));
      expect(r).toMatchObject({ domain: "rv", strict: true, reason: "words" });
      expect(r.scores[0]).toEqual({ domain: "rv", score: 1, hits: ["keyword:schedule"] });
    }
  });

  it("on a tie of words between domains equally strict, config order decides", () => {
    const tie = (domains: TRoutingDomain[]) => route("fix the schedule", {}, withConfig({ domains }));
    expect(tie([INFRA, DOCS_SCHEDULE]).scores.map((s) => [s.domain, s.score])).toEqual([
      ["infra", 1],
      ["docs", 1],
    ]);
    expect(tie([INFRA, DOCS_SCHEDULE]).domain).toBe("infra");
    expect(tie([DOCS_SCHEDULE, INFRA]).domain).toBe("docs");
    const strictBoth = [{ ...INFRA, strict: true }, RV];
    expect(tie(strictBoth).domain).toBe("infra");
    expect(tie([...strictBoth].reverse()).domain).toBe("rv");
  });

  it("the previous domain's bonus breaks a tie of words", () => {
    const r = route("fix the schedule", { previousDomain: "infra" });
    expect(r.domain).toBe("infra");
    expect(r.scores[0]).toEqual({
      domain: "infra",
      score: 1 + ROUTE_WEIGHTS.previous,
      hits: ["keyword:schedule", "previous"],
    });
  });

  it("on a tie of whole scores between domains equally strict, the previous domain wins over config order", () => {
    // infra: schedule + half the history = 1.5; docs: schedule + previous = 1.5.
    const config = withConfig({ domains: [INFRA, DOCS_SCHEDULE] });
    const r = route("fix the schedule", { previousDomain: "docs", hintHistory: [["infra"], []] }, config);
    expect(r.scores.map((s) => [s.domain, s.score])).toEqual([
      ["docs", 1.5],
      ["infra", 1.5],
    ]);
    expect(r).toMatchObject({ domain: "docs", reason: "words" });
  });

  it("on a tie of whole scores a strict domain wins over the previous one", () => {
    // infra: schedule + previous = 1.5; rv: schedule + half the history = 1.5.
    const r = route("fix the schedule", { previousDomain: "infra", hintHistory: [["rv"], []] });
    expect(r.scores.map((s) => [s.domain, s.score])).toEqual([
      ["rv", 1.5],
      ["infra", 1.5],
    ]);
    expect(r).toMatchObject({ domain: "rv", strict: true, reason: "words", hints_overruled: null });
  });

  it("stronger words still move a thread to another domain", () => {
    expect(route("Kubernetes is down", { previousDomain: "rv" })).toMatchObject({ domain: "infra", reason: "words" });
  });
});

describe("history of domainHints", () => {
  const hints = [["docs"], ["docs", "infra"], ["general"], ["docs"]];

  it("adds the share of recent answers that named a domain", () => {
    const r = route("anything new?", { hintHistory: hints }, withConfig({ min_score: 0.5 }));
    expect(r).toMatchObject({ domain: "docs", reason: "history" });
    expect(r.scores).toEqual([
      { domain: "docs", score: 0.75, hits: ["history:75%"] },
      { domain: "infra", score: 0.25, hits: ["history:25%"] },
    ]);
  });

  it("rounds a share to three decimals", () => {
    const r = route("hello", { hintHistory: [["docs"], [], []] }, withConfig({ min_score: 0.3 }));
    expect(r.scores).toEqual([{ domain: "docs", score: 0.333, hits: ["history:33%"] }]);
  });

  it("is not enough alone below min_score, and adds to the words", () => {
    expect(route("anything new?", { hintHistory: hints })).toMatchObject({ domain: "general", reason: "default" });
    expect(route("read the manual", { hintHistory: hints }).scores[0]).toEqual({
      domain: "docs",
      score: 1.75,
      hits: ["keyword:manual", "history:75%"],
    });
  });

  it("a thread whose every answer named one domain routes there on history alone", () => {
    expect(route("and then?", { hintHistory: [["docs"], ["docs"]] })).toMatchObject({
      domain: "docs",
      reason: "history",
      hints_overruled: null,
    });
  });

  it("moves a thread out of a non-strict domain (the hints are counted there)", () => {
    expect(route("and then?", { previousDomain: "infra", hintHistory: [["docs"], ["docs"]] })).toMatchObject({
      domain: "docs",
      reason: "history",
      hints_overruled: null,
    });
  });

  it("may move a thread into a strict domain", () => {
    expect(route("and then?", { previousDomain: "docs", hintHistory: [["rv"], ["rv"]] })).toMatchObject({
      domain: "rv",
      strict: true,
      reason: "history",
      hints_overruled: null,
    });
  });
});

describe("domainHints cannot steer out of a strict route", () => {
  const allInfra = [["infra"], ["infra"], ["infra"], ["infra"], ["infra"]];

  it("a strict previous domain holds however many answers named another domain", () => {
    for (let n = 1; n <= 5; n++) {
      const r = route("and then?", { previousDomain: "rv", hintHistory: allInfra.slice(0, n) });
      expect(r).toEqual({
        domain: "rv",
        mode_label: "Service desk",
        strict: true,
        scope: "domain",
        reason: "previous",
        // The hints are not counted: rv's stickiness alone.
        scores: [{ domain: "rv", score: ROUTE_WEIGHTS.previous, hits: ["previous"] }],
        hints_overruled: "infra",
      });
    }
  });

  it("a strict route by words holds against hints that outweigh them", () => {
    // rv: camper (1); infra would get deploy (1) + history (1) = 2 > 1.
    const r = route("deploy the camper", { hintHistory: allInfra });
    expect(r).toMatchObject({ domain: "rv", reason: "words", hints_overruled: "infra" });
    expect(r.scores.map((s) => [s.domain, s.score])).toEqual([
      ["rv", 1],
      ["infra", 1],
    ]);
  });

  it("a strict default domain holds too", () => {
    const config = withConfig({ default_domain: "rv" });
    expect(route("hello", { hintHistory: allInfra }, config)).toMatchObject({
      domain: "rv",
      reason: "default",
      hints_overruled: "infra",
    });
  });

  it("hints naming the strict domain itself overrule nothing", () => {
    expect(route("and then?", { previousDomain: "rv", hintHistory: [["rv"], ["rv", "infra"]] })).toMatchObject({
      domain: "rv",
      hints_overruled: null,
    });
  });

  it("the person's own words still move the thread", () => {
    expect(route("Kubernetes is down", { previousDomain: "rv", hintHistory: allInfra })).toMatchObject({
      domain: "infra",
      reason: "words",
      hints_overruled: null,
    });
  });
});

describe("procedure threads", () => {
  it("route to the domain listing their system, whatever the words", () => {
    const r = route("Kubernetes release train deploy", { procedureSystem: "furnace", previousDomain: "infra" });
    expect(r).toEqual({
      domain: "rv",
      mode_label: "Service desk",
      strict: true,
      scope: "domain",
      reason: "procedure",
      scores: [],
      hints_overruled: null,
    });
  });

  it("a system no domain lists is routed by its words", () => {
    expect(route("Kubernetes is down", { procedureSystem: "generator" })).toMatchObject({
      domain: "infra",
      reason: "words",
    });
  });
});

describe("fallbacks", () => {
  it("the previous domain when nothing scores enough", () => {
    expect(route("hello", { previousDomain: "docs" })).toMatchObject({
      domain: "docs",
      mode_label: "docs mode",
      reason: "previous",
      scores: [{ domain: "docs", score: ROUTE_WEIGHTS.previous, hits: ["previous"] }],
    });
  });

  it("a previous domain the config no longer has is kept, as a general-like route", () => {
    expect(route("hello", { previousDomain: "legacy" })).toEqual({
      domain: "legacy",
      mode_label: "System",
      strict: false,
      scope: "boost",
      reason: "previous",
      scores: [],
      hints_overruled: null,
    });
  });

  it("the default domain, general-like when it is not configured", () => {
    expect(route("hello")).toEqual({
      domain: "general",
      mode_label: "System",
      strict: false,
      scope: "boost",
      reason: "default",
      scores: [],
      hints_overruled: null,
    });
  });

  it("a configured default domain brings its own mode label and rules", () => {
    expect(route("hello", {}, withConfig({ default_domain: "rv" }))).toMatchObject({
      domain: "rv",
      mode_label: "Service desk",
      strict: true,
      scope: "domain",
      reason: "default",
    });
  });
});

// ---- properties --------------------------------------------------------------------------------

const WORDS = [
  "deploy",
  "release",
  "train",
  "schedule",
  "K8s",
  "Kubernetes",
  "water",
  "pump",
  "camper",
  "service",
  "Dometic",
  "manual",
  "the",
  "fix",
];
const arbMessage = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(" ", " ", ", ", ". ", "? ")), { maxLength: 12 })
  .map((parts) => parts.map(([w, sep]) => w + sep).join(""));
const arbInput: fc.Arbitrary<TRouteInput> = fc.record({
  message: arbMessage,
  previousDomain: fc.option(fc.constantFrom("infra", "rv", "docs", "legacy"), { nil: null }),
  hintHistory: fc.array(fc.array(fc.constantFrom("infra", "rv", "docs", "general"), { maxLength: 3 }), {
    maxLength: 5,
  }),
  procedureSystem: fc.option(fc.constantFrom("water_pump", "furnace", "generator"), { nil: null }),
});
const arbConfig = fc
  .record({
    min_score: fc.constantFrom(0, 0.5, 1, 2, 3),
    order: fc.shuffledSubarray([INFRA, RV, DOCS], { minLength: 1 }),
  })
  .map(({ min_score, order }) => withConfig({ min_score, domains: order }));

describe("properties", () => {
  it("same input, same route (the config and input are only read)", () => {
    fc.assert(
      fc.property(arbConfig, arbInput, (config, input) => {
        const before = structuredClone({ config, input });
        const first = routeTurn(config, input);
        expect(routeTurn(structuredClone(config), structuredClone(input))).toEqual(first);
        expect({ config, input }).toEqual(before);
      }),
    );
  });

  it("the winner holds the best score, at least min_score; otherwise nothing reached min_score", () => {
    fc.assert(
      fc.property(arbConfig, arbInput, (config, input) => {
        const r = routeTurn(config, input);
        const scores = r.scores.map((s) => s.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
        expect(scores.every((s) => s > 0)).toBe(true);
        const best = Math.max(0, ...scores);
        if (r.reason === "words" || r.reason === "history") {
          expect(r.scores.find((s) => s.domain === r.domain)?.score).toBe(best);
          expect(best).toBeGreaterThanOrEqual(config.min_score);
        } else if (r.reason !== "procedure") {
          expect(r.scores.every((s) => s.score < config.min_score)).toBe(true);
          expect(r.domain).toBe(input.previousDomain ?? config.default_domain);
        }
      }),
    );
  });

  it("routes only to a configured domain, the previous one or the default", () => {
    fc.assert(
      fc.property(arbConfig, arbInput, (config, input) => {
        const allowed = [...config.domains.map((d) => d.id), input.previousDomain, config.default_domain];
        expect(allowed).toContain(routeTurn(config, input).domain);
      }),
    );
  });

  it("a listed procedure system always decides the route", () => {
    fc.assert(
      fc.property(arbConfig, arbInput, (config, input) => {
        const owner = config.domains.find((d) => d.procedures.includes(input.procedureSystem ?? ""));
        const r = routeTurn(config, input);
        expect(r.reason === "procedure").toBe(owner !== undefined);
        if (owner) expect(r.domain).toBe(owner.id);
      }),
    );
  });

  it("domainHints never move a turn out of a strict route", () => {
    fc.assert(
      fc.property(arbConfig, arbInput, (config, input) => {
        const without = routeTurn(config, { ...input, hintHistory: [] });
        const withHints = routeTurn(config, input);
        if (without.strict) expect(withHints.domain).toBe(without.domain);
        if (withHints.hints_overruled !== null) expect(withHints.strict).toBe(true);
      }),
    );
  });

  it("full-width and upper-case text routes as its plain form", () => {
    const fullWidth = (text: string) =>
      Array.from(text.toUpperCase())
        .map((ch) => {
          const c = ch.charCodeAt(0);
          if (ch === " ") return "\u3000";
          return c > 0x20 && c < 0x7f ? String.fromCharCode(c + 0xfee0) : ch;
        })
        .join("");
    fc.assert(
      fc.property(arbConfig, arbInput, (config, input) => {
        expect(routeTurn(config, { ...input, message: fullWidth(input.message) })).toEqual(routeTurn(config, input));
      }),
    );
  });

  it("stickiness: a domain that wins a fresh turn still wins when it was the previous domain", () => {
    fc.assert(
      fc.property(arbConfig, arbInput, (config, input) => {
        const fresh = routeTurn(config, { ...input, previousDomain: null });
        const sticky = routeTurn(config, { ...input, previousDomain: fresh.domain });
        expect(sticky.domain).toBe(fresh.domain);
      }),
    );
  });
});
