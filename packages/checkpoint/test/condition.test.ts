import { describe, expect, it } from "vitest";
import { compileCondition, evaluateCondition } from "../src";

const context = {
  subagents_spawned: 6,
  phases: { iteration_counts: { planning: 2, discovery: 1 } },
  feature: { flags: ["backend", "production"], name: "checkout" },
  deliverables: [],
  zero: 0,
  empty: "",
  nothing: null,
};
const phase = { id: "planning" };
const run = (source: string, scope: { context: unknown; phase?: unknown } = { context, phase }) =>
  evaluateCondition(source, scope);

describe("condition language", () => {
  it.each([
    ["context.subagents_spawned > 5", true],
    ["context.phases.iteration_counts[phase.id] > 1", true],
    ["context.feature.flags.includes('backend')", true],
    ["context.deliverables.length === 0", true],
    ["context.subagents_spawned > 6", false],
    ["context.phases.iteration_counts['discovery'] > 1", false],
    ["context.feature.flags.includes('frontend')", false],
  ])("seed example %s → %s", (source, value) => {
    expect(run(source)).toEqual({ ok: true, value });
  });

  it.each([
    ["context.subagents_spawned >= 6 && context.feature.name == 'checkout'", true],
    ["context.zero || context.empty", false],
    ["!context.nothing && !(context.zero > 1)", true],
    ["context.subagents_spawned != 6 || context.subagents_spawned !== 7", true],
    ["context.subagents_spawned < 6 || context.subagents_spawned <= 5", false],
    ["context.feature.name.startsWith('check') && context.feature.name.endsWith('out')", true],
    ["context.feature.name.includes('ko')", true],
    ["context.feature.name.length === 8", true],
    ["context.feature.flags[1] === 'production'", true],
    ["context.feature.name[0] === 'c'", true],
    ["context.nothing == null && context.missing == null && context.missing != 0", true],
    ["context.nothing === null && context.missing === null", false],
    ["context.subagents_spawned > -1 && -context.subagents_spawned < 0", true],
    ["true && !false && null === null", true],
    ["'b' > 'a' && 'a' < 'b'", true],
    ["context.missing > 5 || context.missing < 5", false],
    ["'5' > 4 || context.nothing >= 0", false],
    ["context.missing?.deep.deeper", false],
    ["context.missing?.includes('x')", false],
    ["context.feature", true],
    ["context.deliverables", true],
    ["context.zero", false],
  ])("%s → %s", (source, value) => {
    expect(run(source)).toEqual({ ok: true, value });
  });

  it("compiles once and evaluates against many scopes", () => {
    const compiled = compileCondition("context.n > 2");
    expect(compiled.ok).toBe(true);
    if (!compiled.ok) return;
    expect(evaluateCondition(compiled.condition, { context: { n: 3 } })).toEqual({ ok: true, value: true });
    expect(evaluateCondition(compiled.condition, { context: { n: 1 } })).toEqual({ ok: true, value: false });
  });

  it.each([
    ["context.missing.deep", 'cannot read "deep" of undefined'],
    ["context.nothing.x", 'cannot read "x" of null'],
    ["context.zero.x", 'cannot read "x" of a number'],
    ["context.feature.flags.startsWith('b')", ".startsWith() needs a string"],
    ["context.feature.includes('x')", ".includes() needs a string or an array"],
    ["context.feature.name.includes(1)", ".includes() on a string needs a string argument"],
    ["-context.feature.name > 0", "unary - needs a number"],
    ["context.feature[context.nothing]", "a computed property must be a string or a non-negative integer"],
  ])("%s fails at run time: %s", (source, message) => {
    expect(compileCondition(source).ok).toBe(true);
    expect(run(source)).toEqual({ ok: false, error: expect.stringContaining(message) });
  });

  it("reads nothing from a scope that is not plain data", () => {
    expect(evaluateCondition("context.a", { context: new Map([["a", 1]]) })).toEqual({
      ok: false,
      error: 'cannot read "a" of a non-plain object',
    });
  });

  it.each([
    ["context.a ? 1 : 2", "conditional (? :) expressions are not supported"],
    ["[1, 2].includes(1)", "array literals are not supported"],
    ["context.a + 1 > 2", 'operator "+" is not supported'],
    ["context.a ?? true", 'operator "??" is not supported'],
    ["~context.a", 'operator "~" is not supported'],
    ["context.a.includes(1, 2)", ".includes() takes exactly one argument"],
    ["context.a.slice(1)", "only .includes(), .startsWith() and .endsWith() may be called"],
    ["context.a['includes']('x')", "only .includes(), .startsWith() and .endsWith() may be called"],
    ["foo > 1", 'unknown identifier "foo": a condition may only read context and phase'],
    ["undefined === context.x", 'unknown identifier "undefined"'],
    ["", "expression is empty"],
  ])("%s is rejected at load time: %s", (source, message) => {
    const compiled = compileCondition(source);
    expect(compiled).toEqual({
      ok: false,
      error: { message: expect.stringContaining(message), position: expect.anything() },
    });
  });

  it.each([
    ["context.a > > 1", 12],
    ["context.a.slice(1)", 10],
    ["context.a && this.b", 13],
    ["context.constructor", 8],
    ["context.a context.b", undefined],
  ])("%s: the error carries position %s", (source, position) => {
    expect(compileCondition(source)).toMatchObject({ ok: false, error: { position } });
  });

  it("bounds length (1000), depth (32) and steps (10,000)", () => {
    expect(compileCondition(`context.a === '${"x".repeat(990)}'`)).toMatchObject({
      ok: false,
      error: { message: "expression is 1006 characters; the limit is 1000" },
    });
    const deep = `${"!".repeat(40)}context.a`;
    expect(compileCondition(deep)).toMatchObject({
      ok: false,
      error: { message: "expression nests deeper than 32 levels" },
    });
    expect(compileCondition(`${"!".repeat(30)}context.a`).ok).toBe(true);
    const big = { list: Array.from({ length: 20_000 }, (_, i) => i) };
    expect(evaluateCondition("context.list.includes(-1)", { context: big })).toEqual({
      ok: false,
      error: "evaluation exceeded its budget of 10000 steps",
    });
    expect(evaluateCondition("context.list.includes(5)", { context: big })).toEqual({ ok: true, value: true });
    expect(evaluateCondition("context.a || context.b", { context: {} }, { maxSteps: 2 })).toMatchObject({ ok: false });
  });

  it("parentheses do not count as depth", () => {
    const source = `${"(".repeat(300)}context.a${")".repeat(300)} === 1`;
    expect(run(source, { context: { a: 1 } })).toEqual({ ok: true, value: true });
  });
});
