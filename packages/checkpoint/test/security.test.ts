// The condition language must never run code, reach a prototype or invoke a getter: each hostile
// expression is refused at load time or evaluates to an error/false, and nothing global changes.

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { compileCondition, evaluateCondition, loadWorkflow } from "../src";

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype];
const snapshot = () => PROTOTYPES.map((proto) => Reflect.ownKeys(proto).map(String).sort());
let before: string[][];
const globals = globalThis as Record<string, unknown>;

beforeAll(() => {
  before = snapshot();
});

afterEach(() => {
  expect(snapshot()).toEqual(before);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(globals.pwned).toBeUndefined();
});

afterAll(() => {
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
});

let getterCalls = 0;
function hostileContext(): Record<string, unknown> {
  const context: Record<string, unknown> = {
    x: { y: 1 },
    list: [1, 2],
    s: "text",
    keys: { proto: "__proto__", ctor: "constructor", pt: "prototype", deep: "x" },
  };
  Object.defineProperty(context, "getter", {
    enumerable: true,
    get() {
      getterCalls += 1;
      globals.pwned = true;
      return true;
    },
  });
  const list = [0];
  Object.defineProperty(list, 1, {
    enumerable: true,
    get() {
      getterCalls += 1;
      return 1;
    },
  });
  context.trapped = list;
  return context;
}

const HOSTILE: string[] = [
  "constructor.constructor('return process')()",
  "constructor.constructor('globalThis.pwned = 1')()",
  "context.constructor.constructor('return process')()",
  "context.constructor.constructor('globalThis.pwned = 1')()",
  "context.x.constructor.constructor('globalThis.pwned = 1')()",
  "this",
  "this.constructor",
  "this.constructor.constructor('globalThis.pwned = 1')()",
  "context['__proto__']",
  "context['__pro' + 'to__']",
  "context['constructor']",
  "context['prototype']",
  "context.__proto__",
  "context.prototype",
  "(1).constructor",
  "''.constructor",
  "''.constructor.constructor('globalThis.pwned = 1')()",
  "context.x.__proto__.polluted",
  "context.x['__proto__'].polluted",
  "process.exit(1)",
  "process",
  "globalThis",
  "globalThis.pwned",
  "window",
  "require('fs')",
  "import('fs')",
  "new Function('x')",
  "new Function('globalThis.pwned = 1')()",
  "Function('globalThis.pwned = 1')()",
  "eval('1')",
  "x => x",
  "() => 1",
  "(a) => { globalThis.pwned = 1 }",
  "context.a = 1",
  "context.x.polluted = 1",
  "context.a++",
  "++context.a",
  "context.a += 1",
  "delete context.x",
  "typeof context",
  "void 0",
  "(context.a, context.b)",
  "context.a, context.b",
  "context.a; context.b",
  "`template`",
  "`$\u{7b}context.a}`",
  "context.s.toString()",
  "context.s.valueOf()",
  "context.list.map(1)",
  "context.list['includes']('x')",
  "context.x.hasOwnProperty('y')",
  "context.s.includes.call",
  "context?.constructor",
  "context[context.keys.proto]",
  "context[context.keys.ctor]",
  "context[context.keys.pt]",
  "context.x[context.keys.proto].polluted",
  "context.list[context.keys.ctor]",
  "context.s[context.keys.ctor]",
  "context.getter",
  "context.getter === true",
  "!context.getter",
  "context.trapped.includes(1)",
  "context.trapped[1]",
  "context.trapped.length > 1 && context.trapped[1] === 1",
];

function isRejectedOrFalse(source: string, context: Record<string, unknown>): boolean {
  const compiled = compileCondition(source);
  const result = evaluateCondition(source, { context, phase: { id: "p" } });
  if (!compiled.ok) return result.ok === false;
  return result.ok === false || result.value === false;
}

