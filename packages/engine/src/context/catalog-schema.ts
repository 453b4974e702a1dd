// The procedure catalog's shape (zod) and the rules that need a whole system: unique ids, known
// `next` targets that only point forward (so no procedure can loop), one evidence key per step,
// branches that require a finding an earlier step can record. Format guide: CATALOG.md.

import { z } from "zod";
import { normalisePhrase } from "./text";
import { phrase } from "./vocabulary";

/** A pattern as matching sees it (folded, yes / no canonical): two patterns that read the same collide. */
const patternKey = (text: string) => phrase(text).join(" ");

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

const ZAnswer = z.strictObject({
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
  /** The part works as it should: "good", "fine", "checks out" about the step's part mean this answer. */
  normal: z.boolean().optional(),
});

/**
 * Numeric readings a step accepts ("12.6 V"): the unit (a key of the language packs' `units`)
 * and ranges in increasing order; a reading takes the first range it is `below`, the last range
 * (no `below`) takes the rest. With `of_rating`, a reading counts only beside the rating the
 * technician states ("38 on a 45 rated cap"), and the ranges are shares of that rating (0.94 = 94 %).
 * A reading above `at_most` is of something else ("110 deg on this roof" is the weather, not the
 * supply-to-return split). With `pair`, two numbers the message names by a `from` word and a `to`
 * word read as their difference ("return 80 supply 71" is a split of 9).
 */
const ZReadings = z.strictObject({
  unit: z.string().regex(/^[A-Z]+$/, { error: 'must be a unit of the language packs, e.g. "V"' }),
  of_rating: z.boolean().optional(),
  at_most: z.number().finite().optional(),
  pair: z.strictObject({ from: z.array(ZText).min(1), to: z.array(ZText).min(1) }).optional(),
  ranges: z
    .array(z.strictObject({ answer: ZId, below: z.number().finite().optional() }))
    .min(1, { error: "must list at least one range" }),
});

const ZStep = z.strictObject({
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
  /** How a technician names what this step examines ("fuse", "fuse panel"): questions about a part are answered for its step. */
  parts: z.array(ZPhrase).optional(),
  readings: ZReadings.optional(),
});

const ZConstraint = z.strictObject({
  id: ZId,
  text: ZText,
  /** Carried by every directive of the system, not only by the steps that list it. */
  always: z.boolean().optional(),
});

/** Words that mean danger: the case stops in `safety_stop` with the instruction until a clear phrase. */
const ZSafetyRule = z.strictObject({
  id: ZId,
  instruction: ZText,
  patterns: z.array(ZPhrase).min(1, { error: "must list at least one pattern" }),
  clear_patterns: z.array(ZPhrase).min(1, { error: "must list at least one pattern" }),
});

/** Free-form evidence that invalidates a conclusion: the case stops with this cause and correction. */
const ZEvidenceRule = z.strictObject({
  id: ZId,
  label: ZText,
  patterns: z.array(ZPhrase).min(1, { error: "must list at least one pattern" }),
  cause: ZText,
  correction: ZText,
  /** A warranty constraint this evidence engages: the escalation is then a warranty escalation. */
  constraint: ZId.optional(),
});

/**
 * A rule of the trade the engine enforces and the report cites: once `when` is recorded, the
 * diagnosis never concludes on a finding in `rules_out`; it concludes on `instead` (e.g. a motor
 * that runs on direct 12 V is not replaced, whatever the steps after it found).
 */
const ZDoctrine = z.strictObject({
  id: ZId,
  rule: ZText,
  when: ZFinding,
  rules_out: z.array(ZFinding).min(1, { error: "must list at least one finding" }),
  instead: ZFinding,
});

const ZExample = z.strictObject({
  text: z.string().trim().min(1, { error: "must not be empty" }).max(4000),
  records: z.array(z.strictObject({ step: ZId, answer: ZId })),
});

