// The procedure catalog's shape (zod) and the rules that need a whole system: unique ids, known
// `next` targets that only point forward (so no procedure can loop), one evidence key per step,
// branches that require a finding an earlier step can record. Format guide: CATALOG.md.

import { z } from "zod";
import { normalisePhrase } from "./text";

/** Ids: a lowercase letter, then lowercase letters, digits or "_" (never "__proto__" and kin). */
export const CATALOG_ID_PATTERN = /^[a-z][a-z0-9_]*$/;
/** A finding is "key=value": the step's evidence key and what was observed. */
export const FINDING_PATTERN = /^[a-z][a-z0-9_]*=[a-z0-9][a-z0-9_.-]*$/;
/** The `next` value that ends the procedure: the engine asks for repair authorization. */
export const REPORT = "report";
export const DEFAULT_STEP_MINUTES = 10;

const ZId = z.string().regex(CATALOG_ID_PATTERN, {
  error: 'must start with a lowercase letter, then lowercase letters, digits or "_"',
});
const ZFinding = z.string().regex(FINDING_PATTERN, { error: 'must be "key=value" (e.g. "pump_runs=no")' });
const ZText = z.string().trim().min(1, { error: "must not be empty" }).max(2000);
const ZPhrase = z
  .string()
  .max(200)
  .refine((p) => normalisePhrase(p) !== "", { error: "must contain at least one letter or digit" });

export const ZAnswer = z.strictObject({
  id: ZId,
  /** How the option is offered to the technician ("Fuse blown / breaker tripped"); defaults to the id. */
  label: z.string().min(1).max(200).optional(),
  /** Words or phrases that mean this answer, matched on word boundaries after normalisation. */
  patterns: z.array(ZPhrase).min(1, { error: "must list at least one pattern" }),
  finding: ZFinding,
  /** A later step id or "report"; absent: the step's default_next, else the next step that applies. */
  next: z.string().optional(),
  /** Why the fault happened, for the report when this answer ends the diagnosis. */
  cause: ZText.optional(),
  /** The repair, for the report when this answer ends the diagnosis. */
  correction: ZText.optional(),
  /** "warranty": continuing is not allowed under warranty; the engine escalates and stops. */
  escalate: z.literal("warranty").optional(),
});

export const ZStep = z.strictObject({
  id: ZId,
  question: ZText,
  howto: ZText,
  locate: ZText.optional(),
  explain: ZText.optional(),
  /** Draft labor for the step (default 10). */
  minutes: z.int().min(0).max(480).optional(),
  /** Ids of the system's constraints that apply while this step is asked. */
  constraints: z.array(ZId).optional(),
  /** A branch: the step applies only when this finding is recorded. */
  requires: z.strictObject({ finding: ZFinding }).optional(),
  answers: z.array(ZAnswer).min(1, { error: "must offer at least one answer" }),
  default_next: z.string().optional(),
});

export const ZConstraint = z.strictObject({
  id: ZId,
  text: ZText,
  /** Carried by every directive of the system, not only by the steps that list it. */
  always: z.boolean().optional(),
});

export const ZSystem = z.strictObject({
  id: ZId,
  name: ZText,
  detect: z.strictObject({
    /** One point each when present in the first message. */
    keywords: z.array(ZPhrase).min(1, { error: "must list at least one keyword" }),
    /** Two points each. */
    phrases: z.array(ZPhrase).optional(),
  }),
  procedure: z.strictObject({
    id: ZId,
    title: ZText,
    steps: z.array(ZStep).min(1, { error: "empty procedure: must list at least one step" }),
  }),
  constraints: z.strictObject({ safety: z.array(ZConstraint), warranty: z.array(ZConstraint) }),
});

export type TAnswer = z.output<typeof ZAnswer>;
export type TStep = z.output<typeof ZStep>;
export type TConstraint = z.output<typeof ZConstraint>;
export type TSystem = z.output<typeof ZSystem>;

/** The evidence key of a finding ("pump_runs=no" → "pump_runs"). */
export function findingKey(finding: string): string {
  const eq = finding.indexOf("=");
  return eq < 0 ? finding : finding.slice(0, eq);
}

/** The observed value of a finding ("pump_runs=no" → "no"). */
export function findingValue(finding: string): string {
  const eq = finding.indexOf("=");
  return eq < 0 ? "" : finding.slice(eq + 1);
}

type TIssue = { path: (string | number)[]; message: string };

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const v of values) (seen.has(v) ? twice : seen).add(v);
  return [...twice];
}

