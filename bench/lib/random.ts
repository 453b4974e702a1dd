// A seeded PRNG for the benchmarks: the same corpus, proposals and messages on every run.

/** mulberry32 (the tests' own, from @solserver/db/testing). */
export { prng } from "@solserver/db/testing";

/** Helpers over one generator. */
export function randomTools(random: () => number) {
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  /** `n` distinct items (fewer when the pool is smaller). */
  const sample = <T>(pool: readonly T[], n: number): T[] => {
    const out = new Set<T>();
    const want = Math.min(n, new Set(pool).size);
    while (out.size < want) out.add(pick(pool));
    return [...out];
  };
  /** A Zipf-like pick (exponent s) by rank in `pool`: the first items come up most. */
  const zipf = <T>(pool: readonly T[], s = 1.07) => {
    const weights = pool.map((_, rank) => 1 / (rank + 1) ** s);
    const total = weights.reduce((a, b) => a + b, 0);
    let acc = 0;
    const cdf = weights.map((w) => {
      acc += w / total;
      return acc;
    });
    return (): T => {
      const u = random();
      let lo = 0;
      let hi = cdf.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((cdf[mid] as number) < u) lo = mid + 1;
        else hi = mid;
      }
      return pool[lo] as T;
    };
  };
  return { random, int, pick, sample, zipf };
}
