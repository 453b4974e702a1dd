// The set-overlap components of the composite score (seed 001 §6.2). Jaccard (|A∩B| / |A∪B|)
// everywhere: symmetric, in [0, 1], 1 only for equal sets, and it grows when one more item is
// shared, which keeps the score monotonic in each component. Labels and titles are compared as
// analysed terms (text/analyze.ts), so "Upgrades" and "upgrade", "k8s" and "kubernetes",
// "on-call" and "On call" are the same label.
import { termSet } from "@solserver/text";

/** |A∩B| / |A∪B|; 0 when both are empty (nothing shared is no evidence of a match). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/** A label as letters and digits only: "Pager Duty", "pagerduty" and "Pager-Duty" are one. */
function squashed(label: string): string {
  return label.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
}

/**
 * Two labels name the same thing when they are equal once squashed ("Pager Duty" / "PagerDuty")
 * or share at least half their analysed terms ("Amazon EKS" / "EKS", "GH Actions" / "GitHub
 * Actions", "incident-management" / "incidents", "k8s" / "Kubernetes").
 */
function sameLabel(a: { squashed: string; terms: Set<string> }, b: { squashed: string; terms: Set<string> }): boolean {
  return (a.squashed.length > 0 && a.squashed === b.squashed) || (a.terms.size > 0 && jaccard(a.terms, b.terms) >= 0.5);
}

/**
 * Jaccard of two label lists where labels naming the same thing (sameLabel) count as shared:
 * matched pairs / (|A| + |B| − matched), each label matched at most once. Null when either side
 * has none: a proposal without tags (or a CFB without entities) says nothing either way, and the
 * score leaves the component out instead of counting it as a mismatch.
 */
export function labelOverlap(a: readonly string[], b: readonly string[]): number | null {
  const prepare = (labels: readonly string[]) =>
    [...new Set(labels.map((l) => l.trim()).filter((l) => l.length > 0))].map((l) => ({
      squashed: squashed(l),
      terms: termSet(l),
    }));
  const la = prepare(a);
  const lb = prepare(b);
  if (la.length === 0 || lb.length === 0) return null;
  // Pairs that name the same thing, closest first (equal once squashed, then by term overlap),
  // each label used once: the same count whatever order the labels come in.
  const pairs: { i: number; j: number; closeness: number }[] = [];
  for (const [i, x] of la.entries())
    for (const [j, y] of lb.entries())
      if (sameLabel(x, y)) pairs.push({ i, j, closeness: x.squashed === y.squashed ? 2 : jaccard(x.terms, y.terms) });
  pairs.sort((p, q) => q.closeness - p.closeness || p.i - q.i || p.j - q.j);
  const usedA = new Set<number>();
  const usedB = new Set<number>();
  let matched = 0;
  for (const { i, j } of pairs) {
    if (usedA.has(i) || usedB.has(j)) continue;
    usedA.add(i);
    usedB.add(j);
    matched += 1;
  }
  return matched / (la.length + lb.length - matched);
}

/**
 * Jaccard of the titles' analysed terms (content words, stemmed). Ignores word order and function
 * words ("Reset the password" = "Password reset"); titles of stopwords only score 0.
 */
export function titleSimilarity(a: string, b: string): number {
  return jaccard(termSet(a), termSet(b));
}