const ZSystem = z.strictObject({
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
  safety_rules: z.array(ZSafetyRule).optional(),
  evidence_rules: z.array(ZEvidenceRule).optional(),
  doctrine: z.array(ZDoctrine).optional(),
  /**
   * Technicians' messages, each with the step answers it states ([] for one that states none):
   * what the learned reader is trained on (docs/procedure-mode.md, "The learned reader").
   */
  examples: z.array(ZExample).optional(),
});

// ---- translations: the catalog's texts in another language, keyed by the catalog's ids ----------

const ZPhrases = z.array(ZPhrase);
const ZAnswerText = z.strictObject({
  label: z.string().min(1).max(200).optional(),
  patterns: ZPhrases.optional(),
  cause: ZText.optional(),
  correction: ZText.optional(),
});
const ZStepText = z.strictObject({
  question: ZText.optional(),
  howto: ZText.optional(),
  locate: ZText.optional(),
  explain: ZText.optional(),
  parts: ZPhrases.optional(),
  answers: z.record(ZId, ZAnswerText).optional(),
});
const ZSystemText = z.strictObject({
  name: ZText.optional(),
  procedure_title: ZText.optional(),
  detect: z.strictObject({ keywords: ZPhrases.optional(), phrases: ZPhrases.optional() }).optional(),
  constraints: z.record(ZId, ZText).optional(),
  safety_rules: z
    .record(
      ZId,
      z.strictObject({
        instruction: ZText.optional(),
        patterns: ZPhrases.optional(),
        clear_patterns: ZPhrases.optional(),
      }),
    )
    .optional(),
  evidence_rules: z
    .record(
      ZId,
      z.strictObject({
        label: ZText.optional(),
        cause: ZText.optional(),
        correction: ZText.optional(),
        patterns: ZPhrases.optional(),
      }),
    )
    .optional(),
  doctrine: z.record(ZId, z.strictObject({ rule: ZText })).optional(),
  steps: z.record(ZId, ZStepText).optional(),
});
/** One language's texts and patterns for the catalog (rv-service.es.json is one). */
const ZTranslation = z.strictObject({
  language: z.string().regex(/^[a-z]{2}$/, { error: 'must be a two-letter language code, e.g. "es"' }),
  systems: z.record(ZId, ZSystemText),
});
export type TTranslation = z.output<typeof ZTranslation>;

export type TAnswer = z.output<typeof ZAnswer>;
export type TStep = z.output<typeof ZStep>;
export type TConstraint = z.output<typeof ZConstraint>;
export type TSystem = z.output<typeof ZSystem>;
export type TSafetyRule = z.output<typeof ZSafetyRule>;
export type TEvidenceRule = z.output<typeof ZEvidenceRule>;

/**
 * A system's constraints as prompt lines ("Safety: …", "Warranty: …"), safety first, catalog
 * order. With a step: the `always` ones plus those the step lists; without one: all of them.
 */
