// Pure control-plane helpers: proposals derived from model meta (fingerprinted by resolve), CFB
// ranking for retrieval, and input parsing for transports that do not validate themselves.
import { DomainError, type ZCfbSuggestion, ZChatRespondRequest, ZOutputMeta } from "@solserver/contracts";
import { deriveProposals, parseInput, rankCfbs } from "@solserver/control-plane";
import type { TRetrievableCfb } from "@solserver/db";
import { fingerprint } from "@solserver/resolve";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { PHRASE_BONUS } from "../src/retrieval-ranking";

type TSuggestionInput = Partial<z.input<typeof ZCfbSuggestion>>;

/** Meta as the server has it after validation, with one suggestion per argument. */
function meta(...suggestions: TSuggestionInput[]) {
  return ZOutputMeta.parse({
    cfb_suggestions: suggestions.map((s) => ({
      op: "create",
      title: "Use Postgres for analytics",
      delta_summary: "Analytics runs on Postgres.",
      confidence: 0.8,
      ...s,
    })),
  });
}

const KNOWN = new Map([
  ["CFB-0001", { domain: "data" }],
  ["CFB-0002", { domain: "ops" }],
]);

describe("deriveProposals", () => {
  it("maps a create suggestion field by field", () => {
    const [p] = deriveProposals(
      meta({ tags: ["analytics"], entities: ["Postgres"], rationale: "User said so." }),
      KNOWN,
      () => "general",
    );
    expect(p).toEqual({
      suggestionIndex: 0,
      op: "create",
      targetCfbId: null,
      title: "Use Postgres for analytics",
      deltaSummary: "Analytics runs on Postgres.",
      proposedCfb: {
        title: "Use Postgres for analytics",
        summary: "Analytics runs on Postgres.",
        text: null,
        tags: ["analytics"],
        entities: ["Postgres"],
        domain: "general",
      },
      rationale: "User said so.",
      confidence: 0.8,
      fingerprint: fingerprint({
        title: "Use Postgres for analytics",
        tags: ["analytics"],
        delta_summary: "Analytics runs on Postgres.",
      }),
      warnings: [],
    });
  });

  it("numbers proposals by their suggestion index and keeps their order", () => {
    const proposals = deriveProposals(meta({ title: "A" }, { title: "B" }, { title: "C" }), KNOWN, () => "general");
    expect(proposals.map((p) => [p.suggestionIndex, p.title])).toEqual([
      [0, "A"],
      [1, "B"],
      [2, "C"],
    ]);
  });

  it("derives nothing from meta without suggestions", () => {
    expect(deriveProposals(ZOutputMeta.parse({}), KNOWN, () => "general")).toEqual([]);
  });

  it.each(["update", "merge"] as const)("%s of an unknown target: warns target_cfb_missing, keeps the target", (op) => {
    const [p] = deriveProposals(meta({ op, target_cfb_id: "CFB-0999" }), KNOWN, () => "general");
    expect(p?.warnings).toEqual(["target_cfb_missing"]);
    expect(p?.targetCfbId).toBe("CFB-0999");
    expect(p?.op).toBe(op);
    // No real target to take a domain from: the turn's domain.
    expect(p?.proposedCfb.domain).toBe("general");
  });

  it.each(["update", "merge"] as const)("%s without a target: warns target_cfb_required", (op) => {
    const [p] = deriveProposals(meta({ op }), KNOWN, () => "general");
    expect(p?.warnings).toEqual(["target_cfb_required"]);
    expect(p?.targetCfbId).toBeNull();
  });

  it("a blank target counts as no target", () => {
    const [p] = deriveProposals(meta({ op: "update", target_cfb_id: "  " }), KNOWN, () => "general");
    expect(p?.warnings).toEqual(["target_cfb_required"]);
    expect(p?.targetCfbId).toBeNull();
  });

  it("update of a known target: no warning, domain from the target", () => {
    const [p] = deriveProposals(meta({ op: "update", target_cfb_id: "CFB-0002" }), KNOWN, () => "data");
    expect(p?.warnings).toEqual([]);
    expect(p?.targetCfbId).toBe("CFB-0002");
    expect(p?.proposedCfb.domain).toBe("ops");
  });

  it("create ignores a given target, known or not", () => {
    const proposals = deriveProposals(
      meta({ op: "create", target_cfb_id: "CFB-0001" }, { op: "create", target_cfb_id: "CFB-0999" }),
      KNOWN,
      () => "security",
    );
    for (const p of proposals) {
      expect(p.targetCfbId).toBeNull();
      expect(p.warnings).toEqual([]);
      // The ignored target does not lend its domain either.
      expect(p.proposedCfb.domain).toBe("security");
    }
  });

  it.each([
    [-0.3, 0],
    [1.7, 1],
    [-1e9, 0],
    [42, 1],
  ])("clamps confidence %d to %d and warns confidence_clamped", (given, clamped) => {
    const [p] = deriveProposals(meta({ confidence: given }), KNOWN, () => "general");
    expect(p?.confidence).toBe(clamped);
    expect(p?.warnings).toEqual(["confidence_clamped"]);
  });

  it.each([0, 0.5, 1])("keeps in-range confidence %d without a warning", (confidence) => {
    const [p] = deriveProposals(meta({ confidence }), KNOWN, () => "general");
    expect(p?.confidence).toBe(confidence);
    expect(p?.warnings).toEqual([]);
  });

  it("reports every problem of one suggestion, in a stable order", () => {
    const [missing] = deriveProposals(
      meta({ op: "update", target_cfb_id: "CFB-0999", confidence: 2 }),
      KNOWN,
      () => "x",
    );
    expect(missing?.warnings).toEqual(["target_cfb_missing", "confidence_clamped"]);
    const [required] = deriveProposals(meta({ op: "merge", confidence: -1 }), KNOWN, () => "x");
    expect(required?.warnings).toEqual(["target_cfb_required", "confidence_clamped"]);
  });

  it("files a proposal without a known target under the domain of its own text (title, then summary)", () => {
    const asked: string[] = [];
    const domainOf = (text: string) => {
      asked.push(text);
      return text.includes("trailer") ? "rv_service" : "ops";
    };
    const [rv, ops] = deriveProposals(
      meta(
        { title: "Trailer breakers", summary: "Check the 15 A breaker on the trailer first." },
        { title: "Deploy freeze", delta_summary: "No deploys on Fridays." },
      ),
      KNOWN,
      domainOf,
    );
    expect([rv?.proposedCfb.domain, ops?.proposedCfb.domain]).toEqual(["rv_service", "ops"]);
    expect(asked).toEqual([
      "Trailer breakers. Check the 15 A breaker on the trailer first.",
      "Deploy freeze. No deploys on Fridays.",
    ]);
  });

  it("null rationale when the model gave none", () => {
    expect(deriveProposals(meta({}), KNOWN, () => "general")[0]?.rationale).toBeNull();
  });

  it("does not trust the target's existence from the model: only the known map counts", () => {
    const known = new Map([["CFB-0001", { domain: "data" }]]);
    const [a, b] = deriveProposals(
      meta({ op: "update", target_cfb_id: "CFB-0001" }, { op: "update", target_cfb_id: "CFB-0002" }),
      known,
      () => "general",
    );
    expect(a?.warnings).toEqual([]);
    expect(b?.warnings).toEqual(["target_cfb_missing"]);
  });
});

