// The words text similarity counts, the same for a proposal, a CFB and a chat message: the index's
// tokens (tokenize(): Unicode letters and digits, folded as FTS5 folds them), without function
// words, reduced to their Porter stem so that "rotated", "rotate" and "rotation" are one word and
// "backups" matches "backup". Deterministic and pure; the candidate index stores these terms too,
// so what the index finds is exactly what the score counts.
import { LRUCache } from "lru-cache";
import { stemmer } from "stemmer";
import { STOPWORDS } from "../stopwords";
import { tokenize } from "../tokenize";

// Function words that say nothing about a subject, beyond the query stopwords (which must stay
// FTS-safe and small): English fillers a model writes ("now", "still", "going forward") and the
// commonest function words of the languages proposals arrive in besides English (de, fr, es, nl,
// pt), so that two texts in one language do not look alike for their articles alone.
const MORE_STOPWORDS = `
  also already always just now only still then very via per each every other others another same
  get gets got going forward new note please let lets make makes made need needs one ones two
  der die das den dem des ein eine einer eines und oder ist sind wird werden mit für von zu im
  nicht auf bei aus nach vor wie auch nur noch
  le la les un une des du de et ou est sont avec pour par dans sur pas plus au aux ce cette qui que
  el los las una unos unas y o es son con por para en del al se lo no más
  het een en of zijn met voor van op te niet ook
  os um uma uns umas e ou é são com para por em do da dos das não mais
`;
// Folded as tokens are ("für" is looked up as "fur"), so accented function words match.
const ANALYZER_STOPWORDS: ReadonlySet<string> = new Set([...STOPWORDS, ...tokenize(MORE_STOPWORDS)]);

// Abbreviations and alternative spellings a team uses for the same thing, so that "k8s" meets
// "Kubernetes" and "prod db" meets "production database". Only unambiguous, widespread ones: a
// wrong alias would make unrelated texts look alike.
const ALIASES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    k8s: "kubernetes",
    ops: "operations",
    kube: "kubernetes",
    postgres: "postgresql",
    pg: "postgresql",
    psql: "postgresql",
    "2fa": "mfa",
    db: "database",
    dbs: "databases",
    prod: "production",
    stg: "staging",
    env: "environment",
    envs: "environments",
    config: "configuration",
    configs: "configurations",
    repo: "repository",
    repos: "repositories",
    infra: "infrastructure",
    eng: "engineering",
    mgr: "manager",
    min: "minutes",
    mins: "minutes",
    hr: "hours",
    hrs: "hours",
    sec: "seconds",
    secs: "seconds",
    gh: "github",
    js: "javascript",
    ts: "typescript",
    creds: "credentials",
    acked: "acknowledged",
    ack: "acknowledge",
    acks: "acknowledges",
  }),
);

const DIGITS = /^\p{N}+$/u;
const LATIN_LOWER = /^[a-z]+$/;

/** Tokens shorter than this say nothing alone ("a", "x"), except digits ("90" vs "60" days). */
const MIN_LENGTH = 2;

// Stems are memoised: a knowledge base reuses a few thousand words, and the Porter rules cost
// more than a map lookup. Bounded; cleared when full.
const STEMS = new Map<string, string>();
const STEM_CACHE_LIMIT = 100_000;

/** A token's stem, after its alias; non-Latin tokens are kept as they are (the Porter rules are English). */
function stem(token: string): string {
  let out = STEMS.get(token);
  if (out === undefined) {
    const word = ALIASES.get(token) ?? token;
    out = LATIN_LOWER.test(word) ? stemmer(word) : word;
    if (STEMS.size >= STEM_CACHE_LIMIT) STEMS.clear();
    STEMS.set(token, out);
  }
  return out;
}

/** Whether an index token is a function word (of any language the analyser knows). */
export function isStopword(token: string): boolean {
  return ANALYZER_STOPWORDS.has(token);
}

/** The analysed term of one index token, or null for a function word or a lone letter. */
export function analyzeToken(token: string): string | null {
  if (ANALYZER_STOPWORDS.has(token)) return null;
  if (token.length < MIN_LENGTH && !DIGITS.test(token)) return null;
  return stem(token);
}

/** The analysed terms of `text`, in order, repeats kept. */
export function analyzeTerms(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    const term = analyzeToken(token);
    if (term !== null) out.push(term);
  }
  return out;
}

// Term sets of texts seen again (a hot CFB is ranked on every turn that finds it): a memo.
const TERM_SETS = new LRUCache<string, ReadonlySet<string>>({ max: 8192 });

/** termSet of one text, memoised (bounded LRU); the set must not be changed. */
export function cachedTermSet(text: string): ReadonlySet<string> {
  let set = TERM_SETS.get(text);
  if (!set) {
    set = termSet(text);
    TERM_SETS.set(text, set);
  }
  return set;
}

// Adjacent pairs of analysed terms ("postmortem templat"), memoised like term sets.
const BIGRAMS = new LRUCache<string, ReadonlySet<string>>({ max: 8192 });

/** The text's adjacent analysed-term pairs, as "first second" (function words skipped). */
export function termBigrams(text: string): ReadonlySet<string> {
  let set = BIGRAMS.get(text);
  if (!set) {
    const terms = analyzeTerms(text);
    const pairs = new Set<string>();
    for (let i = 0; i + 1 < terms.length; i++) pairs.add(`${terms[i]} ${terms[i + 1]}`);
    set = pairs;
    BIGRAMS.set(text, set);
  }
  return set;
}

/** The distinct analysed terms of all `texts`. */
export function termSet(...texts: readonly string[]): Set<string> {
  const set = new Set<string>();
  for (const text of texts) for (const term of analyzeTerms(text)) set.add(term);
  return set;
}
