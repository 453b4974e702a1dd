// Finding table phrases in a message: each table is indexed by its phrases' first word once, so
// a message is scanned in one pass per table (linear in its words for a given table).

import type { TPhrase } from "./vocabulary";

export type TSpan = { clause: number; start: number; length: number; phrase: number };

export class PhraseIndex {
  private readonly byFirst = new Map<string, number[]>();

  constructor(readonly phrases: readonly TPhrase[]) {
    phrases.forEach((p, i) => {
      const first = p[0];
      if (first === undefined) return;
      const list = this.byFirst.get(first) ?? [];
      list.push(i);
      this.byFirst.set(first, list);
    });
  }

  /** Every occurrence in `tokens` (one clause), longest first at each start. */
  in(tokens: readonly string[], clause = 0): TSpan[] {
    const spans: TSpan[] = [];
    tokens.forEach((token, start) => {
      for (const i of this.byFirst.get(token) ?? []) {
        const p = this.phrases[i] ?? [];
        if (start + p.length > tokens.length) continue;
        let ok = true;
        for (let k = 1; ok && k < p.length; k++) ok = tokens[start + k] === p[k];
        if (ok) spans.push({ clause, start, length: p.length, phrase: i });
      }
    });
    return spans.sort((a, b) => a.start - b.start || b.length - a.length);
  }

  /** Every occurrence in every clause. */
  all(clauses: readonly { tokens: readonly string[] }[]): TSpan[] {
    return clauses.flatMap((c, k) => this.in(c.tokens, k));
  }

  /** Whether the phrases cover every token of `tokens`, apart from the tokens `also` allows. */
  covers(tokens: readonly string[], also: ReadonlySet<string> = new Set()): boolean {
    const covered = tokens.map((t) => also.has(t));
    for (const span of this.in(tokens)) for (let i = span.start; i < span.start + span.length; i++) covered[i] = true;
    return covered.every(Boolean);
  }
}

const indexes = new WeakMap<readonly TPhrase[], PhraseIndex>();

/** The (cached) index of a table. */
export function indexOf(table: readonly TPhrase[]): PhraseIndex {
  let index = indexes.get(table);
  if (index === undefined) {
    index = new PhraseIndex(table);
    indexes.set(table, index);
  }
  return index;
}
