// The k best hits a TermIndex search keeps (term-index.ts), as slots in a min-heap: only the
// kept hits become objects.

type TRanked = { slot: number; score: number };

/** The k best (slot, score) pairs offered, in a min-heap (the worst kept on top). */
export class SlotHeap {
  private readonly heap: TRanked[] = [];
  private readonly scores = new Map<number, number>();
  constructor(
    private readonly k: number,
    private readonly better: (a: TRanked, b: TRanked) => boolean,
  ) {}

  full(): boolean {
    return this.heap.length >= this.k;
  }

  /** The worst kept score (a boost can raise a score, so offers are checked again in offer). */
  minScore(): number {
    return this.heap[0]?.score ?? Number.NEGATIVE_INFINITY;
  }

  scoreOf(slot: number): number {
    return this.scores.get(slot) ?? 0;
  }

  offer(slot: number, score: number): void {
    const heap = this.heap;
    const entry = { slot, score };
    if (heap.length < this.k) {
      heap.push(entry);
      this.scores.set(slot, score);
      this.up(heap.length - 1);
    } else if (this.better(entry, heap[0] as TRanked)) {
      this.scores.delete((heap[0] as TRanked).slot);
      heap[0] = entry;
      this.scores.set(slot, score);
      this.down(0);
    }
  }

  /** The kept slots, best first. */
  sorted(): number[] {
    return [...this.heap].sort((a, b) => (this.better(a, b) ? -1 : this.better(b, a) ? 1 : 0)).map((e) => e.slot);
  }

  private up(i: number): void {
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.better(heap[parent] as TRanked, heap[i] as TRanked)) break;
      [heap[parent], heap[i]] = [heap[i] as TRanked, heap[parent] as TRanked];
      i = parent;
    }
  }

  private down(i: number): void {
    const heap = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && this.better(heap[worst] as TRanked, heap[l] as TRanked)) worst = l;
      if (r < heap.length && this.better(heap[worst] as TRanked, heap[r] as TRanked)) worst = r;
      if (worst === i) return;
      [heap[worst], heap[i]] = [heap[i] as TRanked, heap[worst] as TRanked];
      i = worst;
    }
  }
}
