// Compiled JSON Schema validators are reused: the gate runs on every model attempt with the
// same schema, and compiling costs far more than validating.
import { describe, expect, it } from "vitest";
import { compileJsonSchema, validateJson } from "../src/json-schema";

describe("compileJsonSchema", () => {
  it("returns the same validator for an equal schema and a new one for another", () => {
    const a = compileJsonSchema({ type: "object", required: ["x"] });
    expect(compileJsonSchema({ type: "object", required: ["x"] })).toBe(a);
    const b = compileJsonSchema({ type: "object", required: ["y"] });
    expect(b).not.toBe(a);
    // Each validates with its own schema.
    expect(validateJson(a, { x: 1 })).toEqual([]);
    expect(validateJson(b, { x: 1 }).length).toBeGreaterThan(0);
  });

  it("keeps a bounded number of validators, so distinct schemas cannot grow memory without end", () => {
    const first = compileJsonSchema({ const: "first" });
    for (let i = 0; i < 40; i++) compileJsonSchema({ const: `other-${i}` });
    // Evicted: compiled afresh (a different instance) but still correct.
    const again = compileJsonSchema({ const: "first" });
    expect(again).not.toBe(first);
    expect(validateJson(again, "first")).toEqual([]);
  });
});
