// Load-time rules for checkpoint assignees and timeouts: every problem, with its path.

import { describe, expect, it } from "vitest";
import { loadWorkflow, loadWorkflowOrThrow } from "../src";

function errorsOf(yaml: string): string[] {
  const result = loadWorkflow(yaml);
  if (result.ok) throw new Error("expected the definition to be rejected");
  return result.errors;
}

/** Phase 1 has a custom checkpoint (options Go / Redo / Stop) with `extra` keys added. */
function custom(extra: string): string {
  return `
name: t
phases:
  - { id: draft, run: s.draft }
  - id: review
    checkpoint:
      prompt: Ship it?
      options:
        - { label: Go, on_select: { action: continue } }
        - { label: Redo, on_select: { action: repeat_phase, target: draft } }
        - { label: Stop, with_feedback: true, on_select: { action: abort } }
${extra
  .split("\n")
  .map((line) => `      ${line}`)
  .join("\n")}
`;
}

function approval(extra: string): string {
  return `name: t\nphases:\n  - id: a\n    checkpoint:\n      approval_required: true\n${extra
    .split("\n")
    .map((line) => `      ${line}`)
    .join("\n")}\n`;
}

describe("checkpoint.assignees", () => {
  it("accepts a role or a list of accounts, on both forms of checkpoint", () => {
    expect(loadWorkflowOrThrow(approval("assignees: { role: jam }")).phases[0]?.checkpoint?.assignees).toEqual({
      role: "jam",
    });
    const accounts = loadWorkflowOrThrow(custom("assignees: { accounts: [a@x.example, b@x.example] }"));
    expect(accounts.phases[1]?.checkpoint?.assignees).toEqual({ accounts: ["a@x.example", "b@x.example"] });
  });

  it.each([
    [
      "both forms",
      "assignees: { role: jam, accounts: [a@x.example] }",
      ["phases[1].checkpoint.assignees: needs exactly one of role or accounts"],
    ],
    ["neither", "assignees: {}", ["phases[1].checkpoint.assignees: needs exactly one of role or accounts"]],
    [
      "an unknown role",
      "assignees: { role: admin }",
      ['phases[1].checkpoint.assignees.role: unknown role "admin"; roles: jam'],
    ],
    [
      "no accounts",
      "assignees: { accounts: [] }",
      ["phases[1].checkpoint.assignees.accounts: must list at least one account"],
    ],
    [
      "a bad email",
      "assignees: { accounts: [a@x.example, jam] }",
      ["phases[1].checkpoint.assignees.accounts[1]: must be an email address"],
    ],
    [
      "a duplicate account",
      "assignees: { accounts: [a@x.example, A@X.example] }",
      ['phases[1].checkpoint.assignees.accounts[1]: duplicate account "A@X.example"'],
    ],
    ["an unknown key", "assignees: { team: x, role: jam }", ["phases[1].checkpoint.assignees.team: unknown key"]],
  ])("rejects %s", (_name, extra, expected) => {
    expect(errorsOf(custom(extra))).toEqual(expected);
  });

  it("is refused on a checkpoint switched off", () => {
    expect(
      errorsOf("name: t\nphases:\n  - { id: a, checkpoint: { approval_required: false, assignees: { role: jam } } }\n"),
    ).toEqual(["phases[0].checkpoint.assignees: applies to no checkpoint: approval_required is false"]);
  });
});

