// Umbra resolve in the loop (seed 001 §5–6) on a real SQLite file: every new proposal is
// resolved against the full-text index as it is created and again at promotion, the decision is
// stored with its scores and the model's own suggestion, and repetitions (missing queries,
// proposal fingerprints, feedback tags) raise promotion triggers for the review queue.
import {
  isDomainError,
  type TCfbDraft,
  ZFeedbackRequest,
  ZTriggerDismissRequest,
  ZTriggerListRequest,
} from "@solserver/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  dismissTrigger,
  getProposal,
  giveFeedback,
  listTriggers,
  parseInput,
  promoteProposal,
  respondToTurn,
} from "../src/index";
import type { TModelProvider } from "../src/model/provider";
import { openTestControlPlane, type TTestActor, testCfb } from "../src/testing";

type TSuggestion = {
  op: "create" | "update";
  title: string;
  delta_summary: string;
  tags: string[];
  entities: string[];
  target_cfb_id?: string;
};

/** The next answer's suggestions and missing queries, set by each test. */
let next: { suggestions: TSuggestion[]; missing: string[] } = { suggestions: [], missing: [] };

const scripted: TModelProvider = {
  name: "scripted",
  async generate() {
    return {
      envelope: {
        assistant_text: "Noted.",
        meta: {
          modeLabel: "System",
          domainHints: ["security"],
          used_cfb_ids: [],
          ignored_cfb_ids: [],
          unknowns: [],
          missing_cfb_queries: next.missing,
          cfb_suggestions: next.suggestions.map((s) => ({ ...s, confidence: 0.8 })),
        },
      },
      tokensIn: 10,
      tokensOut: 5,
    };
  },
};

const cfb = (title: string, summary: string, tags: string[], entities: string[]): TCfbDraft =>
  testCfb({ domain: "security", title, summary, tags, entities });

let opened: Awaited<ReturnType<typeof openTestControlPlane>>;
let user: TTestActor;
let jam: TTestActor;
let rotationId: string;
let n = 0;
const turn = (message = "We decided something.") =>
  respondToTurn(opened.as(user), { request_id: `resolve-${++n}`, message });

beforeAll(async () => {
  opened = await openTestControlPlane({
    label: "resolve-loop",
    model: scripted,
    limits: { chatTurnsPerMinute: 1000 },
    repetitionThresholds: { missing_query: 3, proposal_fingerprint: 2, feedback_tag: 2 },
  });
  user = await opened.account("user");
  jam = await opened.account("jam");
  rotationId = (
    await opened.repos.cfbs.create(
      cfb(
        "Credential rotation policy",
        "Service credentials are rotated every 90 days through Vault.",
        ["security", "credentials"],
        ["Vault"],
      ),
    )
  ).cfb_id;
  await opened.repos.cfbs.create(cfb("Lunch menu", "The canteen serves soup on Fridays.", ["canteen"], ["Canteen"]));
  await opened.repos.cfbs.create(cfb("Deploy windows", "Deploys happen on Tuesdays and Thursdays.", ["deploys"], []));
});
afterAll(async () => opened?.close());

describe("resolve as proposals are created", () => {
  it("sends a near-duplicate 'create' to update the existing CFB, and shows the disagreement", async () => {
    next = {
      missing: [],
      suggestions: [
        {
          op: "create",
          title: "Credential rotation policy",
          delta_summary: "Service credentials are rotated every 90 days through Vault.",
          tags: ["security", "credentials"],
          entities: ["Vault"],
        },
      ],
    };
    const res = await turn();
    const id = res.ui_hints.proposal_previews[0]?.proposal_id as string;
    const proposal = await getProposal(opened.as(user), { proposal_id: id });
    expect(proposal.resolve).toMatchObject({ stage: "created", decision: "update", target_cfb_id: rotationId });
    expect(proposal.resolve?.scores[0]?.cfb_id).toBe(rotationId);
    expect(proposal.resolve?.scores[0]?.score).toBeGreaterThan(0.75);
    expect(proposal.resolve?.model_op).toBe("create");
    expect(proposal.resolve?.disagreement).toContain(rotationId);
    // Stored as a row, and traced.
    expect(await opened.db.umbraResolveDecision.count({ where: { proposalId: id, stage: "created" } })).toBe(1);
    const trace = await opened.repos.traces.forTransmission(res.transmission_id);
    const event = trace.find((e) => e.phase === "resolve");
    expect(event?.summary).toBe("Resolved 1 proposal(s)");
  });

  it("leaves an unrelated proposal as create, agreeing with the model", async () => {
    next = {
      missing: [],
      suggestions: [
        {
          op: "create",
          title: "Parking permits",
          delta_summary: "Visitors get parking permits at the front desk.",
          tags: ["facilities"],
          entities: ["Front desk"],
        },
      ],
    };
    const res = await turn();
    const proposal = await getProposal(opened.as(user), {
      proposal_id: res.ui_hints.proposal_previews[0]?.proposal_id as string,
    });
    expect(proposal.resolve).toMatchObject({ decision: "create", target_cfb_id: null, disagreement: null });
    // The band comes first; with nothing found, NO_CANDIDATES says why.
    expect(proposal.resolve?.reason_codes[0]).toBe("SCORE_LOW");
    if (proposal.resolve?.scores.length === 0) expect(proposal.resolve.reason_codes).toContain("NO_CANDIDATES");
  });

  it("resolves again at promotion, against the knowledge base as it is then", async () => {
    next = {
      missing: [],
      suggestions: [
        {
          op: "create",
          title: "Badge printer location",
          delta_summary: "The badge printer is on the second floor next to reception.",
          tags: ["facilities", "badges"],
          entities: ["Reception"],
        },
      ],
    };
    const res = await turn();
    const id = res.ui_hints.proposal_previews[0]?.proposal_id as string;
    // Meanwhile someone writes the same knowledge as a CFB.
    const written = await opened.repos.cfbs.create(
      cfb(
        "Badge printer location",
        "The badge printer is on the second floor next to reception.",
        ["facilities", "badges"],
        ["Reception"],
      ),
    );
    await promoteProposal(opened.as(user), { proposal_id: id, action: "reject" });
    const proposal = await getProposal(opened.as(user), { proposal_id: id });
    expect(proposal.resolve).toMatchObject({ stage: "promotion", decision: "update", target_cfb_id: written.cfb_id });
    const stages = await opened.db.umbraResolveDecision.findMany({
      where: { proposalId: id },
      orderBy: { createdAt: "asc" },
    });
    expect(stages.map((d) => [d.stage, d.decision])).toEqual([
      ["created", "create"],
      ["promotion", "update"],
    ]);
  });
});

