import { describe, expect, it } from "vitest";
import { CheckpointError, substitute, templateVariables } from "../src";

const vars = { output_dir: "out", count: 3, yes: true, paths: { report: "r.md", list: ["a", "b"] } };

describe("substitute", () => {
  it.each([
    ["{{output_dir}}/plan.md", "out/plan.md"],
    ["{{ output_dir }}/{{output_dir}}", "out/out"],
    ["{{count}} proposals, {{yes}}", "3 proposals, true"],
    ["{{paths.report}} and {{paths.list.1}}", "r.md and b"],
    ["no placeholders", "no placeholders"],
    ["a } b { c }} d", "a } b { c }} d"],
    ["", ""],
  ])("%s → %s", (template, expected) => {
    expect(substitute(template, vars)).toBe(expected);
  });

  it.each([
    ["{{missing}}", 'unknown variable "missing"'],
    ["{{paths.nope}}", 'unknown variable "paths.nope"'],
    ["{{paths}}", 'variable "paths" is not a string, number or boolean'],
    ["x {{output_dir", 'unclosed "{{" at character 2'],
    ["{{}}", "is not a variable name"],
    ["{{1abc}}", "is not a variable name"],
    ["{{a..b}}", "is not a variable name"],
    ["{{a-b}}", "is not a variable name"],
    ["{{ paths.__proto__ }}", '"__proto__" is not allowed'],
    ["{{constructor.name}}", '"constructor" is not allowed'],
  ])("%s throws: %s", (template, message) => {
    expect(() => substitute(template, vars)).toThrow(CheckpointError);
    expect(() => substitute(template, vars)).toThrow(message);
  });

  it("never reads inherited or getter properties", () => {
    let calls = 0;
    const tricky = Object.create({ inherited: "x" }) as Record<string, unknown>;
    const withGetter = {
      get secret() {
        calls += 1;
        return "s";
      },
    };
    expect(() => substitute("{{toString}}", {})).toThrow('unknown variable "toString"');
    expect(() => substitute("{{inherited}}", { a: tricky, inherited: undefined })).toThrow("unknown variable");
    expect(() => substitute("{{secret}}", withGetter)).toThrow("unknown variable");
    expect(calls).toBe(0);
  });

  it("lists the variables a template uses", () => {
    expect(templateVariables("{{a}}/{{ b.c }}/x")).toEqual(["a", "b.c"]);
  });

  it("answers on hostile input", () => {
    expect(() => substitute("{{".repeat(200_000), vars)).toThrow("unclosed");
    expect(substitute("{{count}}".repeat(100_000), vars)).toHaveLength(100_000);
    expect(() => substitute(`{{ ${"a".repeat(500_000)}`, vars)).toThrow("unclosed");
    expect(() => substitute(`{{${"a.".repeat(100_000)}}}`, vars)).toThrow("is not a variable name");
  });
});