describe("proposal fingerprints", () => {
  it("deriveProposals fingerprints repeated suggestions identically", () => {
    const [a, b] = deriveProposals(
      meta(
        { tags: ["b", "a"], title: "Same Title" },
        { tags: ["A", "B"], title: "same  title", confidence: 0.1, rationale: "different" },
      ),
      KNOWN,
      () => "general",
    );
    expect(a?.fingerprint).toBe(b?.fingerprint);
  });
});

// --- rankCfbs --------------------------------------------------------------------------------

function cfb(id: string, over: Partial<TRetrievableCfb> = {}): TRetrievableCfb {
  return { cfb_id: id, domain: "general", title: "", summary: "", tags: [], entities: [], ...over };
}

describe("rankCfbs", () => {
  // Query content words: postgres, analytics, replicas, nightly.
  const message = "Are Postgres analytics replicas nightly?";

  // Analysed: postgresql (the alias of "postgres"), analyt, replica, nightli; word pairs
  // "postgresql analyt", "analyt replica", "replica nightli".
  it("weighs a word in the title or labels fully, one only in the summary at half, plus word pairs", () => {
    const cfbs = [
      cfb("CFB-0001", { title: "Postgres" }), // 1/4
      cfb("CFB-0002", { title: "Postgres analytics replicas" }), // 3/4 + 2 of 3 pairs
      cfb("CFB-0003", { summary: "Postgres analytics" }), // (2/4) / 2 + 1 of 3 pairs
    ];
    const ranked = rankCfbs(message, cfbs, 10);
    expect(ranked.map((r) => r.cfb.cfb_id)).toEqual(["CFB-0002", "CFB-0003", "CFB-0001"]);
    expect(ranked[0]?.score).toBeCloseTo(0.75 + PHRASE_BONUS * (2 / 3), 10);
    expect(ranked[1]?.score).toBeCloseTo(0.25 + PHRASE_BONUS * (1 / 3), 10);
    expect(ranked[2]?.score).toBeCloseTo(0.25, 10);
    expect(ranked[0]?.cfb).toBe(cfbs[1]);
  });

  it("adds a bonus of a tenth of the tag and entity coverage, capped at 1 before the pairs", () => {
    const ranked = rankCfbs(
      message,
      [
        cfb("CFB-0001", { title: "Postgres analytics" }), // 0.5 + 1 of 3 pairs
        cfb("CFB-0002", { title: "Postgres", tags: ["analytics"] }), // 0.5 + 0.1 * 0.25
        cfb("CFB-0003", { tags: ["postgres", "analytics", "replicas", "nightly"] }), // 1 + 0.1 → 1
      ],
      10,
    );
    expect(ranked.map((r) => r.cfb.cfb_id)).toEqual(["CFB-0003", "CFB-0001", "CFB-0002"]);
    expect(ranked[0]?.score).toBe(1);
    expect(ranked[1]?.score).toBeCloseTo(0.5 + PHRASE_BONUS / 3, 10);
    expect(ranked[2]?.score).toBeCloseTo(0.5 + 0.1 * 0.25, 10);
  });

  it("breaks ties on cfb_id, whatever the input order", () => {
    const tiedPlain = [
      cfb("CFB-0003", { title: "Postgres" }),
      cfb("CFB-0001", { title: "nightly" }),
      cfb("CFB-0002", { title: "analytics" }),
    ];
    const tied = [
      cfb("CFB-0003", { title: "Postgres" }),
      cfb("CFB-0001", { title: "nightly" }),
      cfb("CFB-0002", { entities: ["Analytics"] }),
    ];
    const ids = (cfbs: TRetrievableCfb[]) => rankCfbs(message, cfbs, 10).map((r) => r.cfb.cfb_id);
    expect(ids(tiedPlain)).toEqual(["CFB-0001", "CFB-0002", "CFB-0003"]);
    expect(ids([...tiedPlain].reverse())).toEqual(["CFB-0001", "CFB-0002", "CFB-0003"]);
    // The entity hit earns CFB-0002 the label bonus, so it leads.
    expect(ids(tied)).toEqual(["CFB-0002", "CFB-0001", "CFB-0003"]);
  });

  it("compares cfb ids by number on ties (CFB-9 before CFB-10)", () => {
    const tied = [cfb("CFB-10", { title: "Postgres" }), cfb("CFB-9", { title: "Postgres" })];
    expect(rankCfbs("postgres", tied, 10).map((r) => r.cfb.cfb_id)).toEqual(["CFB-9", "CFB-10"]);
  });

  it("excludes CFBs that share no content word with the message", () => {
    const ranked = rankCfbs(
      message,
      [
        cfb("CFB-0001", { title: "Deploy schedule", summary: "Do we run on Tuesdays?" }),
        cfb("CFB-0002", { title: "Postgres" }),
      ],
      10,
    );
    expect(ranked.map((r) => r.cfb.cfb_id)).toEqual(["CFB-0002"]);
  });

  it("returns nothing for a message without content words", () => {
    expect(rankCfbs("what is it? ok.", [cfb("CFB-0001", { title: "what is it" })], 10)).toEqual([]);
  });

  it("respects the limit, keeping the best", () => {
    const cfbs = [
      cfb("CFB-0001", { title: "Postgres" }),
      cfb("CFB-0002", { title: "Postgres analytics replicas nightly" }),
      cfb("CFB-0003", { title: "Postgres analytics" }),
      cfb("CFB-0004", { title: "Postgres analytics replicas" }),
    ];
    expect(rankCfbs(message, cfbs, 2).map((r) => r.cfb.cfb_id)).toEqual(["CFB-0002", "CFB-0004"]);
    expect(rankCfbs(message, cfbs, 0)).toEqual([]);
    expect(rankCfbs(message, cfbs, 100)).toHaveLength(4);
  });

  it("matches case-insensitively across title, summary, tags and entities", () => {
    const ranked = rankCfbs(
      "POSTGRES ANALYTICS",
      [cfb("CFB-0001", { entities: ["postgres"], title: "Analytics." }), cfb("CFB-0002", { summary: "ANALYTICS" })],
      5,
    );
    expect(ranked).toHaveLength(2);
    expect(ranked[0]?.score).toBeCloseTo(1, 10);
    expect(ranked[1]?.score).toBeCloseTo(0.25, 10);
  });

  it("does not mutate the input list", () => {
    const cfbs = [cfb("CFB-0002", { title: "Postgres" }), cfb("CFB-0001", { title: "Postgres analytics" })];
    const before = cfbs.map((c) => c.cfb_id);
    rankCfbs(message, cfbs, 10);
    expect(cfbs.map((c) => c.cfb_id)).toEqual(before);
  });
});