export function constraintLinesOf(system: TSystem, step: Pick<TStep, "constraints"> | null): string[] {
  const listed = new Set(step?.constraints ?? []);
  const applies = (c: TConstraint) => step === null || c.always === true || listed.has(c.id);
  return [
    ...system.constraints.safety.filter(applies).map((c) => `Safety: ${c.text}`),
    ...system.constraints.warranty.filter(applies).map((c) => `Warranty: ${c.text}`),
  ];
}

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
  if (step.answers.filter((a) => a.normal === true).length > 1)
    add(["answers"], "at most one answer of a step is `normal`");
  for (const f of duplicates(step.answers.map((a) => a.finding)))
    add(["answers"], `duplicate finding ${JSON.stringify(f)}`);
  const keys = new Set(step.answers.map((a) => findingKey(a.finding)));
  if (keys.size > 1)
    add(["answers"], `all answers of a step record the same evidence key (found ${[...keys].join(", ")})`);
  // Patterns are compared as matching reads them (stems, yes / no folded): "calls" and "calling"
  // in two answers of a step would collide. The message names the pattern as written.
  const shown = new Map<string, string>();
  const patterns = step.answers.flatMap((a) => [
    ...new Set(
      a.patterns.map((p) => {
        const key = patternKey(p);
        if (!shown.has(key)) shown.set(key, normalisePhrase(p));
        return key;
      }),
    ),
  ]);
  for (const p of duplicates(patterns))
    add(["answers"], `pattern ${JSON.stringify(shown.get(p) ?? p)} belongs to more than one answer`);
  // An offered option repeated word for word is that answer (intent.ts), so labels must differ.
  for (const l of duplicates(step.answers.map((a) => normalisePhrase(a.label ?? a.id))))
    add(["answers"], `two answers are offered as ${JSON.stringify(l)}: labels must differ`);
  step.answers.forEach((answer, a) => {
    const problem = checkNext(answer.next, index, order);
    if (problem) add(["answers", a, "next"], problem);
  });
  const problem = checkNext(step.default_next, index, order);
  if (problem) add(["default_next"], problem);
  if (step.readings) {
    const ids = new Set(step.answers.map((a) => a.id));
    const ranges = step.readings.ranges;
    ranges.forEach((range, r) => {
      if (!ids.has(range.answer))
        add(["readings", "ranges", r, "answer"], `unknown answer id ${JSON.stringify(range.answer)}`);
      const last = r === ranges.length - 1;
      if (last && range.below !== undefined)
        add(["readings", "ranges", r, "below"], "the last range takes every larger reading: leave out `below`");
      if (!last && range.below === undefined)
        add(["readings", "ranges", r, "below"], "is required except on the last range");
      const previous = ranges[r - 1]?.below;
      if (previous !== undefined && range.below !== undefined && range.below <= previous)
        add(["readings", "ranges", r, "below"], "ranges must be in increasing order");
    });
  }
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
  const warranty = new Set(system.constraints.warranty.map((c) => c.id));
  const ruleIds = [...(system.safety_rules ?? []), ...(system.evidence_rules ?? [])].map((r) => r.id);
  for (const id of duplicates(ruleIds))
    issues.push({ path: [], message: `duplicate safety / evidence rule id ${JSON.stringify(id)}` });
  (system.evidence_rules ?? []).forEach((rule, r) => {
    if (rule.constraint !== undefined && !warranty.has(rule.constraint))
      issues.push({
        path: ["evidence_rules", r, "constraint"],
        message: `unknown warranty constraint id ${JSON.stringify(rule.constraint)}`,
      });
  });
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
  for (const id of duplicates((system.doctrine ?? []).map((d) => d.id)))
    issues.push({ path: ["doctrine"], message: `duplicate doctrine id ${JSON.stringify(id)}` });
  (system.doctrine ?? []).forEach((doctrine, d) => {
    const named: [string, (string | number)[]][] = [
      [doctrine.when, ["when"]],
      ...doctrine.rules_out.map((finding, f): [string, (string | number)[]] => [finding, ["rules_out", f]]),
      [doctrine.instead, ["instead"]],
    ];
    for (const [finding, path] of named)
      if (!earlier.has(finding))
        issues.push({ path: ["doctrine", d, ...path], message: `no step records ${JSON.stringify(finding)}` });
    if (steps.some((s) => s.answers.some((a) => a.finding === doctrine.instead && (!a.cause || !a.correction))))
      issues.push({ path: ["doctrine", d, "instead"], message: "must be a finding with a cause and correction" });
  });
  (system.examples ?? []).forEach((example, e) => {
    example.records.forEach(({ step, answer }, r) => {
      const at = ["examples", e, "records", r];
      const named = steps.find((s) => s.id === step);
      if (named === undefined)
        issues.push({ path: [...at, "step"], message: `unknown step id ${JSON.stringify(step)}` });
      else if (!named.answers.some((a) => a.id === answer))
        issues.push({
          path: [...at, "answer"],
          message: `step ${JSON.stringify(step)} has no answer ${JSON.stringify(answer)}`,
        });
    });
  });
  return issues;
}