describe("checkpoint.timeout", () => {
  it("takes an option or escalates; after is kept as written and in ms", () => {
    const option = loadWorkflowOrThrow(custom("timeout: { after: 2h, option: Stop }"));
    expect(option.phases[1]?.checkpoint?.timeout).toEqual({ after: "2h", after_ms: 7_200_000, option: "Stop" });
    const escalate = loadWorkflowOrThrow(
      approval("timeout: { after: 30m, escalate_to: { accounts: [boss@x.example] } }"),
    );
    expect(escalate.phases[0]?.checkpoint?.timeout).toEqual({
      after: "30m",
      after_ms: 1_800_000,
      escalate_to: { accounts: ["boss@x.example"] },
    });
    expect(
      loadWorkflowOrThrow(approval("timeout: { after: 1d, option: Abort }")).phases[0]?.checkpoint?.timeout,
    ).toEqual({
      after: "1d",
      after_ms: 86_400_000,
      option: "Abort",
    });
  });

  it.each([
    [
      "an unknown option",
      "timeout: { after: 1h, option: Ship }",
      ['phases[1].checkpoint.timeout.option: unknown option "Ship"; this checkpoint offers "Go", "Redo", "Stop"'],
    ],
    ["no after", "timeout: { option: Go }", ["phases[1].checkpoint.timeout.after: is required"]],
    [
      "a bad after",
      "timeout: { after: soon, option: Go }",
      [
        'phases[1].checkpoint.timeout.after: "soon" is not a duration: write a whole number and one unit (s, m, h, d), e.g. "10m"',
      ],
    ],
    [
      "an after out of range",
      "timeout: { after: 90d, option: Go }",
      ['phases[1].checkpoint.timeout.after: "90d" is out of range: from 1s to 30d'],
    ],
    [
      "neither action",
      "timeout: { after: 1h }",
      ["phases[1].checkpoint.timeout: needs exactly one of option or escalate_to"],
    ],
    [
      "both actions",
      "timeout: { after: 1h, option: Go, escalate_to: { role: jam } }",
      ["phases[1].checkpoint.timeout: needs exactly one of option or escalate_to"],
    ],
    [
      "a bad escalate_to",
      "timeout: { after: 1h, escalate_to: { role: jam, accounts: [a@x.example] } }",
      ["phases[1].checkpoint.timeout.escalate_to: needs exactly one of role or accounts"],
    ],
    [
      "an escalation to a bad account",
      "timeout: { after: 1h, escalate_to: { accounts: [nobody] } }",
      ["phases[1].checkpoint.timeout.escalate_to.accounts[0]: must be an email address"],
    ],
    [
      "an unknown key",
      "timeout: { after: 1h, option: Go, then: abort }",
      ["phases[1].checkpoint.timeout.then: unknown key"],
    ],
  ])("rejects %s", (_name, extra, expected) => {
    expect(errorsOf(custom(extra))).toEqual(expected);
  });

  it("an approval checkpoint offers Continue and Abort only", () => {
    expect(errorsOf(approval("timeout: { after: 1h, option: Go }"))).toEqual([
      'phases[0].checkpoint.timeout.option: unknown option "Go"; this checkpoint offers "Continue", "Abort"',
    ]);
  });

  it("with_feedback options may be taken by a timeout (without feedback)", () => {
    expect(loadWorkflow(custom("timeout: { after: 1h, option: Stop }")).ok).toBe(true);
  });

  it("lists timeout and assignee problems with the checkpoint's other problems", () => {
    const errors = errorsOf(`
name: t
phases:
  - id: a
    checkpoint:
      prompt: "{{missing}}"
      assignees: { role: root }
      timeout: { after: 5, option: Nope }
      options:
        - { label: Go, on_select: { action: jump } }
  - { id: b, checkpoint: { approval_required: false, timeout: { after: 1h, option: Continue } } }
`);
    expect(errors).toEqual([
      'phases[0].checkpoint.options[0].on_select.action: unknown action "jump"',
      'phases[0].checkpoint.assignees.role: unknown role "root"; roles: jam',
      'phases[0].checkpoint.timeout.after: must be a duration like "30s", "10m", "2h" or "1d"',
      'phases[0].checkpoint.timeout.option: unknown option "Nope"; this checkpoint offers "Go"',
      'phases[0].checkpoint.prompt: unknown variable "missing"',
      "phases[1].checkpoint.timeout: applies to no checkpoint: approval_required is false",
    ]);
  });
});
