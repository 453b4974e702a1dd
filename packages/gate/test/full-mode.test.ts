// Full mode: latency and the output contract, on top of the lite trio.
import { describe, expect, it } from "vitest";
import {
  evaluate,
  evaluateLatencyPolicy,
  evaluateOutputContractPolicy,
  GateInputError,
  parseGateConfig,
} from "../src/index";
import { rec } from "./fixtures";

const defaults = parseGateConfig({});
const latency = (b: number, c: number) =>
  evaluateLatencyPolicy(rec("x", { latency_ms: b }), rec("x", { latency_ms: c }), defaults.latency);

describe("mode", () => {
  it("full mode runs all five policies in evaluation order; lite runs three", () => {
    const b = rec("hello there", { cost_usd: 1, latency_ms: 100 });
    const c = rec("hello there", { cost_usd: 1, latency_ms: 100 });
    expect(evaluate({ baseline: b, candidate: c }).metadata.policies).toEqual(["cost", "pii", "drift"]);
    const full = evaluate({ baseline: b, candidate: c, mode: "full" });
    expect(full.metadata.policies).toEqual(["cost", "pii", "drift", "latency", "output_contract"]);
    expect(full.policies.map((p) => p.policy)).toEqual(full.metadata.policies);
    expect(full.status).toBe("ALLOW");
  });
});

describe("latency policy (50% WARN, 100% BLOCK)", () => {
  it("boundaries", () => {
    expect(latency(100, 149).status).toBe("ALLOW");
    expect(latency(100, 150).status).toBe("WARN");
    expect(latency(100, 150).codes).toEqual(["LATENCY_WARN_INCREASE"]);
    expect(latency(100, 150).reasons).toEqual(["Latency increased by 50.0% (>=50%)."]);
    expect(latency(100, 199).status).toBe("WARN");
    expect(latency(100, 200).status).toBe("BLOCK");
    expect(latency(100, 200).codes).toEqual(["LATENCY_BLOCK_INCREASE"]);
    expect(latency(0.3, 0.6).status).toBe("BLOCK"); // (0.6 - 0.3) / 0.3 is 0.9999999999999999 in floats
  });

  it("metrics and title", () => {
    const r = latency(100, 170);
    expect(r.title).toBe("Latency: Delta +70.00%.");
    expect(r.details.metrics).toEqual({ latency_delta_pct: 70, baseline_latency_ms: 100, candidate_latency_ms: 170 });
  });

  it("zero baseline: 0 -> 0 ALLOW, 0 -> more BLOCK", () => {
    expect(latency(0, 0).status).toBe("ALLOW");
    expect(latency(0, 5).status).toBe("BLOCK");
  });

  it("skipped without latency on both sides", () => {
    const r = evaluateLatencyPolicy(rec("x", { latency_ms: 5 }), rec("x"), defaults.latency);
    expect(r).toMatchObject({ status: "ALLOW", reasons: [], codes: [], details: { skipped: "no latency data" } });
    expect(r.title).toBe("Latency: not evaluated (no latency data).");
  });

  it("the seed's Test 3 pair (100 -> 170 ms) WARNs on latency in full mode", () => {
    const d = evaluate({
      baseline: rec("Hello", { latency_ms: 100 }),
      candidate: rec("Hello", { latency_ms: 170 }),
      mode: "full",
    });
    expect(d.status).toBe("WARN");
    expect(d.reason_codes).toEqual(["LATENCY_WARN_INCREASE"]);
    expect(d.metrics.latency_delta_pct).toBe(70);
  });
});