function checkNext(target: string | undefined, index: number, order: ReadonlyMap<string, number>): string | null {
  if (target === undefined || target === REPORT) return null;
  const at = order.get(target);
  if (at === undefined) return `unknown step id ${JSON.stringify(target)} (use a step id or "report")`;
  if (at <= index)
    return `must point forward to a later step or "report" (${JSON.stringify(target)} is not after this step)`;
  return null;
}

function stepIssues(step: TStep, index: number, order: ReadonlyMap<string, number>, earlier: ReadonlySet<string>) {
  const issues: TIssue[] = [];
  const add = (path: (string | number)[], message: string) => issues.push({ path, message });
  for (const id of duplicates(step.answers.map((a) => a.id)))
    add(["answers"], `duplicate answer id ${JSON.stringify(id)}`);
  for (const f of duplicates(step.answers.map((a) => a.finding)))
    add(["answers"], `duplicate finding ${JSON.stringify(f)}`);
  const keys = new Set(step.answers.map((a) => findingKey(a.finding)));
  if (keys.size > 1)
    add(["answers"], `all answers of a step record the same evidence key (found ${[...keys].join(", ")})`);
  const patterns = step.answers.flatMap((a) => a.patterns.map(normalisePhrase));
  for (const p of duplicates(patterns))
    add(["answers"], `pattern ${JSON.stringify(p)} belongs to more than one answer`);
  // An offered option repeated word for word is that answer (intent.ts), so labels must differ.
  for (const l of duplicates(step.answers.map((a) => normalisePhrase(a.label ?? a.id))))
    add(["answers"], `two answers are offered as ${JSON.stringify(l)}: labels must differ`);
  step.answers.forEach((answer, a) => {
    const problem = checkNext(answer.next, index, order);
    if (problem) add(["answers", a, "next"], problem);
  });
  const problem = checkNext(step.default_next, index, order);
  if (problem) add(["default_next"], problem);
  if (step.requires && !earlier.has(step.requires.finding))
    add(["requires", "finding"], `no earlier step records ${JSON.stringify(step.requires.finding)}`);
  return issues;
}

function systemIssues(system: TSystem): TIssue[] {
  const issues: TIssue[] = [];
  const steps = system.procedure.steps;
  const order = new Map(steps.map((step, i) => [step.id, i] as const));
  for (const id of duplicates(steps.map((s) => s.id)))
    issues.push({ path: ["procedure", "steps"], message: `duplicate step id ${JSON.stringify(id)}` });
  const stepKeys = steps.map((s) => findingKey(s.answers[0]?.finding ?? ""));
  for (const key of duplicates(stepKeys))
    issues.push({ path: ["procedure", "steps"], message: `evidence key ${JSON.stringify(key)} is used by two steps` });
  const constraintIds = [...system.constraints.safety, ...system.constraints.warranty].map((c) => c.id);
  for (const id of duplicates(constraintIds))
    issues.push({ path: ["constraints"], message: `duplicate constraint id ${JSON.stringify(id)}` });
  const known = new Set(constraintIds);
  const earlier = new Set<string>();
  steps.forEach((step, i) => {
    const at = ["procedure", "steps", i];
    if (step.id === REPORT)
      issues.push({ path: [...at, "id"], message: `"${REPORT}" is reserved for the end of a procedure` });
    for (const issue of stepIssues(step, i, order, earlier))
      issues.push({ path: [...at, ...issue.path], message: issue.message });
    (step.constraints ?? []).forEach((id, c) => {
      if (!known.has(id))
        issues.push({ path: [...at, "constraints", c], message: `unknown constraint id ${JSON.stringify(id)}` });
    });
    for (const answer of step.answers) earlier.add(answer.finding);
  });
  return issues;
}

export const ZCatalog = z
  .strictObject({
    id: ZId,
    title: ZText.optional(),
    systems: z.array(ZSystem).min(1, { error: "must list at least one system" }),
  })
  .superRefine((catalog, ctx) => {
    for (const id of duplicates(catalog.systems.map((s) => s.id)))
      ctx.addIssue({ code: "custom", path: ["systems"], message: `duplicate system id ${JSON.stringify(id)}` });
    catalog.systems.forEach((system, s) => {
      for (const issue of systemIssues(system))
        ctx.addIssue({ code: "custom", path: ["systems", s, ...issue.path], message: issue.message });
    });
  });

/** A validated procedure catalog. The engine trusts a catalog that went through parseCatalog. */
export type TCatalog = z.output<typeof ZCatalog>;

/** Validates a catalog (throws a ZodError listing every problem). */
export function parseCatalog(input: unknown): TCatalog {
  return ZCatalog.parse(input);
}
