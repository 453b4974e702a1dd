// The small text rules executors and timeouts rest on: durations, workspace paths, artifact
// globs and webhook addresses.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  artifactPatternProblem,
  CheckpointError,
  durationProblem,
  MAX_DURATION_MS,
  MIN_DURATION_MS,
  matchesArtifact,
  parseDuration,
  relativePathProblem,
  webhookUrlProblem,
} from "../src";

describe("parseDuration", () => {
  it.each([
    ["1s", 1000],
    ["30s", 30_000],
    ["10m", 600_000],
    ["2h", 7_200_000],
    ["1d", 86_400_000],
    ["90m", 5_400_000],
    ["30d", MAX_DURATION_MS],
    ["2592000s", MAX_DURATION_MS],
  ])("%s → %d ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
    expect(durationProblem(text)).toBeUndefined();
  });

  it.each(["", "10", "m", "1.5h", "-1m", "1h30m", "10 m", "10M", "1w", "500ms", " 1s", "0s", "31d", "2592001s"])(
    "refuses %j",
    (text) => {
      expect(durationProblem(text)).toBeTypeOf("string");
      expect(() => parseDuration(text)).toThrow(CheckpointError);
    },
  );

  it("every accepted duration is within the bounds", () => {
    fc.assert(
      fc.property(fc.nat(2_000_000), fc.constantFrom("s", "m", "h", "d"), (n, unit) => {
        const text = `${n}${unit}`;
        if (durationProblem(text) === undefined) {
          const ms = parseDuration(text);
          expect(ms).toBeGreaterThanOrEqual(MIN_DURATION_MS);
          expect(ms).toBeLessThanOrEqual(MAX_DURATION_MS);
        } else expect(() => parseDuration(text)).toThrow(/out of range/);
      }),
    );
  });
});

describe("paths", () => {
  it.each(["web", "web/app", "./web", "a..b", ".hidden/x", "out/release notes.md"])(
    "%j is a workspace path",
    (path) => {
      expect(relativePathProblem(path)).toBeUndefined();
    },
  );

  it.each(["", "/etc", "C:/x", "c:x", "..", "a/../b", "a/..", "a\\b", "a\0b"])("%j is refused", (path) => {
    expect(relativePathProblem(path)).toBeTypeOf("string");
  });

  it.each([
    ["out/*.md", "out/a.md", true],
    ["out/*.md", "out/sub/a.md", false],
    ["out/*.md", "out/.md", true],
    ["out/*.md", "out/a.mdx", false],
    ["out/r?.txt", "out/r1.txt", true],
    ["out/r?.txt", "out/r12.txt", false],
    ["*/report.md", "web/report.md", true],
    ["out/a.md", "./out//a.md", true],
    ["out/*a*b*", "out/xaYbZ", true],
    ["out/*a*b*", "out/xbYaZ", false],
    ["out/*.md", "../out/a.md", false],
    ["../*.md", "../a.md", false],
  ])("matchesArtifact(%j, %j) is %s", (pattern, path, expected) => {
    expect(matchesArtifact(pattern, path)).toBe(expected);
  });

  it("a pattern without wildcards matches only itself", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9._-]{1,8}(\/[a-z0-9._-]{1,8}){0,3}$/), (path) => {
        fc.pre(relativePathProblem(path) === undefined && path.split("/").every((s) => s !== "."));
        expect(matchesArtifact(path, path)).toBe(true);
        expect(matchesArtifact(path, `${path}x`)).toBe(false);
      }),
    );
  });

  it("answers on adversarial patterns (a backtracking matcher would not finish)", () => {
    expect(matchesArtifact(`${"*a".repeat(200)}b`, "a".repeat(5000))).toBe(false);
  });

  it("artifact patterns refuse what a host could not match alike", () => {
    expect(artifactPatternProblem("out/*.md")).toBeUndefined();
    for (const bad of ["out/**", "out/{a,b}.md", "out/[ab].md", "out/", "{{dir}}/x", "/abs", "../x"]) {
      expect(artifactPatternProblem(bad), bad).toBeTypeOf("string");
    }
  });
});

describe("webhookUrlProblem", () => {
  it.each(["https://hooks.example.com/x", "http://localhost:8080/h?a=1", "https://10.0.0.1/h"])("accepts %s", (url) => {
    expect(webhookUrlProblem(url)).toBeUndefined();
  });

  it.each([
    ["hooks.example.com", '"hooks.example.com" is not a URL'],
    ["ftp://x.example/h", "must be an http or https URL, not ftp:"],
    ["javascript:alert(1)", "must be an http or https URL, not javascript:"],
    ["https://user:pw@x.example/h", "must not carry credentials; name the key in secret_env"],
  ])("refuses %s", (url, message) => {
    expect(webhookUrlProblem(url)).toBe(message);
  });

  it("refuses an address longer than 2000 characters", () => {
    expect(webhookUrlProblem(`https://x.example/${"a".repeat(2000)}`)).toBe("is 2018 characters; the limit is 2000");
  });
});
