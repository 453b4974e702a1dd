// An inverted index of analysed terms over the live CFBs, held in typed arrays, that answers
// "which CFBs share the most (weighted) terms with this text" exactly, over all of them.
//
// Why not FTS5's own ranking: with a realistic vocabulary every word of a proposal or a question
// is held by thousands of CFBs (at 100k CFBs a proposal's terms match ~85,000 rows), and FTS5
// computes bm25() for each row an OR matches before its LIMIT, at ~1.7 µs a row: 110 ms. Limiting
// the OR to the rarest terms (the earlier design) is fast but blind: a proposal's rarest words are
// the ones it adds, which the CFB it restates does not hold. Here a search walks the posting lists
// of its terms and adds each term's weight into a flat array, a few nanoseconds a posting: every
// live CFB is considered, and 200,000 postings cost well under a millisecond.
//
// Pure data structure (no I/O): candidate-index.ts keeps it in step with the database.
import { compareIds } from "@solserver/contracts";
import { SymSpell } from "mnemonist";
import { SlotHeap } from "./slot-heap";
import type { TIndexedDoc, TIndexHit, TSearchOptions, TWeightedTerm } from "./term-index-types";

const MIN_DOCS_FOR_DEFER = 1000;
const ALWAYS_WALKED = 2;

const INITIAL_POSTINGS = 4;

export class TermIndex {
  private readonly slotOf = new Map<string, number>();
  private ids: (string | null)[] = [];
  private domainOf: string[] = [];
  /** A slot's owner as a number (ownerNumbers), 0 for a shared document. */
  private ownerOf: number[] = [];
  private readonly ownerNumbers = new Map<string, number>();
  /** The number in a slot's id (CFB-0042 → 42), for cheap tie-breaks; NaN when it has none. */
  private idNumber: number[] = [];
  private termsOf: Int32Array[] = [];
  /** Sum of the live documents' term counts (their lengths, for the average). */
  private totalLength = 0;
  /** Near spellings of the vocabulary (Damerau distance 1), built on the first fuzzy lookup. */
  private spell: SymSpell | null = null;
  private readonly freeSlots: number[] = [];

  private readonly termIds = new Map<string, number>();
  private postings: Int32Array[] = [];
  /** Per posting: 1 when the term is one of the document's strong (title, label) terms. */
  private strong: Uint8Array[] = [];
  private lengths: number[] = [];

  private scores = new Float64Array(0);
  private touched = new Int32Array(0);

  /** Live documents. */
  get size(): number {
    return this.slotOf.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Whether a live document may be returned to `visibleTo`'s searches (shared, or theirs). */
  visible(id: string, visibleTo: string | null | undefined, domains?: ReadonlySet<string>): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    if (domains && !domains.has(this.domainOf[slot] as string)) return false;
    const owner = this.ownerOf[slot] as number;
    return owner === 0 || (visibleTo != null && owner === this.ownerNumbers.get(visibleTo));
  }

  /** The domain of a live document, or undefined. */
  domainOfDocument(id: string): string | undefined {
    const slot = this.slotOf.get(id);
    return slot === undefined ? undefined : this.domainOf[slot];
  }

  /** Documents holding `term` (an analysed term). */
  documentFrequency(term: string): number {
    const t = this.termIds.get(term);
    return t === undefined ? 0 : (this.lengths[t] ?? 0);
  }

  /** Adds a document, or replaces the one with the same id. */
  upsert(doc: TIndexedDoc): void {
    this.remove(doc.id);
    const slot = this.freeSlots.pop() ?? this.ids.length;
    const strong = new Set(doc.strong ?? []);
    const terms = new Set([...doc.terms, ...strong]);
    const termIds = [...terms].map((term) => this.termId(term));
    this.ids[slot] = doc.id;
    this.domainOf[slot] = doc.domain;
    this.ownerOf[slot] = this.ownerNumber(doc.owner ?? null);
    this.idNumber[slot] = idNumberOf(doc.id);
    this.termsOf[slot] = Int32Array.from(termIds);
    this.totalLength += termIds.length;
    this.slotOf.set(doc.id, slot);
    for (const [i, term] of [...terms].entries()) this.append(termIds[i] as number, slot, strong.has(term) ? 1 : 0);
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    for (const t of this.termsOf[slot] ?? []) this.detach(t, slot);
    this.totalLength -= this.termsOf[slot]?.length ?? 0;
    this.slotOf.delete(id);
    this.ids[slot] = null;
    this.termsOf[slot] = new Int32Array(0);
    this.freeSlots.push(slot);
  }

