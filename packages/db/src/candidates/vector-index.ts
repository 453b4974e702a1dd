// Nearest CFBs by meaning, held in this process beside the term index: every live CFB's sentence
// vector as 512 sign bits (the prefilter) and as int8 numbers (the score), 576 bytes a CFB.
//
// Why not a database index: an exact search over 100,000 vectors of 512 floats costs ~60 ms in
// sqlite-vec and ~75 ms in JavaScript (measured on this machine), past a turn's budget, and
// PostgreSQL here has no pgvector. A Hamming-distance pass over the sign bits costs ~4 ms at
// 100,000, and rescoring its best few hundred with the int8 numbers finds the same top 8 as the
// exact search (measured on LoCoMo's 6,000 turns with USE-lite: 100 % at 256 rescored). One
// structure, the same on every database.
//
// Pure data structure (no I/O): candidate-index.ts keeps it in step with CfbEmbedding.

const WORDS_PER_BIT_CODE = (dims: number) => Math.ceil(dims / 32);
/** At least this many prefiltered vectors are rescored (and 16 per wanted neighbour). */
const MIN_RESCORED = 256;
const RESCORED_PER_RESULT = 16;

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export type TNeighbour = { id: string; similarity: number };

export class VectorIndex {
  private readonly words: number;
  private readonly slotOf = new Map<string, number>();
  private ids: (string | null)[] = [];
  private codes = new Uint32Array(0);
  private numbers = new Int8Array(0);
  /** Per slot: the int8 vector's length (0 for a free slot). */
  private norms = new Float32Array(0);
  private readonly freeSlots: number[] = [];

  constructor(readonly dims: number) {
    if (!Number.isInteger(dims) || dims < 1 || dims > 8192)
      throw new RangeError(`embedding dimension ${dims} out of range`);
    this.words = WORDS_PER_BIT_CODE(dims);
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Adds a CFB's vector, or replaces the one it had. */
  upsert(id: string, vector: Float32Array): void {
    if (vector.length !== this.dims) throw new Error(`${id}: ${vector.length} numbers, the index holds ${this.dims}`);
    if (vector.every((x) => x === 0)) {
      this.remove(id);
      return;
    }
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      slot = this.freeSlots.pop() ?? this.ids.length;
      if (slot >= this.norms.length) this.grow(Math.max(1024, this.norms.length * 2));
      this.slotOf.set(id, slot);
      this.ids[slot] = id;
    }
    const { code, numbers, norm } = this.quantize(vector);
    this.codes.set(code, slot * this.words);
    this.numbers.set(numbers, slot * this.dims);
    this.norms[slot] = norm;
  }

  remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.ids[slot] = null;
    this.norms[slot] = 0;
    this.freeSlots.push(slot);
  }

  clear(): void {
    this.slotOf.clear();
    this.ids = [];
    this.codes = new Uint32Array(0);
    this.numbers = new Int8Array(0);
    this.norms = new Float32Array(0);
    this.freeSlots.length = 0;
  }

  /** Cosine similarity of `query` with each listed CFB that has a vector. */
  similarities(query: Float32Array, ids: readonly string[]): Map<string, number> {
    const q = this.quantize(query);
    const out = new Map<string, number>();
    for (const id of ids) {
      const slot = this.slotOf.get(id);
      if (slot !== undefined) out.set(id, this.cosine(q.numbers, q.norm, slot));
    }
    return out;
  }

  /** The `k` nearest CFBs that `accept` lets through, most similar first (ties by id). */
  nearest(query: Float32Array, k: number, accept: (id: string) => boolean = () => true): TNeighbour[] {
    if (k <= 0 || this.size === 0) return [];
    if (query.length !== this.dims) throw new Error(`query vector has ${query.length} numbers, the index ${this.dims}`);
    const q = this.quantize(query);
    if (q.norm === 0) return [];
    const slots = this.norms.length;
    const distance = new Uint16Array(slots);
    const histogram = new Uint32Array(this.dims + 1);
    const words = this.words;
    for (let slot = 0; slot < slots; slot++) {
      if (this.norms[slot] === 0) continue;
      let d = 0;
      const at = slot * words;
      for (let w = 0; w < words; w++) d += popcount(((this.codes[at + w] as number) ^ (q.code[w] as number)) >>> 0);
      distance[slot] = d;
      histogram[d] = (histogram[d] as number) + 1;
    }
    // Rescore the nearest by bits, widening until k accepted neighbours are found or all were seen.
    for (let wanted = Math.max(MIN_RESCORED, k * RESCORED_PER_RESULT); ; wanted *= 4) {
      let cut = 0;
      for (let seen = 0; cut <= this.dims; cut++) {
        seen += histogram[cut] as number;
        if (seen >= wanted) break;
      }
      const scored: TNeighbour[] = [];
      for (let slot = 0; slot < slots; slot++) {
        if (this.norms[slot] === 0 || (distance[slot] as number) > cut) continue;
        const id = this.ids[slot] as string;
        if (!accept(id)) continue;
        scored.push({ id, similarity: this.cosine(q.numbers, q.norm, slot) });
      }
      if (scored.length >= k || wanted >= this.size) {
        scored.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        return scored.slice(0, k);
      }
    }
  }

  private cosine(q: Int8Array, qNorm: number, slot: number): number {
    const at = slot * this.dims;
    let dot = 0;
    for (let i = 0; i < this.dims; i++) dot += (q[i] as number) * (this.numbers[at + i] as number);
    return Math.max(-1, Math.min(1, dot / (qNorm * (this.norms[slot] as number))));
  }

  private quantize(vector: Float32Array): { code: Uint32Array; numbers: Int8Array; norm: number } {
    const code = new Uint32Array(this.words);
    const numbers = new Int8Array(this.dims);
    let max = 0;
    for (let i = 0; i < this.dims; i++) max = Math.max(max, Math.abs(vector[i] as number));
    const scale = max === 0 ? 0 : 127 / max;
    let norm = 0;
    for (let i = 0; i < this.dims; i++) {
      const x = vector[i] as number;
      if (x > 0) code[i >> 5] = ((code[i >> 5] as number) | (1 << (i & 31))) >>> 0;
      const n = Math.round(x * scale);
      numbers[i] = n;
      norm += n * n;
    }
    return { code, numbers, norm: Math.sqrt(norm) };
  }

  private grow(slots: number): void {
    const codes = new Uint32Array(slots * this.words);
    codes.set(this.codes);
    const numbers = new Int8Array(slots * this.dims);
    numbers.set(this.numbers);
    const norms = new Float32Array(slots);
    norms.set(this.norms);
    this.codes = codes;
    this.numbers = numbers;
    this.norms = norms;
  }
}
