// tokenize() must cut and fold text exactly as the CFB index's FTS5 tokenizer
// (`unicode61 remove_diacritics 2`) does: the db looks terms up in the index vocabulary verbatim.
// Checked here against SQLite itself, on tricky strings and on every Latin / Greek / Cyrillic
// letter and combining mark.
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { STOPWORDS, tokenize } from "../src/index";

const db = new Database(":memory:");
db.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='unicode61 remove_diacritics 2')");
db.exec("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')");
afterAll(() => db.close());

/** FTS5's tokens of each text, in order. */
function fts5Tokens(texts: readonly string[]): string[][] {
  db.exec("DELETE FROM t");
  const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
  db.transaction(() => {
    texts.forEach((text, i) => {
      insert.run(i + 1, text);
    });
  })();
  const out: string[][] = texts.map(() => []);
  for (const row of db.prepare("SELECT doc, term FROM v ORDER BY doc, offset").iterate() as Iterable<{
    doc: number;
    term: string;
  }>)
    out[row.doc - 1]?.push(row.term);
  return out;
}

describe("tokenize", () => {
  it.each([
    ["Crème Brûlée, façade & naïve!", ["creme", "brulee", "facade", "naive"]],
    ["Łódź Ærø straße İstanbul", ["łodz", "ærø", "straße", "istanbul"]],
    ["e\u0301clair co\u0308operate", ["eclair", "cooperate"]],
    ["Việt Nam", ["viet", "nam"]],
    ["ΟΔΟΣ οδός Привет ёлка", ["οδοσ", "οδόσ", "привет", "ёлка"]],
    ["ﬁle ①② x²", ["ﬁle", "①②", "x²"]],
    ["a-b c_d e.f 3.14 don't", ["a", "b", "c", "d", "e", "f", "3", "14", "don", "t"]],
    ['"AND (OR NEAR( title:foo* ^x', ["and", "or", "near", "title", "foo", "x"]],
    ["日本語テスト 中文", ["日本語テスト", "中文"]],
    ["emoji😀x", ["emoji", "x"]],
    ["", []],
  ])("%j → %j", (text, tokens) => {
    expect(tokenize(text)).toEqual(tokens);
  });

  it("agrees with FTS5 on mixed text", () => {
    const texts = [
      "Reset the Postgres password (ALTER ROLE …) then restart the API.",
      "Crème Brûlée ÉCLAIR façade naïve Ångström Ærø Łódź",
      "İ ı I ß ẞ ſ µ ς ϐ ϑ ϕ ϖ ϰ ϱ ϵ",
      "e\u0301clair x \u0301 y a\u0301\u0301b ε\u0301x",
      "Việt Nam ǘ ḑ ǰ ą ę ș ț ǡ ǟ ǽ ǿ",
      "हिन्दी தமிழ் العربية עברית",
      'col:val* "quoted" NEAR(a b) -neg +pos ^start',
      "tab\tnew\nline\u00a0nbsp\u200bzero\u00adsoft",
    ];
    expect(texts.map(tokenize)).toEqual(fts5Tokens(texts));
  });

  it("agrees with FTS5 on every character from U+0001 to U+052F (Latin, Greek, Cyrillic, marks)", () => {
    // Each character inside a word and alone: whether it joins, separates, folds or vanishes.
    const texts: string[] = [];
    for (let cp = 1; cp <= 0x52f; cp++) {
      const c = String.fromCodePoint(cp);
      if (cp === 0x37f || (cp >= 0x528 && cp <= 0x52f)) continue; // added after Unicode 6.1 (FTS5's tables)
      texts.push(`q${c}q ${c}`);
    }
    const expected = fts5Tokens(texts);
    const mismatches = texts.filter((text, i) => JSON.stringify(tokenize(text)) !== JSON.stringify(expected[i]));
    expect(mismatches).toEqual([]);
  });

  it("agrees with FTS5 on the Latin Extended Additional block (U+1E00–U+1EFF)", () => {
    const texts: string[] = [];
    for (let cp = 0x1e00; cp <= 0x1eff; cp++) texts.push(`q${String.fromCodePoint(cp)}q`);
    const expected = fts5Tokens(texts);
    expect(texts.filter((text, i) => JSON.stringify(tokenize(text)) !== JSON.stringify(expected[i]))).toEqual([]);
  });
});

describe("STOPWORDS", () => {
  it("holds the FTS5 operators and common English words", () => {
    for (const w of ["and", "or", "not", "near", "a", "an", "the", "to", "of", "in", "is", "we", "this", "that"])
      expect(STOPWORDS.has(w), w).toBe(true);
  });

  it("is lower case and made of tokens", () => {
    for (const w of STOPWORDS) expect(tokenize(w)).toEqual([w]);
  });
});
