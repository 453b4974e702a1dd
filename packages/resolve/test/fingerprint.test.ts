// The fingerprint counts repetitions of one suggestion (seed 001 §5.2): it must ignore case,
// spacing and tag order, change with real content, and equal the control plane's existing
// fingerprint byte for byte (stored fingerprints must keep matching).
import { describe, expect, it } from "vitest";
// Relative import, test only: the control plane will depend on this package, not the reverse.
import { proposalFingerprint } from "../../control-plane/src/proposals/fingerprint";
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

  it.each([
    ["the base proposal", base],
    ["empty fields", { title: "", tags: [], delta_summary: "" }],
    ["unicode", { title: "Crème Brûlée ÉCLAIR", tags: ["Ünïcode", "日本語"], delta_summary: "Ωμέγα ёлка 😀 naïve" }],
    ["a lone surrogate", { title: "bad \ud800 pair", tags: ["\udfff"], delta_summary: "x\ud83d" }],
    ["a long summary", { ...base, delta_summary: "Word ".repeat(200) }],
    ["a summary cut inside a surrogate pair", { ...base, delta_summary: `${"y".repeat(299)}😀 after` }],
    ["commas and newlines inside tags", { title: "t\nt", tags: ["a,b", "c\nd", ""], delta_summary: "\n" }],
  ])("equals the control plane's fingerprint for %s", (_, p) => {
    expect(fingerprint(p)).toBe(proposalFingerprint(p));
  });

  it("matches a fixed digest (a change to the recipe fails here first)", () => {
    expect(fingerprint({ title: "A", tags: ["b", "a"], delta_summary: "C" })).toBe(
      proposalFingerprint({ title: "A", tags: ["b", "a"], delta_summary: "C" }),
    );
    // sha256("a\na,b\nc")
    expect(fingerprint({ title: "A", tags: ["b", "a"], delta_summary: "C" })).toBe(
      "d6d115431221ee3ee0a059c63f563c524b0a6afebd9c9fe7cc0b143dc2aac714",
    );
  });
});