describe("repetitions become promotion triggers", () => {
  it("the same missing query asked three times raises a trigger a Jam editor sees and dismisses", async () => {
    for (const q of ["How do we rotate SSH keys?", "how do we rotate ssh keys", "How do we  rotate SSH keys ?"]) {
      next = { suggestions: [], missing: [q] };
      await turn("How do we rotate SSH keys?");
    }
    const { items } = await listTriggers(opened.as(jam), parseInput(ZTriggerListRequest, {}));
    const trigger = items.find((t) => t.kind === "missing_query");
    expect(trigger).toMatchObject({ key: "how do we rotate ssh keys", count: 3, threshold: 3 });
    expect(trigger?.suggestion).toContain("write a CFB");
    // Users may not see them (they span everyone's conversations).
    const refused = await listTriggers(opened.as(user), parseInput(ZTriggerListRequest, {})).catch((e: unknown) => e);
    expect(isDomainError(refused) && refused.code).toBe("FORBIDDEN");
    await dismissTrigger(
      opened.as(jam),
      parseInput(ZTriggerDismissRequest, { trigger_id: trigger?.trigger_id as string }),
    );
    const after = await listTriggers(opened.as(jam), parseInput(ZTriggerListRequest, {}));
    expect(after.items.some((t) => t.trigger_id === trigger?.trigger_id)).toBe(false);
    const again = await dismissTrigger(
      opened.as(jam),
      parseInput(ZTriggerDismissRequest, { trigger_id: trigger?.trigger_id as string }),
    ).catch((e: unknown) => e);
    expect(isDomainError(again) && again.code).toBe("NOT_FOUND");
  });

  it("a proposal fingerprint seen twice (threshold 2) raises a trigger with the proposal's title", async () => {
    next = {
      missing: [],
      suggestions: [
        { op: "create", title: "Coffee machine descaling", delta_summary: "Descale monthly.", tags: [], entities: [] },
      ],
    };
    await turn();
    await turn();
    const { items } = await listTriggers(opened.as(jam), parseInput(ZTriggerListRequest, {}));
    expect(items.find((t) => t.kind === "proposal_fingerprint")).toMatchObject({
      label: "Coffee machine descaling",
      count: 2,
    });
  });

  it("feedback tags are counted per router domain; the owner may give feedback, nobody else", async () => {
    next = { suggestions: [], missing: [] };
    const res = await turn();
    const first = await giveFeedback(
      opened.as(user),
      parseInput(ZFeedbackRequest, {
        response_id: res.response_id,
        polarity: "negative",
        tag: "Outdated",
      }),
    );
    expect(first.trigger_raised).toBe(false);
    const second = await giveFeedback(
      opened.as(user),
      parseInput(ZFeedbackRequest, {
        response_id: res.response_id,
        polarity: "correction",
        tag: "outdated",
      }),
    );
    expect(second.trigger_raised).toBe(true);
    expect(await opened.repos.feedback.count(res.response_id)).toBe(2);
    const stranger = await opened.account("user");
    const refused = await giveFeedback(
      opened.as(stranger),
      parseInput(ZFeedbackRequest, { response_id: res.response_id, polarity: "positive" }),
    ).catch((e: unknown) => e);
    expect(isDomainError(refused) && refused.code).toBe("FORBIDDEN");
    const missing = await giveFeedback(
      opened.as(user),
      parseInput(ZFeedbackRequest, { response_id: "R-9999", polarity: "positive" }),
    ).catch((e: unknown) => e);
    expect(isDomainError(missing) && missing.code).toBe("NOT_FOUND");
  });
});
