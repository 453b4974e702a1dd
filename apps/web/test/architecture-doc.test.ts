// docs/architecture.md describes what exists: this test fails when it stops naming a package of
// the workspace, a domain error code, or a tRPC procedure tier, so the page cannot drift into
// describing tiers, codes and packages that are gone (it did once).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { DOMAIN_ERROR_CODES } from "@solserver/contracts";
import { describe, expect, it } from "vitest";
import { ERROR_TABLE } from "@/server/errors/table";
import * as trpc from "@/server/trpc/init";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const doc = readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");

const packageNames = ["packages", "apps"].flatMap((top) =>
  readdirSync(path.join(ROOT, top), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map(
      (d) => (JSON.parse(readFileSync(path.join(ROOT, top, d.name, "package.json"), "utf8")) as { name: string }).name,
    ),
);

describe("docs/architecture.md", () => {
  it("names every package of the workspace", () => {
    expect(packageNames.length).toBeGreaterThanOrEqual(9);
    expect(packageNames.filter((name) => !doc.includes(`\`${name}\``))).toEqual([]);
  });

  it("lists every domain error code with its tRPC code and HTTP status", () => {
    const missing = DOMAIN_ERROR_CODES.filter(
      (code) => !doc.includes(`| \`${code}\` | \`${ERROR_TABLE[code].trpc}\` | ${ERROR_TABLE[code].http} |`),
    );
    expect(missing).toEqual([]);
  });

  it("names every procedure tier, and no other", () => {
    const tiers = Object.keys(trpc).filter((name) => name.endsWith("Procedure"));
    expect(tiers.sort()).toEqual(["jamProcedure", "publicProcedure", "signedInProcedure"]);
    for (const tier of tiers) expect(doc).toContain(`\`${tier}\``);
    const named = [...doc.matchAll(/`(\w+Procedure)`/g)].map((m) => m[1]);
    expect([...new Set(named)].sort()).toEqual(tiers.sort());
  });
});
