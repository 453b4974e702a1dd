/** Milliseconds since `start` (a performance.now() reading), rounded to a tenth, for trace metadata. */
export function since(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}
