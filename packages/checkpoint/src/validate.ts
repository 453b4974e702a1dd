// Whole-definition rules, checked on the raw parsed YAML so they run even when zod also found
// shape problems: every issue in one pass. Values of the wrong type are left to zod.

import { assigneesIssues } from "./assignees";
import { compileCondition } from "./condition/compile";
import { runIssues } from "./executor-rules";
import { APPROVAL_OPTIONS } from "./flow";
import { addIssue as add, type TIssues, type TPath, templateIssue } from "./issues";
import { notifyIssues } from "./notify";
import { BLOCKED_KEYS, isPlainArray, isPlainObject } from "./plain-data";
import { rawLabels, timeoutIssues } from "./timeouts";

export { formatPath, type TPath, type TWorkflowIssue } from "./issues";

const APPROVAL_LABELS = APPROVAL_OPTIONS.map((option) => option.label);

/** Keys that would reach a prototype (`__proto__`, `constructor`, `prototype`), anywhere. */
export function blockedKeyIssues(value: unknown, path: TPath = [], issues: TIssues = [], depth = 0): TIssues {
  if (depth > 64) return issues;
  if (isPlainArray(value)) {
    value.forEach((item, i) => {
      blockedKeyIssues(item, [...path, i], issues, depth + 1);
    });
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      if (BLOCKED_KEYS.has(key)) add(issues, [...path, key], "is a reserved key");
      else blockedKeyIssues(value[key], [...path, key], issues, depth + 1);
    }
  }
  return issues;
}

export function semanticIssues(raw: Record<string, unknown>): TIssues {
  const issues: TIssues = [];
  const variables = isPlainObject(raw.variables) ? raw.variables : {};
  const phases = isPlainArray(raw.phases) ? raw.phases : [];
  const ids = phases.map((phase) => (isPlainObject(phase) && typeof phase.id === "string" ? phase.id : undefined));
  ids.forEach((id, i) => {
    const first = ids.indexOf(id);
    if (id !== undefined && first !== i)
      add(issues, ["phases", i, "id"], `duplicate phase id "${id}" (also phases[${first}])`);
  });
  phases.forEach((phase, i) => {
    if (!isPlainObject(phase)) return;
    const at: TPath = ["phases", i];
    runIssues(issues, [...at, "run"], phase.run, variables);
    if (isPlainObject(phase.gap_check)) condition(issues, [...at, "gap_check", "condition"], phase.gap_check.condition);
    if (isPlainObject(phase.checkpoint))
      checkpoint(issues, [...at, "checkpoint"], phase.checkpoint, { ids, index: i, variables });
  });
  notifyIssues(issues, ["notify"], raw.notify);
  return issues;
}

type TScope = { ids: (string | undefined)[]; index: number; variables: Record<string, unknown> };

function checkpoint(issues: TIssues, at: TPath, cp: Record<string, unknown>, scope: TScope): void {
  const custom = ["condition", "prompt", "show_files", "options"].filter((key) => cp[key] !== undefined);
  assigneesIssues(issues, [...at, "assignees"], cp.assignees);
  if (cp.approval_required === true) {
    if (custom.length > 0) add(issues, at, `approval_required cannot be combined with ${custom.join(", ")}`);
    timeoutIssues(issues, [...at, "timeout"], cp.timeout, APPROVAL_LABELS);
    return;
  }
  if (custom.length === 0 && cp.approval_required === false) {
    // approval_required: false switches the checkpoint off; who decides it, and when, means nothing.
    for (const key of ["assignees", "timeout"]) {
      if (cp[key] !== undefined) add(issues, [...at, key], "applies to no checkpoint: approval_required is false");
    }
    return;
  }
  timeoutIssues(issues, [...at, "timeout"], cp.timeout, rawLabels(cp.options));
  if (cp.prompt === undefined) add(issues, [...at, "prompt"], "is required (or set approval_required: true)");
  if (cp.options === undefined) add(issues, [...at, "options"], "is required (or set approval_required: true)");
  condition(issues, [...at, "condition"], cp.condition);
  templateIssue(issues, [...at, "prompt"], cp.prompt, scope.variables);
  if (isPlainArray(cp.show_files)) {
    cp.show_files.forEach((file, k) => {
      templateIssue(issues, [...at, "show_files", k], file, scope.variables);
    });
  }
  if (!isPlainArray(cp.options)) return;
  const labels: unknown[] = [];
  cp.options.forEach((option, k) => {
    if (!isPlainObject(option)) return;
    const label = option.label;
    if (typeof label === "string" && labels.includes(label))
      add(issues, [...at, "options", k, "label"], `duplicate label "${label}"`);
    labels.push(label);
    if (isPlainObject(option.on_select)) onSelect(issues, [...at, "options", k, "on_select"], option.on_select, scope);
  });
}

function onSelect(issues: TIssues, at: TPath, select: Record<string, unknown>, scope: TScope): void {
  const { action, target, phases } = select;
  if (action === "repeat_phase") {
    if (target === undefined) add(issues, [...at, "target"], 'repeat_phase needs a target: "current" or a phase id');
    else if (typeof target === "string" && target !== "current") {
      const index = scope.ids.indexOf(target);
      if (index < 0) add(issues, [...at, "target"], `unknown phase "${target}"`);
      else if (index > scope.index)
        add(issues, [...at, "target"], `"${target}" comes after this phase; repeat_phase only goes back`);
    }
  } else if (target !== undefined) add(issues, [...at, "target"], "only repeat_phase takes a target");
  if (action === "skip_phases") {
    if (phases === undefined) add(issues, [...at, "phases"], "skip_phases needs the phases to skip");
    else if (isPlainArray(phases)) {
      phases.forEach((id, k) => {
        if (typeof id === "string" && !scope.ids.includes(id))
          add(issues, [...at, "phases", k], `unknown phase "${id}"`);
      });
    }
  } else if (phases !== undefined) add(issues, [...at, "phases"], "only skip_phases takes phases");
}

function condition(issues: TIssues, at: TPath, source: unknown): void {
  if (typeof source !== "string") return;
  const compiled = compileCondition(source);
  if (!compiled.ok) add(issues, at, compiled.error.message, compiled.error.position);
}
