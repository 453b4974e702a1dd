import type { TRetrievableCfb } from "@solserver/db";
import { coverage, uniqueContentWords } from "./text";

export type TRankedCfb = { cfb: TRetrievableCfb; score: number };

/** Words a CFB is about: title, summary, tags and entities. */
export function cfbVocabulary(cfb: TRetrievableCfb): Set<string> {
  return new Set(uniqueContentWords([cfb.title, cfb.summary, ...cfb.tags, ...cfb.entities].join(" ")));
}

/**
 * Ranks CFBs for a message by the share of the message's content words each one covers, with a
 * small bonus for tag and entity hits (curated labels are stronger evidence than prose). Ties
 * break on cfb_id so the order is deterministic. A stand-in until resolve's full-text index
 * (issue 6) takes over candidate retrieval.
 */
export function rankCfbs(message: string, cfbs: readonly TRetrievableCfb[], limit: number): TRankedCfb[] {
  const query = uniqueContentWords(message);
  if (query.length === 0) return [];
  const ranked: TRankedCfb[] = [];
  for (const cfb of cfbs) {
    const base = coverage(query, cfbVocabulary(cfb));
    if (base === 0) continue;
    const labels = new Set(uniqueContentWords([...cfb.tags, ...cfb.entities].join(" ")));
    const bonus = 0.1 * coverage(query, labels);
    ranked.push({ cfb, score: Math.min(1, base + bonus) });
  }
  ranked.sort((a, b) => b.score - a.score || a.cfb.cfb_id.localeCompare(b.cfb.cfb_id, "en", { numeric: true }));
  return ranked.slice(0, limit);
}
