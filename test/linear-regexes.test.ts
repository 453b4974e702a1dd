// Every regular expression written in product code runs in linear time (the security standard:
// regexes on untrusted text must). recheck (makenowjust-labs) decides it from the pattern itself,
// by automata analysis with fuzzing to confirm: a pattern that can backtrack super-linearly is
// "vulnerable" with the attack string. A static check is exact where a timing test is not: no
// threshold to tune, nothing a busy CI machine can fail (its budgets are counted in steps, below). Patterns built at run time
// (`new RegExp`) are not seen here; product code builds none from people's text.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import jsTokens from "js-tokens";
import { checkSync } from "recheck";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

/** Product sources under version control: every package's src and the web app's, no generated code. */
const files = execFileSync(
  "git",
  ["ls-files", "packages/*/src/**/*.ts", "packages/*/src/*.ts", "apps/web/src/**/*.ts", "apps/web/src/**/*.tsx"],
  { cwd: ROOT, encoding: "utf8" },
)
  .split("\n")
  .filter((f) => f && !f.includes("/generated/") && !/\.test\.tsx?$/.test(f));

const literals = files.flatMap((file) =>
  [...jsTokens(readFileSync(path.join(ROOT, file), "utf8"), { jsx: file.endsWith(".tsx") })]
    .filter((t) => t.type === "RegularExpressionLiteral")
    .map((t) => ({ file, literal: t.value })),
);

/**
 * recheck's budgets in steps only: its default time budgets (matching time while it fuzzes) run
 * out on a busy machine, and the pattern then comes back "unknown" (seen at load 20 on 2 cores).
 */
const DETERMINISTIC = { timeout: null, attackTimeout: null, incubationTimeout: null, seedingTimeout: null };

describe("regular expressions in product code", () => {
  it("are found (the scan reads the tree)", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(literals.length).toBeGreaterThan(50);
  });

  it("all run in linear time", { timeout: 120_000 }, () => {
    const unsafe = literals.flatMap(({ file, literal }) => {
      const end = literal.lastIndexOf("/");
      const result = checkSync(literal.slice(1, end), literal.slice(end + 1), DETERMINISTIC);
      return result.status === "safe"
        ? []
        : [
            `${file}: ${literal} is ${result.status}${result.status === "vulnerable" ? ` (${result.complexity.type})` : ""}`,
          ];
    });
    expect(unsafe).toEqual([]);
  });
});
