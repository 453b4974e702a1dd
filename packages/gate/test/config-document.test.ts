// Config documents: presets under, environments over, validation of every environment.
import { GATE_PRESETS } from "@solserver/contracts";
import { describe, expect, it } from "vitest";
import { deepMerge, evaluate, GateInputError, PRESETS, parseGateConfig, resolveGateConfig } from "../src/index";
import { rec } from "./fixtures";

function inputError(fn: () => unknown): GateInputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GateInputError);
    return e as GateInputError;
  }
  throw new Error("expected a GateInputError");
}

describe("presets", () => {
  it.each(GATE_PRESETS)("%s is a valid config with its own description", (name) => {
    expect(PRESETS[name].description.length).toBeGreaterThan(10);
    const { config, preset } = resolveGateConfig({ preset: name });
    expect(preset).toBe(name);
    expect(config).toEqual(parseGateConfig(PRESETS[name].config));
  });

  it("sits between the defaults and the document: keys the document sets win", () => {
    const { config } = resolveGateConfig({ document: { cost: { warn_increase_pct: 5 } }, preset: "chatbot" });
    expect(config.cost.warn_increase_pct).toBe(5);
    expect(config.cost.block_increase_pct).toBe(50); // the preset's
    expect(config.drift.warn_short_ratio).toBe(0.25); // the preset's
    expect(config.pii.enforce).toBe("block"); // the default
  });

  it("changes decisions the way its name says (a +25% cost: WARN by default, ALLOW for chatbot)", () => {
    const b = rec("Your order ships Monday.", { cost_usd: 1 });
    const c = rec("Your order ships on Monday.", { cost_usd: 1.25 });
    expect(evaluate({ baseline: b, candidate: c }).status).toBe("WARN");
    expect(evaluate({ baseline: b, candidate: c, preset: "chatbot" }).status).toBe("ALLOW");
    expect(evaluate({ baseline: b, candidate: c, preset: "extraction" }).status).toBe("WARN");
  });

  it("the document may name its preset; an option wins over it", () => {
    expect(resolveGateConfig({ document: { preset: "support" } }).preset).toBe("support");
    expect(resolveGateConfig({ document: { preset: "support" }, preset: "extraction" }).preset).toBe("extraction");
  });

  it("an unknown preset names where it came from and lists the presets", () => {
    const opt = inputError(() => resolveGateConfig({ preset: "chat" }));
    expect(opt.field).toBe("preset");
    expect(opt.message).toContain("available: chatbot, extraction, support");
    expect(inputError(() => resolveGateConfig({ document: { preset: 3 } })).field).toBe("config.preset");
  });
});

describe("environments", () => {
  const document = {
    cost: { warn_increase_pct: 10 },
    environments: {
      ci: { cost: { warn_increase_pct: 50, block_increase_pct: 80 } },
      production: { pii: { enforce: "block" }, drift: { enforce: "off" } },
    },
  };

  it("apply their overrides on top of the document; without --env none applies", () => {
    const plain = resolveGateConfig({ document });
    expect(plain.config.cost).toMatchObject({ warn_increase_pct: 10, block_increase_pct: 40 });
    expect(plain.environments).toEqual(["ci", "production"]);
    expect(plain.environment).toBeNull();
    const ci = resolveGateConfig({ document, environment: "ci" });
    expect(ci.config.cost).toMatchObject({ warn_increase_pct: 50, block_increase_pct: 80 });
    expect(resolveGateConfig({ document, environment: "production" }).config.drift.enforce).toBe("off");
  });

  it("an environment over a preset over the defaults", () => {
    const { config } = resolveGateConfig({
      document: { environments: { ci: { latency: { warn_increase_pct: 1 } } } },
      preset: "extraction",
      environment: "ci",
    });
    expect(config.latency.warn_increase_pct).toBe(1);
    expect(config.latency.block_increase_pct).toBe(60);
  });

  it("an unknown environment lists the defined ones", () => {
    const e = inputError(() => resolveGateConfig({ document, environment: "prod" }));
    expect(e.field).toBe("env");
    expect(e.message).toContain('unknown environment "prod" (defined: ci, production)');
    expect(inputError(() => resolveGateConfig({ environment: "ci" })).message).toContain("defines no environments");
  });

  it("every environment is validated, chosen or not, and errors name the key inside it", () => {
    const bad = { environments: { ci: {}, production: { cost: { warn_increase_pct: -1 } } } };
    expect(inputError(() => resolveGateConfig({ document: bad })).field).toBe(
      "config.environments.production.cost.warn_increase_pct",
    );
    expect(inputError(() => resolveGateConfig({ document: { environments: { ci: 3 } } })).field).toBe(
      "config.environments.ci",
    );
    expect(inputError(() => resolveGateConfig({ document: { environments: [] } })).field).toBe("config.environments");
    expect(inputError(() => resolveGateConfig({ document: "cost: 1" })).field).toBe("config");
  });
});

describe("deepMerge", () => {
  it("merges objects key by key and replaces arrays and values", () => {
    expect(deepMerge({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, d: { e: 1 } })).toEqual({
      a: { b: 1, c: [3] },
      d: { e: 1 },
    });
  });

  it("treats a __proto__ key as data: no prototype changes, and the config rejects it as unknown", () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const merged = deepMerge({}, hostile);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(inputError(() => resolveGateConfig({ document: hostile })).field).toBe("config");
  });
});
