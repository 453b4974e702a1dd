// Word sequences and phrase tries: whole phrases matched word by word, in time linear in the
// words (claim-statements.ts).
import { isNumber, tokens } from "./sentences";

/** "#" in a phrase stands for any number token. */
const NUMBER_SLOT = "#";
export type TTrie = { children: Map<string, TTrie>; end: boolean };
const trie = (): TTrie => ({ children: new Map(), end: false });

export function addPhrase(root: TTrie, words: readonly string[]): void {
  if (words.length === 0) return;
  let node = root;
  for (const w of words) {
    let child = node.children.get(w);
    if (child === undefined) {
      child = trie();
      node.children.set(w, child);
    }
    node = child;
  }
  node.end = true;
}

export function phraseTrie(phrases: readonly string[]): TTrie {
  const root = trie();
  for (const p of phrases) addPhrase(root, p === NUMBER_SLOT ? [NUMBER_SLOT] : phraseWords(p));
  return root;
}

/** A phrase's words: its tokens, with "#" kept as the number slot. */
export function phraseWords(phrase: string): string[] {
  const out: string[] = [];
  for (const part of phrase.split(" ")) {
    if (part === NUMBER_SLOT) out.push(NUMBER_SLOT);
    else for (const t of tokens(part)) out.push(t.word);
  }
  return out;
}

/**
 * Whether `words` is a sequence of phrases of `root` (dynamic programming over positions: each
 * position walks the trie once, so the cost is the word count times the longest phrase).
 */
export function segmentable(words: readonly string[], root: TTrie, maxWords = Number.POSITIVE_INFINITY): boolean {
  if (words.length === 0 || words.length > maxWords) return false;
  const reachable = new Uint8Array(words.length + 1);
  reachable[0] = 1;
  for (let i = 0; i < words.length; i++) {
    if (reachable[i] === 0) continue;
    let node: TTrie | undefined = root;
    for (let j = i; j < words.length && node !== undefined; j++) {
      const w = words[j] as string;
      node = node.children.get(w) ?? (isNumber(w) ? node.children.get(NUMBER_SLOT) : undefined);
      if (node?.end) reachable[j + 1] = 1;
    }
  }
  return reachable[words.length] === 1;
}

/** Whether `words` holds `head` from position `at`. */
export function startsWith(words: readonly string[], head: readonly string[], at = 0): boolean {
  if (words.length - at < head.length) return false;
  for (let i = 0; i < head.length; i++) if (words[at + i] !== head[i]) return false;
  return true;
}

export const sameWords = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((w, i) => w === b[i]);
