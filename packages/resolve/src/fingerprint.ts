// Proposal fingerprint (seed 001 §5.2): sha256(normalize(title + tags + first_300(delta_summary))).
// The one recipe: the control plane stores it with every proposal and counts repetitions by it,
// so the material and its encoding must never change (test/fingerprint.test.ts pins digests
// stored before this copy replaced the control plane's). @noble/hashes instead of node:crypto
// keeps this package free of node imports.
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { normalizeText } from "./normalize";

/** Characters (UTF-16 code units, as String#slice counts them) of delta_summary that count. */
const SUMMARY_PREFIX = 300;

type TFingerprinted = { title: string; tags: readonly string[]; delta_summary: string };

/**
 * The text that is hashed: `normalize(title) \n sorted(normalize(tag)).join(",") \n
 * normalize(first 300 of delta_summary)`. Tags are sorted so reordering them is still the same
 * suggestion.
 */
export function fingerprintMaterial(p: TFingerprinted): string {
  const tags = p.tags.map(normalizeText).sort().join(",");
  return `${normalizeText(p.title)}\n${tags}\n${normalizeText(p.delta_summary.slice(0, SUMMARY_PREFIX))}`;
}

/** sha256 hex of the material, UTF-8 encoded. */
export function fingerprint(p: TFingerprinted): string {
  // utf8ToBytes is TextEncoder: a lone surrogate becomes U+FFFD, as Node's hash.update(string) does.
  return bytesToHex(sha256(utf8ToBytes(fingerprintMaterial(p))));
}