describe("output contract policy", () => {
  const contract = (output: string, oc: Parameters<typeof parseGateConfig>[0]) =>
    evaluateOutputContractPolicy(rec("{}"), rec(output), parseGateConfig({ output_contract: oc }).output_contract);

  it("is skipped when nothing is configured and the baseline is not JSON", () => {
    const r = evaluateOutputContractPolicy(rec("Hello there"), rec("not json"), parseGateConfig({}).output_contract);
    expect(r).toMatchObject({ status: "ALLOW", details: { skipped: "no contract configured" } });
    expect(r.title).toBe("Output contract: not evaluated (no contract configured).");
  });

  describe("inferred from a JSON baseline when none is configured", () => {
    const base = JSON.stringify({ id: 7, name: "Ada", tags: ["x"], owner: { email: null, team: "core" }, score: 1.5 });
    const judge = (candidate: string, oc: Parameters<typeof parseGateConfig>[0] = {}) =>
      evaluateOutputContractPolicy(rec(base), rec(candidate), parseGateConfig({ output_contract: oc }).output_contract);

    it("the same shape passes, extra keys and a null's new type included", () => {
      const r = judge(
        JSON.stringify({ id: 8, name: "Bo", tags: [], owner: { email: "b@x.io", team: "ops" }, score: 2, extra: true }),
      );
      expect(r.status).toBe("ALLOW");
      expect(r.details.contract).toBe("inferred from the baseline");
    });

    it("a lost key (at any depth) or a changed type BLOCKs, naming the path", () => {
      const r = judge(JSON.stringify({ id: "8", name: "Bo", tags: [3], owner: { email: null } }));
      expect(r.status).toBe("BLOCK");
      expect(r.codes).toEqual(["CONTRACT_BLOCK_MISSING_KEY", "CONTRACT_BLOCK_TYPE_MISMATCH"]);
      expect(r.details.missing_keys).toEqual(["owner.team", "score"]);
      expect(r.details.type_mismatches).toEqual([
        "id (expected number, got string)",
        "tags[0] (expected string, got number)",
      ]);
    });

    it("prose instead of JSON BLOCKs as invalid JSON; an array baseline wants an array", () => {
      expect(judge("Sure! Here it is.").codes).toEqual(["CONTRACT_BLOCK_INVALID_JSON"]);
      const arr = evaluateOutputContractPolicy(rec('[{"a":1}]'), rec('{"a":1}'), parseGateConfig({}).output_contract);
      expect(arr.details.type_mismatches).toEqual(["(root) (expected array, got object)"]);
    });

    it("a configured contract wins over the baseline", () => {
      const r = judge(JSON.stringify({ only: 1 }), { required_keys: ["only"] });
      expect(r.status).toBe("ALLOW");
      expect(r.details.contract).toBeUndefined();
    });

    it("stays bounded on a huge candidate array", () => {
      const many = JSON.stringify({
        id: 1,
        name: "x",
        tags: Array.from({ length: 50_000 }, () => 1),
        owner: { team: "a" },
        score: 1,
      });
      const r = judge(many);
      expect(r.status).toBe("BLOCK");
      expect((r.details.type_mismatches as string[]).length).toBeLessThanOrEqual(50);
    });
  });

  it("json: true requires parseable JSON (any JSON value)", () => {
    expect(contract('{"a":1}', { json: true }).status).toBe("ALLOW");
    expect(contract("[1,2]", { json: true }).status).toBe("ALLOW");
    const bad = contract("I fixed it.", { json: true });
    expect(bad.status).toBe("BLOCK");
    expect(bad.codes).toEqual(["CONTRACT_BLOCK_INVALID_JSON"]);
    expect(bad.reasons).toEqual(["Output is not valid JSON."]);
    expect(bad.title).toBe("Output contract: 1 violation(s).");
  });

  it("required keys need an object that has them", () => {
    expect(contract('{"a":1,"b":null}', { required_keys: ["a", "b"] }).status).toBe("ALLOW");
    const arr = contract("[1]", { required_keys: ["a"] });
    expect(arr.codes).toEqual(["CONTRACT_BLOCK_NOT_OBJECT"]);
    expect(arr.reasons).toEqual(["Output JSON is an array, expected an object."]);
    expect(contract("null", { required_keys: ["a"] }).reasons).toEqual(["Output JSON is null, expected an object."]);
    const missing = contract('{"a":1}', { required_keys: ["a", "b", "c"] });
    expect(missing.codes).toEqual(["CONTRACT_BLOCK_MISSING_KEY"]);
    expect(missing.reasons).toEqual(["Output JSON is missing required key(s): b, c."]);
    // Inherited properties do not count.
    expect(contract("{}", { required_keys: ["toString"] }).codes).toEqual(["CONTRACT_BLOCK_MISSING_KEY"]);
  });

  it("types: each present key must have its JSON type; integer is a number", () => {
    const types = { s: "string", n: "number", i: "integer", b: "boolean", o: "object", a: "array", z: "null" } as const;
    const ok = '{"s":"x","n":1.5,"i":2,"b":false,"o":{},"a":[],"z":null}';
    expect(contract(ok, { types }).status).toBe("ALLOW");
    expect(contract('{"n":3}', { types: { n: "number" } }).status).toBe("ALLOW");
    const bad = contract('{"s":1,"i":1.5,"o":[]}', { types });
    expect(bad.codes).toEqual(["CONTRACT_BLOCK_TYPE_MISMATCH"]);
    expect(bad.reasons).toEqual([
      "Output JSON type mismatch: s (expected string, got integer), i (expected integer, got number), o (expected object, got array).",
    ]);
    // Absent typed keys are fine unless required.
    expect(contract("{}", { types: { s: "string" } }).status).toBe("ALLOW");
  });

  it("json_schema: validated with @cfworker/json-schema, first errors quoted with locations", () => {
    const json_schema = {
      type: "object",
      required: ["severity", "ticket_summary"],
      properties: {
        severity: { enum: ["low", "medium", "high"] },
        ticket_summary: { type: "string", minLength: 5 },
        tags: { type: "array", items: { type: "string" } },
      },
    };
    expect(contract('{"severity":"low","ticket_summary":"Login broken"}', { json_schema }).status).toBe("ALLOW");
    const r = contract('{"severity":"urgent","ticket_summary":"x","tags":["a",2,3,4]}', { json_schema });
    expect(r.status).toBe("BLOCK");
    expect(r.codes).toEqual(["CONTRACT_BLOCK_SCHEMA"]);
    expect(r.reasons).toEqual([
      'Output JSON does not match the schema: #/severity: Instance does not match any of ["low","medium","high"]; #/ticket_summary: String is too short (1 < 5); #/tags/1: Instance type "number" is invalid. Expected "string" (+2 more).',
    ]);
  });

  it("json_schema honours draft-07 via $schema", () => {
    const json_schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { id: { type: "integer" } },
      properties: { id: { $ref: "#/definitions/id" } },
    };
    expect(contract('{"id":3}', { json_schema }).status).toBe("ALLOW");
    expect(contract('{"id":"3"}', { json_schema }).codes).toEqual(["CONTRACT_BLOCK_SCHEMA"]);
  });

  it("violations accumulate, invalid JSON stops the rest", () => {
    const r = contract('{"a":"x"}', {
      required_keys: ["a", "b"],
      types: { a: "number" },
      json_schema: { required: ["c"] },
    });
    expect(r.codes).toEqual(["CONTRACT_BLOCK_MISSING_KEY", "CONTRACT_BLOCK_TYPE_MISMATCH", "CONTRACT_BLOCK_SCHEMA"]);
    expect(r.title).toBe("Output contract: 3 violation(s).");
    expect(contract("{oops", { required_keys: ["a"], json_schema: {} }).codes).toEqual(["CONTRACT_BLOCK_INVALID_JSON"]);
  });

  it("refuses unusable schemas with a GateInputError naming the config field", () => {
    const expectFieldError = (json_schema: Record<string, unknown>, message: RegExp) => {
      try {
        contract("{}", { json_schema });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(GateInputError);
        expect((error as GateInputError).field).toBe("config.output_contract.json_schema");
        expect((error as Error).message).toMatch(message);
      }
    };
    expectFieldError({ properties: { u: { type: "string", format: "url" } } }, /format "url" is not supported/);
    expectFieldError({ $ref: "#/$defs/missing" }, /Unresolved \$ref/);
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic };
    expectFieldError(cyclic, /cycles/);
  });

  it("does not modify the caller's schema", () => {
    const json_schema = { $defs: { x: { type: "string" } }, properties: { a: { $ref: "#/$defs/x" } } };
    const before = JSON.stringify(json_schema);
    contract('{"a":"y"}', { json_schema });
    expect(JSON.stringify(json_schema)).toBe(before);
  });

  it("output nested deeper than 256 levels is refused before parsing", () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const r = contract(deep, {
      json_schema: { $defs: { n: { type: "array", items: { $ref: "#/$defs/n" } } }, $ref: "#/$defs/n" },
    });
    expect(r.codes).toEqual(["CONTRACT_BLOCK_INVALID_JSON"]);
    expect(r.reasons).toEqual(["Output JSON nests deeper than 256 levels; not parsed."]);
    expect(contract(deep, { json: true }).codes).toEqual(["CONTRACT_BLOCK_INVALID_JSON"]);
    // Brackets inside strings do not count.
    expect(contract(JSON.stringify({ a: "[".repeat(1000) }), { json: true }).status).toBe("ALLOW");
    const ok = `${"[".repeat(200)}${"]".repeat(200)}`;
    expect(
      contract(ok, {
        json_schema: { $defs: { n: { type: "array", items: { $ref: "#/$defs/n" } } }, $ref: "#/$defs/n" },
      }).status,
    ).toBe("ALLOW");
  });

  it("through evaluate(): a contract BLOCK in full mode", () => {
    const d = evaluate({
      baseline: rec('{"status":"ok"}'),
      candidate: rec('{"status":1}'),
      mode: "full",
      config: { output_contract: { types: { status: "string" } } },
    });
    expect(d.status).toBe("BLOCK");
    expect(d.reason_codes).toEqual(["CONTRACT_BLOCK_TYPE_MISMATCH"]);
    expect(d.metrics.contract_violations).toBe(1);
  });
});
