import { describe, expect, it } from "vitest";
import { locateJsonError } from "../src/json-error";

describe("locateJsonError (the position behind 'invalid JSON: ... at line L, column C')", () => {
  it("returns null for valid JSON", () => {
    for (const text of ['{"a":1}', "[[[]]]", ' {"a":-0.5e+3, "b":[true,false,null], "c":"\\u00e9\\n"} ', '"x"', "0"]) {
      expect(JSON.parse(text)).toBeDefined();
      expect(locateJsonError(text), text).toBeNull();
    }
  });

  it.each([
    ['{\n  "output": "hi",\n  "cost_usd": ,\n}\n', 34, 'unexpected ","', "a value"],
    ['{"a":1,}', 7, 'unexpected "}"', "a key (no trailing commas)"],
    ["[1,2,]", 5, 'unexpected "]"', "a value (no trailing commas)"],
    ['{"a" 1}', 5, 'unexpected "1"', '":"'],
    ['{"a":1 "b":2}', 7, 'unexpected "\\""', '"," or "}"'],
    ["[1 2]", 3, 'unexpected "2"', '"," or "]"'],
    ['"abc', 4, "unexpected end of file", "a closing quote"],
    ['"a\\qb"', 2, "invalid escape", 'one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u'],
    ['{"a":"x\ny"}', 7, "unexpected control character U+000A", "a closing quote"],
    ["{} x", 3, 'unexpected "x"', "end of file (one JSON value per file)"],
    ["[", 1, "unexpected end of file", "a value"],
    ["{'a':1}", 1, `unexpected "'"`, 'a key or "}"'],
    ['{"a":[1,{"b":nul}]}', 13, 'unexpected "n"', "a value"],
  ])("%j fails at %i", (text, offset, found, expected) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(locateJsonError(text)).toEqual({ offset, found, expected });
  });

  it("handles deep nesting without recursion", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(99_999)}`;
    expect(locateJsonError(deep)).toMatchObject({ found: "unexpected end of file" });
  });
});
