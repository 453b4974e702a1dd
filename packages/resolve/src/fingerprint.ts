// Proposal fingerprint (seed 001 §5.2): sha256(normalize(title + tags + first_300(delta_summary))).
// Byte-for-byte the material packages/control-plane/src/proposals/fingerprint.ts hashes, so the
// fingerprints already stored keep counting as repetitions; @noble/hashes instead of node:crypto
// keeps this package free of node imports (a test checks both give the same hex).
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { normalizeText } from "./normalize";

/** Characters (UTF-16 code units, as String#slice counts them) of delta_summary that count. */
const SUMMARY_PREFIX = 300;

/**
 * sha256 hex of `normalize(title) \n sorted(normalize(tag)).join(",") \n normalize(first 300 of
 * delta_summary)`. Tags are sorted so reordering them is still the same suggestion.
 */
export function fingerprint(p: { title: string; tags: readonly string[]; delta_summary: string }): string {
  const tags = p.tags.map(normalizeText).sort().join(",");
  const material = `${normalizeText(p.title)}\n${tags}\n${normalizeText(p.delta_summary.slice(0, SUMMARY_PREFIX))}`;
  // utf8ToBytes is TextEncoder: a lone surrogate becomes U+FFFD, as Node's hash.update(string) does.
  return bytesToHex(sha256(utf8ToBytes(material)));
}
