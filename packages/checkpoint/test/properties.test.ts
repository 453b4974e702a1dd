// Invariants under random input: the evaluator always answers with a result object, load-time
// and run-time rules agree, and random decision scripts keep the run state valid and bounded.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compileCondition,
  decide,
  evaluateCondition,
  loadWorkflowOrThrow,
  phaseCompleted,
  startRun,
  type TCompiledCondition,
  type TConditionNode,
  UMBRA_BEAT_YAML,
  ZRunState,
} from "../src";
import { at } from "./drive";

const prototypeKeys = () => Reflect.ownKeys(Object.prototype).length;
let getterCalls = 0;

function scope(): { context: unknown; phase: unknown } {
  const context: Record<string, unknown> = { a: { b: [1, "x", null], c: "text" }, n: 3, list: ["a", "b"] };
  Object.defineProperty(context, "g", {
    enumerable: true,
    get() {
      getterCalls += 1;
      return true;
    },
  });
  return { context, phase: { id: "p" } };
}

function isResult(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const result = value as { ok?: unknown; value?: unknown; error?: unknown };
  return result.ok === true
    ? typeof result.value === "boolean"
    : result.ok === false && typeof result.error === "string";
}

const TOKENS = [
  "context",
  "phase",
  ".",
  "[",
  "]",
  "(",
  ")",
  "'a'",
  "'__proto__'",
  "1",
  "-",
  "&&",
  "||",
  "!",
  "===",
  "==",
  "<",
  ">=",
  "constructor",
  "__proto__",
  "prototype",
  "includes",
  "startsWith",
  "length",
  "a",
  "b",
  "g",
  "n",
  " ",
  ",",
  "this",
  "+",
  "=",
  "`",
  "=>",
  "new ",
  "?",
  ":",
  "?.",
  "'",
  '"',
  "{",
  "}",
  ";",
  "x",
  "null",
  "true",
];
const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((parts) => parts.join(""));

const NAMES = [
  "context",
  "phase",
  "constructor",
  "__proto__",
  "prototype",
  "this",
  "globalThis",
  "includes",
  "length",
  "a",
  "b",
  "g",
  "n",
];
const { node } = fc.letrec<{ node: unknown; leaf: unknown }>((tie) => ({
  leaf: fc.oneof(
    fc.record({ type: fc.constant("Identifier"), name: fc.constantFrom(...NAMES) }),
    fc.record({
      type: fc.constant("Literal"),
      value: fc.oneof(
        fc.string({ maxLength: 4 }),
        fc.integer(),
        fc.double(),
        fc.boolean(),
        fc.constant(null),
        fc.constantFrom(...NAMES),
      ),
    }),
    fc.record({ type: fc.constantFrom("ThisExpression", "ArrowFunctionExpression", "TemplateLiteral", "Weird", "") }),
    fc.constantFrom(null, undefined, 1, "context", []),
  ),
  node: fc.oneof(
    { depthSize: "small" },
    tie("leaf"),
    fc.record({
      type: fc.constant("MemberExpression"),
      computed: fc.boolean(),
      optional: fc.boolean(),
      object: tie("node"),
      property: tie("node"),
    }),
    fc.record({
      type: fc.constant("CallExpression"),
      callee: tie("node"),
      arguments: fc.array(tie("node"), { maxLength: 2 }),
    }),
    fc.record({
      type: fc.constant("UnaryExpression"),
      operator: fc.constantFrom("!", "-", "~", "typeof", "delete"),
      argument: tie("node"),
    }),
    fc.record({
      type: fc.constant("BinaryExpression"),
      operator: fc.constantFrom("&&", "||", "===", "==", "!=", "<", ">=", "+", "in", "instanceof"),
      left: tie("node"),
      right: tie("node"),
    }),
    fc.record({
      type: fc.constantFrom("SequenceExpression", "Compound"),
      body: fc.array(tie("node"), { maxLength: 2 }),
    }),
  ),
}));

describe("properties", () => {
  const keys = prototypeKeys();

  it("random strings and token soups always get a result object, never a throw", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 60 }), tokenSoup), (source) => {
        expect(isResult(evaluateCondition(source, scope()))).toBe(true);
        const compiled = compileCondition(source);
        if (!compiled.ok) expect(evaluateCondition(source, scope()).ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
    expect(prototypeKeys()).toBe(keys);
    expect(getterCalls).toBe(0);
  });

  it("random trees (valid or not) always get a result object and never call a getter", () => {
    fc.assert(
      fc.property(node, (ast) => {
        const condition = { source: "", ast: ast as TConditionNode } as TCompiledCondition;
        expect(isResult(evaluateCondition(condition, scope()))).toBe(true);
      }),
      { numRuns: 2000 },
    );
    expect(prototypeKeys()).toBe(keys);
    expect(getterCalls).toBe(0);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("random decision scripts keep the run valid, bounded and deterministic", () => {
    const umbra = loadWorkflowOrThrow(UMBRA_BEAT_YAML);
    const labels = ["Continue", "Repeat resolve", "Skip promotion", "Abort"];
    const play = (choices: number[], feedback: string) => {
      let state = startRun(umbra, { now: at(0) });
      let i = 0;
      for (let step = 1; state.next.kind !== "finished"; step++) {
        expect(step).toBeLessThan(100);
        if (state.next.kind === "run_phase") state = phaseCompleted(umbra, state, { now: at(step), data: { step } });
        else {
          const label = labels[(choices[i++] ?? 0) % labels.length] as string;
          state = decide(umbra, state, { label, now: at(step), ...(label === "Skip promotion" ? { feedback } : {}) });
        }
        ZRunState.parse(state);
        for (const count of Object.values(state.context.phases.iteration_counts)) expect(count).toBeLessThanOrEqual(5);
      }
      return state;
    };
    fc.assert(
      fc.property(fc.array(fc.nat(3), { maxLength: 12 }), fc.string({ maxLength: 20 }), (choices, feedback) => {
        const first = play(choices, feedback);
        expect(["done", "aborted"]).toContain(first.status);
        expect(first.exit_code).toBe(first.status === "done" ? 0 : first.abort?.reason === "user" ? 2 : 1);
        expect(play(choices, feedback)).toEqual(first);
        expect(JSON.parse(JSON.stringify(first))).toEqual(first);
      }),
      { numRuns: 300 },
    );
  });
});