  clear(): void {
    this.slotOf.clear();
    this.ids = [];
    this.domainOf = [];
    this.ownerOf = [];
    this.ownerNumbers.clear();
    this.idNumber = [];
    this.termsOf = [];
    this.totalLength = 0;
    this.spell = null;
    this.freeSlots.length = 0;
    this.termIds.clear();
    this.postings = [];
    this.strong = [];
    this.lengths = [];
  }

  /**
   * The `limit` documents with the highest sum of the weights of the query terms they hold
   * (times the boost), best first; ties by id in numeric order. `shared` counts the query terms
   * a document holds. Documents sharing no term are never returned.
   */
  search(query: readonly TWeightedTerm[], opts: TSearchOptions): TIndexHit[] {
    if (opts.limit <= 0) return [];
    this.ensureScratch();
    const scores = this.scores;
    const touched = this.touched;
    let touchedCount = 0;
    const deferAt =
      opts.deferShare !== undefined && this.size >= MIN_DOCS_FOR_DEFER ? this.size * opts.deferShare : Infinity;
    // Distinct known terms, rarest first.
    const seen = new Set<string>();
    const terms: { t: number; weight: number; n: number }[] = [];
    for (const { term, weight } of query) {
      if (seen.has(term) || !(weight > 0)) continue;
      seen.add(term);
      const t = this.termIds.get(term);
      if (t !== undefined) terms.push({ t, weight, n: this.lengths[t] as number });
    }
    terms.sort((a, b) => a.n - b.n);
    const deferred = new Map<number, number>();
    // A plain loop, not a closure: a counter captured by a closure lives on the heap, and this
    // loop runs once per posting (hundreds of thousands per search).
    const strongBoost = opts.strongBoost ?? 1;
    for (let i = 0; i < terms.length; i++) {
      const { t, weight, n } = terms[i] as { t: number; weight: number; n: number };
      if (n > deferAt && i >= ALWAYS_WALKED) {
        deferred.set(t, weight);
        continue;
      }
      const list = this.postings[t] as Int32Array;
      const strong = this.strong[t] as Uint8Array;
      const strongWeight = weight * strongBoost;
      for (let j = 0; j < n; j++) {
        const slot = list[j] as number;
        const before = scores[slot] as number;
        if (before === 0) touched[touchedCount++] = slot;
        scores[slot] = before + (strong[j] === 1 ? strongWeight : weight);
      }
    }
    // The best slots by (score, id), in a min-heap of slots: only the kept hits become objects,
    // and a slot's domain is looked at only when its score could enter the heap.
    const size = deferred.size > 0 ? Math.max(opts.limit, opts.shortlist ?? opts.limit * 10) : opts.limit;
    const boostOf = (slot: number) => (opts.boost ? opts.boost(this.domainOf[slot] as string) : 1);
    const first = new SlotHeap(size, (a, b) => this.better(a, b));
    // A slot whose score, boosted as much as any can be, stays below the heap's worst kept
    // score cannot enter: most of the touched slots are skipped without a look at their domain.
    // (A boost with no stated maximum may lift any score: then every slot is offered.)
    let floor = Number.NEGATIVE_INFINITY;
    const domains = opts.domains;
    // The searcher's owner number: a private document of anyone else is skipped (-1 owns nothing).
    const viewer = opts.visibleTo == null ? 0 : (this.ownerNumbers.get(opts.visibleTo) ?? -1);
    const ownerOf = this.ownerOf;
    const boosted = opts.boost !== undefined && deferred.size === 0;
    const norm = opts.lengthNorm;
    const average = this.size > 0 ? this.totalLength / this.size : 1;
    const lengthFactor = (slot: number) =>
      norm
        ? (norm.k1 + 1) /
          (1 + norm.k1 * (1 - norm.b + (norm.b * (this.termsOf[slot]?.length ?? 0)) / Math.max(1, average)))
        : 1;
    const maxLengthFactor = norm ? (norm.k1 + 1) / (1 + norm.k1 * (1 - norm.b)) : 1;
    const lift = (boosted ? (opts.maxBoost ?? Number.POSITIVE_INFINITY) : 1) * maxLengthFactor;
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i] as number;
      let score = scores[slot] as number;
      scores[slot] = 0;
      if (score * lift < floor) continue;
      const owner = ownerOf[slot] as number;
      if (owner !== 0 && owner !== viewer) continue;
      if (norm) score *= lengthFactor(slot);
      if (domains && !domains.has(this.domainOf[slot] as string)) continue;
      if (boosted) score *= boostOf(slot);
      first.offer(slot, score);
      if (first.full()) floor = first.minScore();
    }
    let heap = first;
    if (deferred.size > 0) {
      heap = new SlotHeap(opts.limit, (a, b) => this.better(a, b));
      for (const slot of first.sorted()) {
        let score = first.scoreOf(slot);
        for (const t of this.termsOf[slot] ?? []) score += deferred.get(t) ?? 0;
        heap.offer(slot, score * boostOf(slot));
      }
    }
    const queryTerms = new Set<number>();
    for (const term of seen) {
      const t = this.termIds.get(term);
      if (t !== undefined) queryTerms.add(t);
    }
    return heap.sorted().map((slot) => {
      let shared = 0;
      for (const t of this.termsOf[slot] ?? []) if (queryTerms.has(t)) shared += 1;
      return { id: this.ids[slot] as string, domain: this.domainOf[slot] as string, score: heap.scoreOf(slot), shared };
    });
  }

  /** Slot a ranks before slot b: a higher score, then the lower id (CFB-9999 before CFB-10000). */
  private better(a: { slot: number; score: number }, b: { slot: number; score: number }): boolean {
    if (a.score !== b.score) return a.score > b.score;
    const na = this.idNumber[a.slot] as number;
    const nb = this.idNumber[b.slot] as number;
    if (na !== nb && !Number.isNaN(na) && !Number.isNaN(nb)) return na < nb;
    return compareIds(this.ids[a.slot] as string, this.ids[b.slot] as string) < 0;
  }

  /**
   * Terms of the vocabulary one edit (insertion, deletion, substitution, transposition) away from
   * `term`, held by at least one live document: "pasword" → "password", "dashbaord" → "dashboard".
   * For words of 4 or more characters only (shorter ones have too many neighbours to guess).
   */
  nearSpellings(term: string): string[] {
    if ([...term].length < 4) return [];
    return this.spellings()
      .search(term)
      .map((m) => m.term)
      .filter((t) => t !== term && this.documentFrequency(t) > 0);
  }

  /** The near-spelling index, built now if it is not yet (a build warms it, so no turn waits). */
  spellings(): SymSpell {
    if (!this.spell) {
      this.spell = new SymSpell({ maxDistance: 1, verbosity: 2 });
      for (const known of this.termIds.keys()) if ([...known].length >= 3) this.spell.add(known);
    }
    return this.spell;
  }

  /** The number of an owner (0: shared), given on first sight and kept until clear(). */
  private ownerNumber(owner: string | null): number {
    if (owner === null) return 0;
    let n = this.ownerNumbers.get(owner);
    if (n === undefined) {
      n = this.ownerNumbers.size + 1;
      this.ownerNumbers.set(owner, n);
    }
    return n;
  }

  private termId(term: string): number {
    let t = this.termIds.get(term);
    if (t === undefined) {
      if (this.spell && [...term].length >= 3) this.spell.add(term);
      t = this.postings.length;
      this.termIds.set(term, t);
      this.postings.push(new Int32Array(INITIAL_POSTINGS));
      this.strong.push(new Uint8Array(INITIAL_POSTINGS));
      this.lengths.push(0);
    }
    return t;
  }

  private append(t: number, slot: number, strong: number): void {
    let list = this.postings[t] as Int32Array;
    let flags = this.strong[t] as Uint8Array;
    const n = this.lengths[t] as number;
    if (n === list.length) {
      const grown = new Int32Array(list.length * 2);
      grown.set(list);
      this.postings[t] = grown;
      list = grown;
      const grownFlags = new Uint8Array(flags.length * 2);
      grownFlags.set(flags);
      this.strong[t] = grownFlags;
      flags = grownFlags;
    }
    list[n] = slot;
    flags[n] = strong;
    this.lengths[t] = n + 1;
  }

  /** Removes `slot` from the term's list (order does not matter: the last entry takes its place). */
  private detach(t: number, slot: number): void {
    const list = this.postings[t] as Int32Array;
    const flags = this.strong[t] as Uint8Array;
    const n = this.lengths[t] as number;
    const i = list.lastIndexOf(slot, n - 1);
    if (i < 0) return;
    list[i] = list[n - 1] as number;
    flags[i] = flags[n - 1] as number;
    this.lengths[t] = n - 1;
  }

  private ensureScratch(): void {
    if (this.scores.length >= this.ids.length) return;
    const size = Math.max(1024, this.ids.length * 2);
    this.scores = new Float64Array(size);
    this.touched = new Int32Array(size);
  }
}

/** 42 for "CFB-0042" (ids of one family compare by it); NaN for any other shape. */
function idNumberOf(id: string): number {
  const dash = id.lastIndexOf("-");
  const digits = id.slice(dash + 1);
  return dash > 0 && /^\d{1,15}$/.test(digits) ? Number(digits) : Number.NaN;
}
