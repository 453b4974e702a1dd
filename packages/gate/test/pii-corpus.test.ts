// The labelled PII corpus (test/fixtures/pii-corpus.jsonl): snippets the way model answers and
// support transcripts look, with every PII value they hold, and near misses (invalid SSN ranges,
// Luhn failures, ids, order and tracking numbers, timestamps, ISBNs, IPs, ZIPs, prices, versions,
// coordinates, serials …). The scanner must find what is there and nothing else: on the holdout
// split, per type, recall >= 0.98 and precision >= 0.99. bench/pii-corpus.mjs prints the table.
import { readFileSync } from "node:fs";
import { PII_TYPES } from "@solserver/contracts";
import { describe, expect, it } from "vitest";
import { readableText } from "../src/pii-read";
import { corpusSplit, parsePiiCorpus, scorePiiCorpus } from "../src/testing";

const rows = parsePiiCorpus(readFileSync(new URL("./fixtures/pii-corpus.jsonl", import.meta.url), "utf8"));

describe("the PII corpus", () => {
  it("has at least 300 unique snippets, each well-formed and labelled", () => {
    expect(rows.length).toBeGreaterThanOrEqual(300);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.text)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.kind === "true", `${row.id}: kind "true" exactly when it holds PII`).toBe(row.expect.length > 0);
      for (const e of row.expect) {
        expect(PII_TYPES, row.id).toContain(e.type);
        // Every expected value is in the text as people read it (catches typos in the labels).
        expect(readableText(row.text).text, `${row.id}: ${e.value}`).toContain(e.value);
      }
    }
  });

  it("is split ~60/40 by a hash of the id, and both splits hold every type and the near misses", () => {
    for (const row of rows) expect(row.split, row.id).toBe(corpusSplit(row.id));
    const tune = rows.filter((r) => r.split === "tune").length / rows.length;
    expect(tune).toBeGreaterThan(0.55);
    expect(tune).toBeLessThan(0.65);
    for (const split of ["tune", "holdout"] as const) {
      const inSplit = rows.filter((r) => r.split === split);
      for (const type of PII_TYPES) {
        const positives = inSplit.flatMap((r) => r.expect).filter((e) => e.type === type).length;
        expect(positives, `${split} ${type}`).toBeGreaterThanOrEqual(10);
      }
      expect(inSplit.filter((r) => r.expect.length === 0).length, split).toBeGreaterThanOrEqual(60);
    }
    const kinds = new Set(rows.map((r) => r.kind));
    for (const kind of [
      "near_miss",
      "luhn_fail",
      "id",
      "order",
      "tracking",
      "timestamp",
      "date",
      "isbn",
      "ip",
      "zip",
      "price",
      "version",
      "coordinate",
      "serial",
      "imei",
      "iban",
      "uuid",
      "hash",
    ]) {
      expect(kinds, kind).toContain(kind);
    }
  });

  it("holdout: recall >= 0.98 and precision >= 0.99 for every type", () => {
    const { scores, errors } = scorePiiCorpus(rows);
    const holdoutErrors = errors.filter((e) => e.startsWith("holdout"));
    for (const type of PII_TYPES) {
      const s = scores.holdout[type];
      expect(s.recall, `${type} recall; misses: ${holdoutErrors.join("; ")}`).toBeGreaterThanOrEqual(0.98);
      expect(s.precision, `${type} precision; false finds: ${holdoutErrors.join("; ")}`).toBeGreaterThanOrEqual(0.99);
    }
  });

  it("the scoring counts misses and false finds (a scanner that finds nothing would fail)", () => {
    const row = { id: "x", text: "SSN 123-45-6789 and order 4155551212", kind: "true", split: "holdout" as const };
    const missed = scorePiiCorpus([{ ...row, expect: [{ type: "PHONE", value: "4155551212" }] }]);
    expect(missed.scores.holdout.PHONE).toEqual({ tp: 0, fp: 0, fn: 1, precision: null, recall: 0 });
    expect(missed.scores.holdout.SSN).toEqual({ tp: 0, fp: 1, fn: 0, precision: 0, recall: null });
    const right = scorePiiCorpus([{ ...row, expect: [{ type: "SSN", value: "123-45-6789" }] }]);
    expect(right.scores.all.SSN).toEqual({ tp: 1, fp: 0, fn: 0, precision: 1, recall: 1 });
    expect(right.errors).toEqual([]);
  });
});
