// The fingerprint counts repetitions of one suggestion (seed 001 §5.2): it must ignore case,
// spacing and tag order, change with real content, and keep giving the digests already stored
// (they were computed by the control plane's node:crypto copy this one replaced).
import { describe, expect, it } from "vitest";
import { fingerprint, normalizeText } from "../src/index";

const base = {
  title: "Reset a Postgres password",
  tags: ["db", "ops"],
  delta_summary: "Use ALTER ROLE to reset the password, then restart the API.",
};

describe("normalizeText", () => {
  it("lower-cases, collapses whitespace runs and trims", () => {
    expect(normalizeText("  Hello\t\n  WORLD  again ")).toBe("hello world again");
    expect(normalizeText("")).toBe("");
  });
});

describe("fingerprint", () => {
  const fp = fingerprint(base);

  it("is a sha256 hex digest", () => {
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    ["title case", { title: "RESET A POSTGRES PASSWORD" }],
    ["title whitespace", { title: "  Reset  a\tPostgres\npassword " }],
    ["tag order", { tags: ["ops", "db"] }],
    ["tag case and spacing", { tags: [" OPS", "Db "] }],
    ["summary whitespace", { delta_summary: "Use  ALTER ROLE to reset the password,\nthen restart the API.  " }],
    ["summary case", { delta_summary: "use alter role to reset the password, then restart the api." }],
  ])("is stable under %s", (_, change) => {
    expect(fingerprint({ ...base, ...change })).toBe(fp);
  });

  it.each([
    ["another title", { title: "Reset a MySQL password" }],
    ["another tag", { tags: ["db", "ops", "security"] }],
    ["one tag fewer", { tags: ["db"] }],
    ["another summary", { delta_summary: "Use ALTER USER to reset the password." }],
  ])("changes with %s", (_, change) => {
    expect(fingerprint({ ...base, ...change })).not.toBe(fp);
  });

  it('joins tags with "," as the control plane does, so a tag "db,ops" is the tags db and ops', () => {
    // A known collision of the recipe, kept: changing it would change every stored fingerprint.
    expect(fingerprint({ ...base, tags: ["db,ops"] })).toBe(fp);
  });

  it("only reads the first 300 characters of the summary", () => {
    const long = "x".repeat(300);
    expect(fingerprint({ ...base, delta_summary: `${long} tail one` })).toBe(
      fingerprint({ ...base, delta_summary: `${long} tail two` }),
    );
    expect(fingerprint({ ...base, delta_summary: `${"x".repeat(299)}a` })).not.toBe(
      fingerprint({ ...base, delta_summary: `${"x".repeat(299)}b` }),
    );
  });

  // Digests the control plane's node:crypto fingerprint (packages/control-plane/src/proposals/
  // fingerprint.ts, removed) gave for these inputs: the values stored in existing databases.
  it.each([
    ["the base proposal", base, "f7ba214444cfe69a615b7a5674ae29778e532901e87686caf396a460eeb6e338"],
    [
      "empty fields",
      { title: "", tags: [], delta_summary: "" },
      "75a11da44c802486bc6f65640aa48a730f0f684c5c07a42ba3cd1735eb3fb070",
    ],
    [
      "unicode",
      { title: "Crème Brûlée ÉCLAIR", tags: ["Ünïcode", "日本語"], delta_summary: "Ωμέγα ёлка 😀 naïve" },
      "936a1309af58a89839acbddd61140fe3ae4d17dd2057a0a03267c2c2a6d74d4a",
    ],
    [
      "a lone surrogate",
      { title: "bad \ud800 pair", tags: ["\udfff"], delta_summary: "x\ud83d" },
      "caf87d776fb11fb4d5158ed7db4272e47610822770441baae6da5a35634ad676",
    ],
    [
      "a long summary",
      { ...base, delta_summary: "Word ".repeat(200) },
      "ddea4a9820ba6926ab0ea23c5a57ac91a866ce063b6559973aa2a5c09beb0d45",
    ],
    [
      "a summary cut inside a surrogate pair",
      { ...base, delta_summary: `${"y".repeat(299)}😀 after` },
      "06980570675e2bf53509fdeda38e46624981d39ee8a4a8f516fbec354aa0fd5b",
    ],
    [
      "commas and newlines inside tags",
      { title: "t\nt", tags: ["a,b", "c\nd", ""], delta_summary: "\n" },
      "43894f877c4ccf975f908a25913ebc8ca5d84098f292b8e4503ffa11c8203733",
    ],
    [
      "a proposal as the model suggests it",
      {
        title: "Use Postgres for analytics",
        tags: ["decision", "analytics", "postgres"],
        delta_summary: "Analytics runs on Postgres.",
      },
      "c52e4e8341d53f289d112438b567a7b480dcd6695b08fad62d24538198b69652",
    ],
  ])("gives the stored fingerprint for %s", (_, p, stored) => {
    expect(fingerprint(p)).toBe(stored);
  });

  it("matches a fixed digest (a change to the recipe fails here first)", () => {
    // sha256("a\na,b\nc")
    expect(fingerprint({ title: "A", tags: ["b", "a"], delta_summary: "C" })).toBe(
      "d6d115431221ee3ee0a059c63f563c524b0a6afebd9c9fe7cc0b143dc2aac714",
    );
  });
});

describe("fingerprint (the control plane's cases, moved with it)", () => {
  const base = {
    title: "Use Postgres for analytics",
    tags: ["decision", "analytics", "postgres"],
    delta_summary: "Analytics runs on Postgres.",
  };
  const fp = (s: Partial<typeof base>) => fingerprint({ ...base, ...s });

  it("is a sha256 hex digest", () => {
    expect(fp({})).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is stable across tag order", () => {
    expect(fp({ tags: ["postgres", "decision", "analytics"] })).toBe(fp({}));
  });

  it("is stable across case and whitespace in title, tags and summary", () => {
    expect(
      fp({
        title: "  USE   postgres\tfor\nAnalytics ",
        tags: [" Decision", "ANALYTICS ", "Postgres"],
        delta_summary: "analytics   RUNS on\npostgres.  ",
      }),
    ).toBe(fp({}));
  });

  it("differs when the title, a tag or the summary changes", () => {
    const original = fp({});
    expect(fp({ title: "Use MySQL for analytics" })).not.toBe(original);
    expect(fp({ tags: ["decision", "analytics"] })).not.toBe(original);
    expect(fp({ tags: [...base.tags, "extra"] })).not.toBe(original);
    expect(fp({ delta_summary: "Analytics runs on MySQL." })).not.toBe(original);
  });

  it("keeps title, tags and summary apart (no run-together collisions)", () => {
    expect(fp({ title: "ab", tags: [] })).not.toBe(fp({ title: "a", tags: ["b"] }));
  });

  it("only the first 300 characters of delta_summary count", () => {
    const head = "x".repeat(300);
    expect(fp({ delta_summary: `${head} tail one` })).toBe(fp({ delta_summary: `${head} tail two` }));
    expect(fp({ delta_summary: `${head}` })).toBe(fp({ delta_summary: `${head}yyyy` }));
    // A change inside the first 300 characters does count.
    expect(fp({ delta_summary: `${"x".repeat(299)}y` })).not.toBe(fp({ delta_summary: head }));
  });
});
