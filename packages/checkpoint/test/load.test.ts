import { describe, expect, it } from "vitest";
import { CheckpointError, loadWorkflow, loadWorkflowOrThrow } from "../src";

function errorsOf(yaml: string): string[] {
  const result = loadWorkflow(yaml);
  if (result.ok) throw new Error("expected the definition to be rejected");
  return result.errors;
}

/** A valid three-phase workflow whose third phase's checkpoint options are `options`. */
function withOptions(options: string, extra = ""): string {
  return `
name: t
variables: { output_dir: out, paths: { report: r.md }, n: 3 }
phases:
  - { id: planning, run: s.plan }
  - { id: building, run: s.build }
  - id: review
    checkpoint:
      prompt: "Look at {{output_dir}}?"${extra}
      options:
${options}
  - { id: docs, run: s.docs }
`;
}
const CONTINUE = "        - { label: Go, on_select: { action: continue } }";

describe("loadWorkflow", () => {
  it("accepts a valid definition and applies defaults", () => {
    const result = loadWorkflow(`
name: minimal
phases:
  - id: only
    run: s.only
    gap_check: { condition: "context.gaps > 0" }
`);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.workflow).toEqual({
      name: "minimal",
      variables: {},
      max_iterations: 5,
      phases: [{ id: "only", run: "s.only", gap_check: { condition: "context.gaps > 0", max_retries: 2 } }],
    });
  });

  it("names the path of an unknown action", () => {
    const yaml = withOptions(`${CONTINUE}\n        - { label: Jump, on_select: { action: jump } }`);
    expect(errorsOf(yaml)).toEqual(['phases[2].checkpoint.options[1].on_select.action: unknown action "jump"']);
  });

  it("rejects unknown phase ids in target and phases", () => {
    const yaml = withOptions(`
        - { label: A, on_select: { action: repeat_phase, target: nowhere } }
        - { label: B, on_select: { action: skip_phases, phases: [docs, ghost] } }`);
    expect(errorsOf(yaml)).toEqual([
      'phases[2].checkpoint.options[0].on_select.target: unknown phase "nowhere"',
      'phases[2].checkpoint.options[1].on_select.phases[1]: unknown phase "ghost"',
    ]);
  });

  it("rejects repeat_phase without target, skip_phases without phases, and misplaced fields", () => {
    const yaml = withOptions(`
        - { label: A, on_select: { action: repeat_phase } }
        - { label: B, on_select: { action: skip_phases } }
        - { label: C, on_select: { action: continue, target: planning, phases: [docs] } }`);
    expect(errorsOf(yaml)).toEqual([
      'phases[2].checkpoint.options[0].on_select.target: repeat_phase needs a target: "current" or a phase id',
      "phases[2].checkpoint.options[1].on_select.phases: skip_phases needs the phases to skip",
      "phases[2].checkpoint.options[2].on_select.target: only repeat_phase takes a target",
      "phases[2].checkpoint.options[2].on_select.phases: only skip_phases takes phases",
    ]);
  });

  it("repeat_phase only goes back", () => {
    const yaml = withOptions("        - { label: A, on_select: { action: repeat_phase, target: docs } }");
    expect(errorsOf(yaml)).toEqual([
      'phases[2].checkpoint.options[0].on_select.target: "docs" comes after this phase; repeat_phase only goes back',
    ]);
  });

  it("rejects duplicate option labels and duplicate phase ids", () => {
    expect(errorsOf(withOptions(`${CONTINUE}\n${CONTINUE}`))).toEqual([
      'phases[2].checkpoint.options[1].label: duplicate label "Go"',
    ]);
    expect(errorsOf("name: t\nphases:\n  - { id: a, run: x }\n  - { id: b, run: x }\n  - { id: a, run: x }\n")).toEqual(
      ['phases[2].id: duplicate phase id "a" (also phases[0])'],
    );
  });

  it("rejects conditions that fail to parse, with the character position", () => {
    const result = loadWorkflow(withOptions(CONTINUE, '\n      condition: "context.a > > 1"'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toHaveLength(1);
    expect(result.issues[0]).toMatchObject({ path: "phases[2].checkpoint.condition", position: 12 });
    expect(result.errors[0]).toMatch(/^phases\[2\]\.checkpoint\.condition: cannot parse: .* at character 12$/);
    expect(errorsOf('name: t\nphases:\n  - { id: a, run: x, gap_check: { condition: "this.x" } }\n')).toEqual([
      "phases[0].gap_check.condition: `this` is not allowed",
    ]);
  });

  it("rejects unknown {{vars}} in prompt and show_files; accepts dotted and numeric ones", () => {
    const bad = withOptions(
      CONTINUE,
      '\n      show_files: ["{{output_dir}}/a.md", "{{ outdir }}/b.md", "{{paths.missing}}"]',
    ).replace("{{output_dir}}?", "{{output_dir}} {{nope}}?");
    expect(errorsOf(bad)).toEqual([
      'phases[2].checkpoint.prompt: unknown variable "nope"',
      'phases[2].checkpoint.show_files[1]: unknown variable "outdir"',
      'phases[2].checkpoint.show_files[2]: unknown variable "paths.missing"',
    ]);
    const good = withOptions(CONTINUE, '\n      show_files: ["{{paths.report}}", "{{n}} files"]');
    expect(loadWorkflow(good).ok).toBe(true);
    expect(errorsOf(withOptions(CONTINUE, '\n      show_files: ["{{paths}}", "{{ x", "{{a b}}"]'))).toEqual([
      'phases[2].checkpoint.show_files[0]: variable "paths" is not a string, number or boolean',
      'phases[2].checkpoint.show_files[1]: unclosed "{{" at character 0',
      'phases[2].checkpoint.show_files[2]: "{{a b}}" at character 0 is not a variable name',
    ]);
  });

  it("lists every problem at once", () => {
    const errors = errorsOf(`
name: ""
extra: 1
phases:
  - id: Bad
    run: x
  - id: ok
    checkpoint:
      approval_required: true
      prompt: also custom
  - id: ok
    checkpoint:
      condition: "context.a >"
      prompt: "{{missing}}"
      options:
        - { label: A, with_feedback: "yes", on_select: { action: jump } }
        - { label: A, on_select: { action: skip_phases, phases: [ghost] } }
`);
    expect(errors).toEqual([
      "name: must not be empty",
      'phases[0].id: must start with a lowercase letter, then lowercase letters, digits, "_" or "-"',
      "phases[2].checkpoint.options[0].with_feedback: Invalid input: expected boolean, received string",
      'phases[2].checkpoint.options[0].on_select.action: unknown action "jump"',
      "extra: unknown key",
      'phases[2].id: duplicate phase id "ok" (also phases[1])',
      "phases[1].checkpoint: approval_required cannot be combined with prompt",
      "phases[2].checkpoint.condition: cannot parse: Expected expression after > at character 11",
      'phases[2].checkpoint.prompt: unknown variable "missing"',
      'phases[2].checkpoint.options[1].label: duplicate label "A"',
      'phases[2].checkpoint.options[1].on_select.phases[0]: unknown phase "ghost"',
    ]);
  });

  it("requires prompt and options for a custom checkpoint", () => {
    expect(errorsOf("name: t\nphases:\n  - { id: a, checkpoint: { condition: 'context.x' } }\n")).toEqual([
      "phases[0].checkpoint.prompt: is required (or set approval_required: true)",
      "phases[0].checkpoint.options: is required (or set approval_required: true)",
    ]);
  });

  it("rejects bad YAML, a non-mapping, missing fields, unknown keys and reserved keys", () => {
    expect(errorsOf("name: [unclosed")[0]).toMatch(/^yaml: /);
    expect(errorsOf("name: a\nname: b\nphases: []")[0]).toMatch(/^yaml: .*[Mm]ap keys must be unique/);
    expect(errorsOf("- a\n- b\n")).toEqual(["workflow: must be a YAML mapping"]);
    expect(errorsOf("description: x\n")).toEqual(["name: is required", "phases: is required"]);
    expect(errorsOf("name: t\nphases: []\n")).toEqual(["phases: must list at least one phase"]);
    expect(
      errorsOf("name: t\nphases:\n  - { id: a, checkpoint: { approval_required: true, with_feedbak: true } }\n"),
    ).toEqual(["phases[0].checkpoint.with_feedbak: unknown key"]);
    expect(
      errorsOf("name: t\nvariables:\n  __proto__: { polluted: 1 }\n  constructor: 1\nphases: [{ id: a }]\n"),
    ).toEqual(["variables.__proto__: is a reserved key", "variables.constructor: is a reserved key"]);
    expect({} as Record<string, unknown>).not.toHaveProperty("polluted");
  });

  it("bounds the definition size and YAML aliases", () => {
    expect(errorsOf(`name: t\ndescription: "${"x".repeat(1_000_001)}"\nphases: [{ id: a }]\n`)[0]).toMatch(
      /the limit is 1000000/,
    );
    const bomb = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++)
      bomb.push(
        `${"abcdefghij"[i]}: &${"abcdefghij"[i]} [${Array(9)
          .fill(`*${"abcdefghij"[i - 1]}`)
          .join(", ")}]`,
      );
    expect(errorsOf(`${bomb.join("\n")}\nname: t\nphases: [{ id: a }]\n`)[0]).toMatch(/^yaml: .*[Aa]lias/);
  });

  it("loadWorkflowOrThrow throws INVALID_DEFINITION with every issue", () => {
    try {
      loadWorkflowOrThrow("name: t\nphases: [{ id: A }, { id: b, run: 1 }]\n");
      throw new Error("expected a throw");
    } catch (error) {
      expect(error).toBeInstanceOf(CheckpointError);
      expect((error as CheckpointError).code).toBe("INVALID_DEFINITION");
      expect((error as CheckpointError).issues).toHaveLength(2);
    }
  });
});
