// disagreement(): one line for the dashboard when the model's own op / target and the decision
// differ; null when they agree.
import type { TResolveProposal } from "@solserver/contracts";
import { describe, expect, it, vi } from "vitest";
import { decide, disagreement } from "../src/index";
import { SAME_FACTS, scored } from "./fixtures";

vi.mock("../src/decision-rule", async () => ({ DECISION_RULE: (await import("./seed-rule")).SEED_RULE }));

const model = (op: TResolveProposal["op"], target_cfb_id: string | null = null) => ({ op, target_cfb_id });

const update = decide([scored("CFB-0007", 0.82), scored("CFB-0003", 0.41)]);
const create = decide([scored("CFB-0007", 0.41)]);
const none = decide([]);
const review = decide([scored("CFB-0007", 0.62), scored("CFB-0003", 0.58)]);
// A merge needs the pair to state the same facts (decide's sameFacts option).
const merge = decide([scored("CFB-0007", 0.82), scored("CFB-0009", 0.79)], null, SAME_FACTS);
const held = decide([scored("CFB-0007", 0.52)], { decision: "update" });
// Held back to review by the new facts the proposal adds, at an update's score.
const heldBack = decide([scored("CFB-0007", 0.91, {}, ["NEW_FACTS"]), scored("CFB-0003", 0.41)]);

describe("disagreement", () => {
  it("is checked against the decisions it names", () => {
    expect([update, create, none, review, merge, held, heldBack].map((o) => o.decision)).toEqual([
      "update",
      "create",
      "create",
      "review",
      "merge",
      "update",
      "review",
    ]);
  });

  it.each([
    ["create / create", create, model("create")],
    ["create / create with no candidates", none, model("create")],
    ["update / update, same target", update, model("update", "CFB-0007")],
    ["update without a target / update", update, model("update")],
    ["merge / merge, target first of the pair", merge, model("merge", "CFB-0007")],
    ["merge / merge, target second of the pair", merge, model("merge", "CFB-0009")],
    ["merge without a target / merge", merge, model("merge")],
    ["create / review", review, model("create")],
    ["update of a candidate / review", review, model("update", "CFB-0003")],
    ["update / review held back by NEW_FACTS", heldBack, model("update", "CFB-0007")],
    ["no model op", update, { op: undefined, target_cfb_id: null }],
  ])("is null when they agree: %s", (_, outcome, p) => {
    expect(disagreement(outcome, p)).toBeNull();
  });

  it.each([
    ["create / update", update, model("create"), "model proposed create; resolve says update CFB-0007 (score 0.82)"],
    [
      "update of another CFB / update",
      update,
      model("update", "CFB-0003"),
      "model proposed update CFB-0003; resolve says update CFB-0007 (score 0.82); CFB-0003 scores 0.41",
    ],
    [
      "update of an unknown CFB / update",
      update,
      model("update", "CFB-0999"),
      "model proposed update CFB-0999; resolve says update CFB-0007 (score 0.82); CFB-0999 is not among the candidates",
    ],
    [
      "update / create",
      create,
      model("update", "CFB-0007"),
      "model proposed update CFB-0007; resolve says create (best score 0.41); CFB-0007 scores 0.41",
    ],
    [
      "update / create, no candidates",
      none,
      model("update", "CFB-0007"),
      "model proposed update CFB-0007; resolve says create (no candidates); CFB-0007 is not among the candidates",
    ],
    [
      "create / merge",
      merge,
      model("create"),
      "model proposed create; resolve says merge CFB-0007 + CFB-0009 (scores 0.82, 0.79)",
    ],
    [
      "merge into a CFB outside the pair / merge",
      merge,
      model("merge", "CFB-0003"),
      "model proposed merge CFB-0003; resolve says merge CFB-0007 + CFB-0009 (scores 0.82, 0.79); CFB-0003 is not among the candidates",
    ],
    [
      "merge / update",
      update,
      model("merge", "CFB-0007"),
      "model proposed merge CFB-0007; resolve says update CFB-0007 (score 0.82)",
    ],
    [
      "update of an unknown CFB / review",
      review,
      model("update", "CFB-0999"),
      "model proposed update CFB-0999; resolve says review (best CFB-0007, score 0.62); CFB-0999 is not among the candidates",
    ],
    [
      "create / update held by hysteresis",
      held,
      model("create"),
      "model proposed create; resolve says update CFB-0007 (score 0.52, held by hysteresis)",
    ],
    [
      "update of an unknown CFB / review held back by NEW_FACTS",
      heldBack,
      model("update", "CFB-0999"),
      "model proposed update CFB-0999; resolve says review (best CFB-0007, score 0.91); CFB-0999 is not among the candidates",
    ],
  ])("says how they differ: %s", (_, outcome, p, text) => {
    expect(disagreement(outcome, p)).toBe(text);
  });

  it("shows a score to 4 decimals when that is what the band compared", () => {
    const edge = decide([scored("CFB-0001", 0.7501)]);
    expect(disagreement(edge, model("create"))).toBe(
      "model proposed create; resolve says update CFB-0001 (score 0.7501)",
    );
  });
});
