import { readFileSync } from "node:fs";
import { asRecord, formatForPath, InputError, parseDocumentText, readTextFile } from "./read-input";

// Where `evaluate` reads its two records: two files, one combined file holding
// `{ "baseline": {...}, "candidate": {...} }` (as the original library), or stdin (`-`) for
// either of those. Each record keeps a label for error lines ("stdin", "pair.json") and the text
// it came from (the run id hashes what was judged).

const STDIN = "-";

interface TRecordSource {
  /** How errors name where the record came from. */
  label: string;
  record: Record<string, unknown>;
  /** The record's source text (the whole combined document for a combined input). */
  text: string;
}

export interface TPairInput {
  baseline: TRecordSource;
  candidate: TRecordSource;
  /** The combined document's label, when both came from one. */
  combined: string | null;
}

/** Reads stdin once (fd 0); tests pass their own. */
export type TReadStdin = () => string;

export const readProcessStdin: TReadStdin = () => {
  try {
    return readFileSync(0, "utf8");
  } catch (err) {
    throw new InputError("stdin", `cannot read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
};

function readText(arg: string, stdin: TReadStdin): { label: string; text: string; format: "json" | "yaml" } {
  if (arg === STDIN) return { label: "stdin", text: stdin(), format: "json" };
  return { label: arg, text: readTextFile(arg), format: formatForPath(arg, "json") };
}

export function readPair(first: string, second: string | undefined, stdin: TReadStdin = readProcessStdin): TPairInput {
  if (second === undefined) {
    const { label, text, format } = readText(first, stdin);
    const doc = parseDocumentText(text, label, format);
    const keys = typeof doc === "object" && doc !== null && !Array.isArray(doc) ? Object.keys(doc) : [];
    if (!keys.includes("baseline") || !keys.includes("candidate")) {
      throw new InputError(
        label,
        'a single input must hold both records: { "baseline": {...}, "candidate": {...} } (or give two files)',
      );
    }
    const both = doc as Record<string, unknown>;
    return {
      baseline: { label, record: asRecord(both.baseline, label, "baseline"), text },
      candidate: { label, record: asRecord(both.candidate, label, "candidate"), text },
      combined: label,
    };
  }
  if (first === STDIN && second === STDIN) {
    throw new InputError(null, "stdin (-) can hold one input: give the other record as a file, or one combined input");
  }
  const side = (arg: string, name: "baseline" | "candidate"): TRecordSource => {
    const { label, text, format } = readText(arg, stdin);
    return { label, record: asRecord(parseDocumentText(text, label, format), label, name), text };
  };
  return { baseline: side(first, "baseline"), candidate: side(second, "candidate"), combined: null };
}