// --- parseInput ------------------------------------------------------------------------------

/** Runs fn, which must throw a DomainError, and returns it. */
function domainErrorOf(fn: () => unknown): DomainError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  return expect.fail("expected a DomainError to be thrown");
}

describe("parseInput", () => {
  it("returns the parsed (trimmed) data on success", () => {
    expect(parseInput(ZChatRespondRequest, { request_id: "r1", message: "  hi " })).toEqual({
      request_id: "r1",
      message: "hi",
    });
  });

  it("throws BAD_INPUT naming the field and its rule", () => {
    const error = domainErrorOf(() => parseInput(ZChatRespondRequest, { request_id: "r1", message: "   " }));
    expect(error.code).toBe("BAD_INPUT");
    expect(error.field).toBe("message");
    expect(error.message).toBe("message: must not be empty");
    expect(error.cause).toBeInstanceOf(z.ZodError);
  });

  it("names every failing field, and the first one as field", () => {
    const error = domainErrorOf(() => parseInput(ZChatRespondRequest, { request_id: "has space" }));
    expect(error.field).toBe("request_id");
    expect(error.message).toBe(
      "request_id: must be printable ASCII without spaces; message: is required and must be a string",
    );
  });

  it("joins nested paths with dots", () => {
    const schema = z.object({ overrides: z.object({ tags: z.array(z.string().min(1, { error: "empty tag" })) }) });
    const error = domainErrorOf(() => parseInput(schema, { overrides: { tags: ["ok", ""] } }));
    expect(error.field).toBe("overrides.tags.1");
    expect(error.message).toBe("overrides.tags.1: empty tag");
  });

  it("has no field when the problem is the input as a whole", () => {
    const notAnObject = domainErrorOf(() => parseInput(ZChatRespondRequest, "hello"));
    expect(notAnObject.code).toBe("BAD_INPUT");
    expect(notAnObject.field).toBeUndefined();
    expect(notAnObject.message).toMatch(/^\(input\): /);
  });

  it("names an unknown key as the field", () => {
    const extraKey = domainErrorOf(() => parseInput(ZChatRespondRequest, { request_id: "r", message: "m", x: 1 }));
    expect(extraKey.field).toBe("x");
    expect(extraKey.message).toBe("x: is not a known field");
  });
});
