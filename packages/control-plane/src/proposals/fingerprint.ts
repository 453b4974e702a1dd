import { createHash } from "node:crypto";

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * Proposal fingerprint (seed 001 §5.2): sha256(normalize(title + tags + first_300(delta_summary))).
 * Tags are sorted so the same suggestion with reordered tags counts as a repetition.
 */
export function proposalFingerprint(s: { title: string; tags: readonly string[]; delta_summary: string }): string {
  const tags = [...s.tags].map(normalize).sort().join(",");
  const material = `${normalize(s.title)}\n${tags}\n${normalize(s.delta_summary.slice(0, 300))}`;
  return createHash("sha256").update(material).digest("hex");
}
