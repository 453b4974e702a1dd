// The baseline a trained router must beat (issue 34): multinomial naive Bayes over the one text
// analyser's terms, Laplace smoothing, trained on the same examples as the router.
import { analyzeTerms } from "@solserver/text";

export function naiveBayes(domains: readonly string[], examples: readonly { text: string; domain: string }[]) {
  const counts = domains.map(() => new Map<string, number>());
  const totals = domains.map(() => 0);
  const priors = domains.map(() => 0);
  const vocabulary = new Set<string>();
  for (const e of examples) {
    const c = domains.indexOf(e.domain);
    priors[c] = (priors[c] as number) + 1;
    for (const t of analyzeTerms(e.text)) {
      const m = counts[c] as Map<string, number>;
      m.set(t, (m.get(t) ?? 0) + 1);
      totals[c] = (totals[c] as number) + 1;
      vocabulary.add(t);
    }
  }
  return (text: string): string => {
    const terms = analyzeTerms(text).filter((t) => vocabulary.has(t));
    const logp = domains.map((_, c) => {
      let s = Math.log((priors[c] as number) / examples.length);
      for (const t of terms)
        s += Math.log(
          (((counts[c] as Map<string, number>).get(t) ?? 0) + 1) / ((totals[c] as number) + vocabulary.size),
        );
      return s;
    });
    return domains[logp.indexOf(Math.max(...logp))] as string;
  };
}
