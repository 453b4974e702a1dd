// Loads the seed fixtures (test/fixtures/seed/*.json). The `breakpoint` CLI's tests read the
// same files, so they are plain JSON records exactly as the seed's CLI reads them.
import { readFileSync } from "node:fs";
import type { TGateRecord } from "@solserver/contracts";

const SEED_FIXTURES = [
  "baseline",
  "candidate_allow",
  "candidate_warn",
  "candidate_block",
  "baseline_ticket",
  "candidate_format_regression",
  "candidate_pii_verbose",
] as const;

export type SeedFixture = (typeof SEED_FIXTURES)[number];

export function seedFixture(name: SeedFixture): TGateRecord {
  return JSON.parse(readFileSync(new URL(`./fixtures/seed/${name}.json`, import.meta.url), "utf8")) as TGateRecord;
}

/** A record with just an output (and optional extra fields). */
export function rec(output: string, extra: Partial<TGateRecord> = {}): TGateRecord {
  return { output, ...extra };
}