describe("hostile conditions", () => {
  it.each(HOSTILE)("%s is refused or false, and runs nothing", (source) => {
    getterCalls = 0;
    const exit = vi.spyOn(process, "exit").mockImplementation(() => undefined as never);
    try {
      expect(isRejectedOrFalse(source, hostileContext())).toBe(true);
      expect(exit).not.toHaveBeenCalled();
      expect(getterCalls).toBe(0);
    } finally {
      exit.mockRestore();
    }
  });

  it("prototype and constructor names are refused at load time in dot and literal form", () => {
    for (const source of ["context.constructor", "context['__proto__']", "(1).constructor", "''.constructor", "this"]) {
      expect(compileCondition(source).ok, source).toBe(false);
    }
  });

  it("computed names are checked at run time too", () => {
    const context = hostileContext();
    for (const key of ["proto", "ctor", "pt"]) {
      const source = `context[context.keys.${key}]`;
      expect(compileCondition(source).ok).toBe(true);
      expect(evaluateCondition(source, { context })).toEqual({
        ok: false,
        error: expect.stringMatching(/is not allowed$/),
      });
    }
    expect(evaluateCondition("context[context.keys.deep].y === 1", { context })).toEqual({ ok: true, value: true });
  });

  it("a getter is reported, never invoked", () => {
    getterCalls = 0;
    expect(evaluateCondition("context.getter", { context: hostileContext() })).toEqual({
      ok: false,
      error: 'property "getter" is a getter, not data',
    });
    expect(evaluateCondition("context.trapped.includes(1)", { context: hostileContext() })).toEqual({
      ok: false,
      error: "element 1 is a getter, not data",
    });
    expect(getterCalls).toBe(0);
  });

  it("inherited properties are invisible", () => {
    const context = Object.create({ inherited: true }) as Record<string, unknown>;
    expect(evaluateCondition("context.inherited", { context })).toMatchObject({ ok: false });
    expect(evaluateCondition("context.x.toString", { context: { x: {} } })).toEqual({ ok: true, value: false });
    expect(evaluateCondition("context.list.push", { context: { list: [] } })).toEqual({ ok: true, value: false });
  });

  it("10,000 nested parentheses, 10,000 negations and a 100 KB expression are refused", () => {
    const sources = [
      `${"(".repeat(10_000)}context.a${")".repeat(10_000)}`,
      `${"!".repeat(10_000)}context.a`,
      `context.a === '${"x".repeat(100 * 1024)}'`,
      `${"context.a && ".repeat(10_000)}true`,
      `${"!".repeat(900)}context.a`,
    ];
    for (const source of sources) {
      const compiled = compileCondition(source);
      expect(compiled.ok).toBe(false);
      expect(evaluateCondition(source, { context: { a: 1 } }).ok).toBe(false);
    }
  });

  it("a hand-built tree deeper than the limit fails cleanly at run time", () => {
    let ast: Record<string, unknown> = { type: "Identifier", name: "context" };
    for (let i = 0; i < 100_000; i++) ast = { type: "UnaryExpression", operator: "!", argument: ast, prefix: true };
    expect(evaluateCondition({ source: "", ast: ast as { type: string } }, { context: {} })).toEqual({
      ok: false,
      error: "expression nests deeper than 32 levels",
    });
    const cyclic: Record<string, unknown> = { type: "UnaryExpression", operator: "!", prefix: true };
    cyclic.argument = cyclic;
    expect(evaluateCondition({ source: "", ast: cyclic as { type: string } }, { context: {} }).ok).toBe(false);
  });

  it("hostile conditions in a definition are rejected when it loads", () => {
    for (const source of [
      "this.constructor",
      "context.constructor.constructor('x')()",
      "process.exit(1)",
      "context.a = 1",
    ]) {
      const yaml = `name: t\nphases:\n  - id: a\n    checkpoint:\n      condition: ${JSON.stringify(source)}\n      prompt: p\n      options: [{ label: Go, on_select: { action: continue } }]\n`;
      const result = loadWorkflow(yaml);
      expect(result.ok, source).toBe(false);
      if (!result.ok) expect(result.errors[0]).toMatch(/^phases\[0\]\.checkpoint\.condition: /);
    }
  });
});
