// The catalog in the technician's language. Matching reads every language at once: a system's
// answers, parts, detect words and rules carry the patterns of all its translations (merged
// once per catalog). Texts the technician reads (questions, labels, causes, constraints) come
// from the translation for their language, falling back to the catalog's own text.

import { isNumber as isNumberToken } from "@solserver/text";
import type { TAnswer, TCatalog, TEvidenceRule, TSafetyRule, TStep, TSystem, TTranslation } from "./catalog-schema";
import { DEFAULT_LANGUAGE, LANGUAGE_PACKS, phrase } from "./vocabulary";

type TSystemText = TTranslation["systems"][string];

const merged = new WeakMap<TCatalog, Map<string, TSystem>>();
const localized = new WeakMap<TCatalog, Map<string, TSystem>>();

function union(base: readonly string[], more: readonly (readonly string[] | undefined)[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of [...base, ...more.flatMap((m) => m ?? [])]) {
    // "oil + coil" (a combination) is not the phrase "oil coil"
    const key = p
      .split("+")
      .map((part) => phrase(part).join(" "))
      .join(" + ");
    if (key === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}

function textsFor(catalog: TCatalog, systemId: string): TSystemText[] {
  return (catalog.translations ?? []).flatMap((t) =>
    Object.hasOwn(t.systems, systemId) ? [t.systems[systemId] as TSystemText] : [],
  );
}

const own = <V>(record: Readonly<Record<string, V>> | undefined, key: string): V | undefined =>
  record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;

/** The system with every language's patterns: what messages are matched against. */
export function matchingSystem(catalog: TCatalog, system: TSystem): TSystem {
  let bySystem = merged.get(catalog);
  if (bySystem === undefined) {
    bySystem = new Map();
    merged.set(catalog, bySystem);
  }
  const cached = bySystem.get(system.id);
  if (cached !== undefined) return cached;
  const texts = textsFor(catalog, system.id);
  const stepText = (id: string) => texts.map((t) => own(t.steps, id));
  const result: TSystem = {
    ...system,
    detect: {
      keywords: union(
        system.detect.keywords,
        texts.map((t) => t.detect?.keywords),
      ),
      phrases: union(
        system.detect.phrases ?? [],
        texts.map((t) => t.detect?.phrases),
      ),
    },
    procedure: {
      ...system.procedure,
      steps: system.procedure.steps.map(
        (step): TStep => ({
          ...step,
          parts: union(
            step.parts ?? [],
            stepText(step.id).map((t) => t?.parts),
          ),
          answers: step.answers.map(
            (answer): TAnswer => ({
              ...answer,
              patterns: union(
                answer.patterns,
                stepText(step.id).map((t) => own(t?.answers, answer.id)?.patterns),
              ),
            }),
          ),
        }),
      ),
    },
    safety_rules: (system.safety_rules ?? []).map(
      (rule): TSafetyRule => ({
        ...rule,
        patterns: union(
          rule.patterns,
          texts.map((t) => own(t.safety_rules, rule.id)?.patterns),
        ),
        clear_patterns: union(
          rule.clear_patterns,
          texts.map((t) => own(t.safety_rules, rule.id)?.clear_patterns),
        ),
      }),
    ),
    evidence_rules: (system.evidence_rules ?? []).map(
      (rule): TEvidenceRule => ({
        ...rule,
        patterns: union(
          rule.patterns,
          texts.map((t) => own(t.evidence_rules, rule.id)?.patterns),
        ),
      }),
    ),
  };
  bySystem.set(system.id, result);
  return result;
}

/** The languages a catalog speaks: its own (English) and each translation that has a language pack. */
export function catalogLanguages(catalog: TCatalog): string[] {
  return [
    DEFAULT_LANGUAGE,
    ...(catalog.translations ?? [])
      .map((t) => t.language)
      .filter((l) => l !== DEFAULT_LANGUAGE && LANGUAGE_PACKS.has(l)),
  ];
}

/** The system's texts in `language`: same ids and flow, each text translated where the catalog has it. */
export function localSystem(catalog: TCatalog, system: TSystem, language: string): TSystem {
  if (language === DEFAULT_LANGUAGE) return system;
  const t = (catalog.translations ?? []).find((tr) => tr.language === language);
  const text = t === undefined ? undefined : own(t.systems, system.id);
  if (text === undefined) return system;
  const key = `${language}:${system.id}`;
  let cache = localized.get(catalog);
  if (cache === undefined) {
    cache = new Map();
    localized.set(catalog, cache);
  }
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const constraint = <C extends { id: string; text: string }>(c: C): C => ({
    ...c,
    text: own(text.constraints, c.id) ?? c.text,
  });
  const result: TSystem = {
    ...system,
    name: text.name ?? system.name,
    procedure: {
      ...system.procedure,
      title: text.procedure_title ?? system.procedure.title,
      steps: system.procedure.steps.map((step): TStep => {
        const s = own(text.steps, step.id);
        return {
          ...step,
          question: s?.question ?? step.question,
          howto: s?.howto ?? step.howto,
          ...(step.locate === undefined ? {} : { locate: s?.locate ?? step.locate }),
          ...(step.explain === undefined ? {} : { explain: s?.explain ?? step.explain }),
          answers: step.answers.map((answer): TAnswer => {
            const a = own(s?.answers, answer.id);
            return {
              ...answer,
              label: a?.label ?? answer.label ?? answer.id,
              ...(answer.cause === undefined ? {} : { cause: a?.cause ?? answer.cause }),
              ...(answer.correction === undefined ? {} : { correction: a?.correction ?? answer.correction }),
            };
          }),
        };
      }),
    },
    constraints: {
      safety: system.constraints.safety.map(constraint),
      warranty: system.constraints.warranty.map(constraint),
    },
    safety_rules: (system.safety_rules ?? []).map((rule) => ({
      ...rule,
      instruction: own(text.safety_rules, rule.id)?.instruction ?? rule.instruction,
    })),
    ...(system.doctrine === undefined
      ? {}
      : { doctrine: system.doctrine.map((d) => ({ ...d, rule: own(text.doctrine, d.id)?.rule ?? d.rule })) }),
    evidence_rules: (system.evidence_rules ?? []).map((rule) => {
      const r = own(text.evidence_rules, rule.id);
      return {
        ...rule,
        label: r?.label ?? rule.label,
        cause: r?.cause ?? rule.cause,
        correction: r?.correction ?? rule.correction,
      };
    }),
  };
  cache.set(key, result);
  return result;
}

const detectWords = new WeakMap<TCatalog, Map<string, Set<string>>>();

/** Per language: words of the catalog's translation that no other language of it uses (detection hints). */
export function catalogDetectWords(catalog: TCatalog): Map<string, Set<string>> {
  const cached = detectWords.get(catalog);
  if (cached !== undefined) return cached;
  const words = new Map<string, Set<string>>();
  const add = (language: string, texts: readonly string[]) => {
    const set = words.get(language) ?? new Set<string>();
    for (const t of texts) for (const token of phrase(t)) set.add(token);
    words.set(language, set);
  };
  const ruleWords = (rules: readonly { patterns?: readonly string[]; clear_patterns?: readonly string[] }[]) =>
    rules.flatMap((r) => [...(r.patterns ?? []), ...(r.clear_patterns ?? [])]).flatMap((p) => p.split("+"));
  for (const system of catalog.systems) {
    add(DEFAULT_LANGUAGE, [
      ...system.detect.keywords,
      ...(system.detect.phrases ?? []),
      ...system.procedure.steps.flatMap((s) => [...(s.parts ?? []), ...s.answers.flatMap((a) => a.patterns)]),
      ...ruleWords([...(system.safety_rules ?? []), ...(system.evidence_rules ?? [])]),
    ]);
  }
  for (const t of catalog.translations ?? [])
    for (const text of Object.values(t.systems))
      add(t.language, [
        ...(text.detect?.keywords ?? []),
        ...(text.detect?.phrases ?? []),
        ...Object.values(text.steps ?? {}).flatMap((s) => [
          ...(s.parts ?? []),
          ...Object.values(s.answers ?? {}).flatMap((a) => a.patterns ?? []),
        ]),
        ...ruleWords([...Object.values(text.safety_rules ?? {}), ...Object.values(text.evidence_rules ?? {})]),
      ]);
  const count = new Map<string, number>();
  for (const set of words.values()) for (const w of set) count.set(w, (count.get(w) ?? 0) + 1);
  for (const set of words.values())
    for (const w of [...set]) if ((count.get(w) ?? 0) > 1 || isNumberToken(w)) set.delete(w);
  detectWords.set(catalog, words);
  return words;
}