/** Every id a translation names must exist in the catalog, and its patterns must not make two answers of a step share one. */
function translationIssues(systems: readonly TSystem[], translation: TTranslation): TIssue[] {
  const issues: TIssue[] = [];
  const unknown = (path: (string | number)[], kind: string, id: string) =>
    issues.push({ path, message: `unknown ${kind} id ${JSON.stringify(id)}` });
  for (const [systemId, text] of Object.entries(translation.systems)) {
    const system = systems.find((s) => s.id === systemId);
    const at = ["systems", systemId];
    if (system === undefined) {
      unknown(at, "system", systemId);
      continue;
    }
    const constraints = new Set([...system.constraints.safety, ...system.constraints.warranty].map((c) => c.id));
    for (const id of Object.keys(text.constraints ?? {}))
      if (!constraints.has(id)) unknown([...at, "constraints", id], "constraint", id);
    for (const id of Object.keys(text.safety_rules ?? {}))
      if (!(system.safety_rules ?? []).some((r) => r.id === id))
        unknown([...at, "safety_rules", id], "safety rule", id);
    for (const id of Object.keys(text.evidence_rules ?? {}))
      if (!(system.evidence_rules ?? []).some((r) => r.id === id))
        unknown([...at, "evidence_rules", id], "evidence rule", id);
    for (const [stepId, stepText] of Object.entries(text.steps ?? {})) {
      const step = system.procedure.steps.find((s) => s.id === stepId);
      if (step === undefined) {
        unknown([...at, "steps", stepId], "step", stepId);
        continue;
      }
      const owner = new Map<string, string>();
      for (const answer of step.answers) for (const p of answer.patterns) owner.set(patternKey(p), answer.id);
      for (const [answerId, answerText] of Object.entries(stepText.answers ?? {})) {
        if (!step.answers.some((a) => a.id === answerId)) {
          unknown([...at, "steps", stepId, "answers", answerId], "answer", answerId);
          continue;
        }
        for (const p of answerText.patterns ?? []) {
          const key = patternKey(p);
          const other = owner.get(key);
          if (other !== undefined && other !== answerId)
            issues.push({
              path: [...at, "steps", stepId, "answers", answerId, "patterns"],
              message: `pattern ${JSON.stringify(key)} already belongs to answer ${JSON.stringify(other)}`,
            });
          else owner.set(key, answerId);
        }
      }
    }
  }
  return issues;
}

export const ZCatalog = z
  .strictObject({
    id: ZId,
    title: ZText.optional(),
    systems: z.array(ZSystem).min(1, { error: "must list at least one system" }),
    /** The catalog in other languages: texts shown in them, patterns understood in every language. */
    translations: z.array(ZTranslation).optional(),
  })
  .superRefine((catalog, ctx) => {
    for (const id of duplicates(catalog.systems.map((s) => s.id)))
      ctx.addIssue({ code: "custom", path: ["systems"], message: `duplicate system id ${JSON.stringify(id)}` });
    catalog.systems.forEach((system, s) => {
      for (const issue of systemIssues(system))
        ctx.addIssue({ code: "custom", path: ["systems", s, ...issue.path], message: issue.message });
    });
    for (const id of duplicates((catalog.translations ?? []).map((t) => t.language)))
      ctx.addIssue({ code: "custom", path: ["translations"], message: `two translations for ${JSON.stringify(id)}` });
    (catalog.translations ?? []).forEach((translation, t) => {
      for (const issue of translationIssues(catalog.systems, translation))
        ctx.addIssue({ code: "custom", path: ["translations", t, ...issue.path], message: issue.message });
    });
  });

/** A validated procedure catalog. The engine trusts a catalog that went through parseCatalog. */
export type TCatalog = z.output<typeof ZCatalog>;

/** Validates a catalog (throws a ZodError listing every problem). */
export function parseCatalog(input: unknown): TCatalog {
  return ZCatalog.parse(input);
}
