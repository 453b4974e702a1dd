// The subject and the values of a proposal against a CFB (issue 33): the same wording about
// another subject, a part of the subject, a title someone named otherwise, a changed value, and
// texts that name no subject at all. Examples are written for this test, not taken from the
// evaluation sets.
import type { TResolveCandidate, TResolveProposal } from "@solserver/contracts";
import { describe, expect, it, vi } from "vitest";
import { scoreCandidate, textProfile } from "../src/index";
import { compareSubjects, namesSubject } from "../src/text/subject";
import { changedValues, valueKeys } from "../src/text/values";
import { candidate, proposal } from "./fixtures";

vi.mock("../src/decision-rule", async () => ({ DECISION_RULE: (await import("./seed-rule")).SEED_RULE }));

const compare = (p: [string, string], c: [string, string]) =>
  compareSubjects(textProfile(p[0], p[1]), textProfile(c[0], c[1]));

const FRIDGE: [string, string] = [
  "Fridge breaker check",
  "The fridge on 2019 travel trailers needs a 15 A breaker check before any repair.",
];

describe("compareSubjects", () => {
  it("the same sentence about another thing is another subject, naming both sides' words", () => {
    const c = compare(
      ["Awning breaker check", "The awning on 2019 travel trailers needs a 15 A breaker check before any repair."],
      FRIDGE,
    );
    expect(c.relation).toBe("different");
    expect(c.proposal).toContain("awn");
    expect(c.candidate).toContain("fridg");
  });

  it("the object of a preposition near the start is the subject too", () => {
    const c = compare(
      ["Hotfixes to the search API", "Hotfixes to the search API need two approvals before deploy."],
      ["Hotfixes to the billing service", "Hotfixes to the billing service need two approvals before deploy."],
    );
    expect(c.relation).toBe("different");
  });

  it("a part named after the subject's first words is a close subject", () => {
    const c = compare(
      ["Fridge door seal check", "The fridge door seal on 2019 travel trailers needs a check before any repair."],
      ["Fridge check", "The fridge on 2019 travel trailers needs a check before any repair."],
    );
    expect(c).toMatchObject({ relation: "close", proposal: expect.arrayContaining(["door", "seal"]) });
  });

  it("a title named otherwise does not make another subject when the first sentences agree", () => {
    const c = compare(
      ["Schema changes", "Schema migrations run in a transaction and are reviewed by a DBA."],
      ["Database migrations", "Schema migrations run in a transaction and are reviewed by a DBA."],
    );
    expect(c.relation).toBe("same");
  });

  it("a reworded predicate keeps the subject; a changed value is recorded as a change", () => {
    const c = compare(
      ["Fridge breaker check", "The fridge on 2019 travel trailers needs a 20 A breaker check before any repair."],
      FRIDGE,
    );
    expect(c.relation).toBe("same");
    expect(c.changes).toEqual([{ old: "15", new: "20" }]);
  });

  it("texts in other words share no skeleton and are left to their meaning", () => {
    const c = compare(
      ["Trailer fridges", "Before repairing a trailer's refrigerator, test its breaker first."],
      FRIDGE,
    );
    expect(c.relation).toBe("same");
  });
});

describe("values", () => {
  it("reads quantities with units, weekdays, months, frequencies and counts of things", () => {
    const keys = valueKeys("Every Tuesday in June, two approvals and a 15 A breaker, weekly.");
    expect(keys).toEqual(expect.arrayContaining(["15 A", "day:tuesday", "month:june", "freq:weekly", "2 approv"]));
    expect(valueKeys("$300 a seat for 30 days")).toEqual(expect.arrayContaining(["300 USD", "30 day"]));
  });

  it("a value of a kind both texts name, said otherwise, is a change; a value only added is not", () => {
    expect(changedValues(valueKeys("Handover on Wednesday"), valueKeys("Handover on Tuesday"))).toEqual([
      { old: "tuesday", new: "wednesday" },
    ]);
    expect(changedValues(valueKeys("Handover on Tuesday in June"), valueKeys("Handover on Tuesday"))).toEqual([]);
    // A weekday is not a number of days.
    expect(changedValues(valueKeys("Archive logs every Friday"), valueKeys("Archive logs after 57 days"))).toEqual([]);
  });
});

describe("namesSubject", () => {
  it("needs two words that are neither numbers, units nor function words", () => {
    expect(namesSubject("Pager rotation", "The pager rotates weekly.")).toBe(true);
    expect(namesSubject("15 A", "30 days, 85% / 95%")).toBe(false);
    expect(namesSubject("🔥🔥", "🚒 🚒 🚒")).toBe(false);
  });
});

describe("the subject in a score", () => {
  const score = (p: TResolveProposal, c: TResolveCandidate) =>
    scoreCandidate(p, textProfile(p.title, p.delta_summary), c, textProfile(c.title, c.summary));
  const cfb = candidate("CFB-1", {
    title: FRIDGE[0],
    summary: FRIDGE[1],
    tags: ["rv", "electrical"],
    entities: ["Fridge"],
  });
  const awning = proposal({
    title: "Awning breaker check",
    delta_summary: "The awning on 2019 travel trailers needs a 15 A breaker check before any repair.",
    tags: ["rv", "electrical"],
    entities: ["Awning"],
  });

  it("flags another subject and names its words", () => {
    const s = score(awning, cfb);
    expect(s.flags).toContain("SUBJECT_DIFFERS");
    expect(s.subject).toMatchObject({ relation: "different" });
  });

  it("the same subject with a changed value carries the change, unit and all", () => {
    const s = score(
      { ...awning, title: FRIDGE[0], delta_summary: FRIDGE[1].replace("15 A", "20 A"), entities: ["Fridge"] },
      cfb,
    );
    expect(s.flags).toContain("VALUE_CHANGED");
    expect(s.changes).toEqual(expect.arrayContaining([{ old: "15 A", new: "20 A" }]));
  });

  it("another subject by the words but the same by the labels is close: a person decides", () => {
    const s = score({ ...awning, entities: ["Fridge"] }, cfb);
    expect(s.flags).toContain("SUBJECT_CLOSE");
    expect(s.flags).not.toContain("SUBJECT_DIFFERS");
  });
});
