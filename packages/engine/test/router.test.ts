// The selector step's router (`routeTurn`, seed 001 §7.1) on a small routing table: keyword,
// phrase, tag and entity weights, min_score, stickiness to the thread's previous domain (its
// bonus and the tie-break), config order on ties, the history share of domainHints, procedure
// threads, the fallbacks (previous domain, then the default, "general"-like when the default is
// not a configured domain), and properties over generated turns: same input same route, the
// winner holds the best score, stickiness never moves a turn away from the previous domain.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ROUTE_WEIGHTS, routeTurn, type TRouteInput, type TRoutingConfig, type TRoutingDomain } from "../src/index";

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
    expect(route("redeploy the campers").scores).toEqual([]);
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
  it("on a tie of words, config order decides", () => {
    expect(route("fix the schedule").scores.map((s) => [s.domain, s.score])).toEqual([
      ["infra", 1],
      ["rv", 1],
    ]);
    expect(route("fix the schedule").domain).toBe("infra");
    expect(route("fix the schedule", {}, withConfig({ domains: [RV, INFRA, DOCS] })).domain).toBe("rv");
  });

  it("the previous domain's bonus breaks a tie of words", () => {
    const r = route("fix the schedule", { previousDomain: "rv" });
    expect(r.domain).toBe("rv");
    expect(r.scores[0]).toEqual({
      domain: "rv",
      score: 1 + ROUTE_WEIGHTS.previous,
      hits: ["keyword:schedule", "previous"],
    });
  });

  it("on a tie of whole scores the previous domain wins over config order", () => {
    // infra: schedule + half the history = 1.5; rv: schedule + previous = 1.5.
    const r = route("fix the schedule", { previousDomain: "rv", hintHistory: [["infra"], []] });
    expect(r.scores.map((s) => [s.domain, s.score])).toEqual([
      ["infra", 1.5],
      ["rv", 1.5],
    ]);
    expect(r).toMatchObject({ domain: "rv", reason: "words" });
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
