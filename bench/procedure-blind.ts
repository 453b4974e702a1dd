// Procedure mode on technician conversations written blind to the engine (issue 36,
// packages/engine/catalogs/rv-service.conversations.json: sets of 48 conversations, each message
// labelled with what a service writer expects it to record). The tune split also teaches the
// learned reader, so its figure is no held-out one; each held-out set is scored on its own, once,
// before anyone reads it, beside the rules alone (the catalog without its examples) in the same
// run. Per group: the share of labelled turns that record exactly what was
// expected (nothing, for an announcement, a question, a command or small talk; the corrected
// step's new answer for a correction; a finding already on record counts as recorded), the
// invented findings (a finding the conversation says no report may hold, left in the report, or
// in what one built at the end would hold) and the missing ones.
// Prints the tune split's misses (--misses holdout for the held-out ones: only when tuning is
// done). Run: `pnpm bench:procedure-blind`. A report: it always exits 0.
// Writes bench/results/procedure-blind.json.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { contextTurn, RV_SERVICE_CATALOG, startContext, type TCatalog } from "@solserver/engine";
import { resultsPath } from "./lib/results-file";

const { values } = parseArgs({ options: { misses: { type: "string", default: "tune" } } });
type TRecord = { step: string; answer: string };
type TConversation = {
  id: string;
  system: string;
  split: "tune" | "holdout";
  turns: { message: string; expect: { kind: string; records?: TRecord[] } }[];
  report_must_not_contain_findings?: string[];
  report_must_contain_findings?: string[];
};
const fixture = JSON.parse(
  readFileSync(
    path.join(import.meta.dirname, "..", "packages", "engine", "catalogs", "rv-service.conversations.json"),
    "utf8",
  ),
) as { conversations: TConversation[] };

/** The finding an answer of a step records ("fuse=ok"). */
function findingOf(system: string, { step, answer }: TRecord): string {
  const s = RV_SERVICE_CATALOG.systems.find((x) => x.id === system)?.procedure.steps.find((x) => x.id === step);
  const found = s?.answers.find((a) => a.id === answer)?.finding;
  if (!found) throw new Error(`${system}: no answer ${answer} at step ${step}`);
  return found;
}

type TSplitResult = {
  conversations: number;
  labelled_turns: number;
  turns_as_expected: number;
  invented_findings: number;
  missing_findings: number;
  by_kind: Record<string, { ok: number; total: number }>;
  misses: string[];
};

function run(catalog: TCatalog, conversations: readonly TConversation[]): TSplitResult {
  const result: TSplitResult = {
    conversations: 0,
    labelled_turns: 0,
    turns_as_expected: 0,
    invented_findings: 0,
    missing_findings: 0,
    by_kind: {},
    misses: [],
  };
  for (const c of conversations) {
    result.conversations++;
    let state = startContext(catalog, c.system);
    for (const t of c.turns) {
      const logged = state.evidence_log.length;
      const held = new Set(Object.entries(state.evidence).map(([k, v]) => `${k}=${v}`));
      const turn = contextTurn(catalog, state, t.message);
      state = turn.state;
      if (t.expect.records === undefined) continue;
      const got = state.evidence_log
        .slice(logged)
        .map((e) => e.finding)
        .sort();
      const want = t.expect.records.map((r) => findingOf(c.system, r)).sort();
      // a finding already on record (from the complaint, or said before) is no miss
      const ok =
        JSON.stringify([...new Set([...got, ...want.filter((f) => held.has(f))])].sort()) === JSON.stringify(want);
      result.labelled_turns++;
      const kind = result.by_kind[t.expect.kind] ?? { ok: 0, total: 0 };
      result.by_kind[t.expect.kind] = kind;
      kind.total++;
      if (ok) {
        result.turns_as_expected++;
        kind.ok++;
      } else
        result.misses.push(
          `${c.id} ${t.expect.kind} ${JSON.stringify(t.message)}: expected [${want.join(", ")}], recorded [${got.join(", ")}]`,
        );
    }
    // what the customer reads: the report, or what one built now would hold (the findings on
    // record and those stated for steps the path has not reached)
    const final = new Set(
      state.report === null
        ? [
            ...Object.entries(state.evidence).map(([k, v]) => `${k}=${v}`),
            ...Object.values(state.pending_findings ?? {}),
          ]
        : Object.entries(state.report.evidence).map(([k, v]) => `${k}=${v}`),
    );
    for (const f of c.report_must_not_contain_findings ?? [])
      if (final.has(f)) {
        result.invented_findings++;
        result.misses.push(`${c.id}: holds ${f}, which nobody stated (or was corrected away)`);
      }
    for (const f of c.report_must_contain_findings ?? [])
      if (!final.has(f)) {
        result.missing_findings++;
        result.misses.push(`${c.id}: lacks ${f}`);
      }
  }
  return result;
}

const pct = (a: number, b: number) => (b === 0 ? "–" : `${((100 * a) / b).toFixed(1)}%`);
const out: Record<string, TSplitResult> = {};
// (the tune split as one; each held-out set on its own: a set is scored before it is read)
const held = fixture.conversations.filter((c) => c.split === "holdout");
const groups: [string, "tune" | "holdout", TConversation[]][] = [
  ["tune", "tune", fixture.conversations.filter((c) => c.split === "tune")],
  ...[...new Set(held.map((c) => c.id.slice(0, 2)))].map((set): [string, "holdout", TConversation[]] => [
    `holdout ${set}`,
    "holdout",
    held.filter((c) => c.id.startsWith(set)),
  ]),
];
// The baseline, same run: the rules alone (the catalog without the examples the reader learns from).
const RULES_ALONE: TCatalog = {
  ...RV_SERVICE_CATALOG,
  systems: RV_SERVICE_CATALOG.systems.map(({ examples: _, ...system }) => system),
};
const line = (r: TSplitResult) =>
  `turns as expected ${pct(r.turns_as_expected, r.labelled_turns)} (${r.turns_as_expected}/${r.labelled_turns}); invented findings ${r.invented_findings}; missing findings ${r.missing_findings}`;
for (const [name, split, conversations] of groups) {
  const r = run(RV_SERVICE_CATALOG, conversations);
  out[name] = r;
  console.log(`\n== ${name}: ${r.conversations} conversations; ${line(r)}`);
  if (split === "holdout") {
    const baseline = run(RULES_ALONE, conversations);
    out[`${name}, rules alone`] = baseline;
    console.log(`   rules alone (baseline): ${line(baseline)}`);
  }
  console.log(
    `   by kind: ${Object.entries(r.by_kind)
      .map(([k, v]) => `${k} ${v.ok}/${v.total}`)
      .join(", ")}`,
  );
  if (values.misses.split(",").includes(split)) for (const m of r.misses) console.log(`  ✗ ${m}`);
}
const file = resultsPath("procedure-blind.json");
writeFileSync(
  file,
  `${JSON.stringify({ when: new Date().toISOString(), node: process.version, ...Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { ...v, misses: v.misses.length }])) }, null, 2)}\n`,
);
console.log(`written to ${path.relative(process.cwd(), file)}`);
