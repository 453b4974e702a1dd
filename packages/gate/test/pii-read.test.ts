// What the PII scanner reads (pii-read.ts): NFKC, dashes, control and invisible characters as
// separators, lone surrogates, positions mapped back to the input, and JSON read as its decoded
// strings. The neighbour-by-neighbour proof that PII is found is in pii-neighbours.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonStrings, readableText, scanPii } from "../src/index";
import { isFormatChar } from "../src/pii-read";

const read = (text: string) => readableText(text).text;

describe("readableText", () => {
  it("returns plain ASCII text as it is", () => {
    const text = "Call 415-555-1212\tor\nwrite\r\n";
    const r = readableText(text);
    expect(r.text).toBe(text);
    expect(r.source(5, 17)).toEqual({ start: 5, end: 17 });
    expect(r.joinable).toBe(false);
  });

  it("folds compatibility forms (NFKC): full-width, mathematical digits, wide spaces", () => {
    expect(read("４１５-５５５-１２１２")).toBe("415-555-1212");
    expect(read("ｊａｎｅ＠ｅｘａｍｐｌｅ．ｃｏｍ")).toBe("jane@example.com");
    expect(read("𝟒𝟏𝟓\u00a0555\u3000１２１２")).toBe("415 555 1212");
    expect(read("café")).toBe("café");
    expect(read("cafe\u0301")).toBe("café"); // composed, as NFKC of the whole text
  });

  it("reads Unicode dashes as '-'", () => {
    expect(read("415\u2013555\u20121212 and 415\u2212555\u20101212 and 415\uFE63555\uFF0D1212")).toBe(
      "415-555-1212 and 415-555-1212 and 415-555-1212",
    );
  });

  it("reads a run of control or format characters as one space", () => {
    expect(read("at\u0001415-555-1212")).toBe("at 415-555-1212");
    expect(read("card\u0001\u200b\u00854111111111111111")).toBe("card 4111111111111111");
    expect(read("x\u200dy1")).toBe("x y1"); // two letters: a space in this reading…
    expect(readableText("x\u200dy1", { joinRuns: true }).text).toBe("xy1"); // …nothing in the other
  });

  it("lets the run vanish where a space would double a separator, and at the ends", () => {
    expect(read("415-\u200b555\u200c-1212")).toBe("415-555-1212");
    expect(read("(\u2060415\u00ad) 555\u200b 1212")).toBe("(415) 555 1212");
    expect(read("jane\u200b@example\u200b.com")).toBe("jane@example.com");
    expect(read("\ufeffhello\u200b")).toBe("hello");
    expect(read("at\u200b(415)")).toBe("at (415)"); // before '(' it still separates
  });

  it("marks a run between two digits or two letters as joinable, and joins it on request", () => {
    const split = "41\u200b11111111111111";
    expect(readableText(split)).toMatchObject({ text: "41 11111111111111", joinable: true });
    expect(readableText(split, { joinRuns: true }).text).toBe("4111111111111111");
    expect(readableText("a\u200b1").joinable).toBe(false);
  });

  it("reads a lone surrogate as a space, and keeps surrogate pairs", () => {
    expect(read("x\ud800415-555-1212\udc00y")).toBe("x 415-555-1212 y");
    expect(read("😀\u200b1")).toBe("😀 1");
  });

  it("maps positions back to the input", () => {
    const text = "Call\u0001\u0002415-\u200b555-1212 now";
    const r = readableText(text);
    expect(r.text).toBe("Call 415-555-1212 now");
    const at = r.text.indexOf("415");
    const source = r.source(at, at + "415-555-1212".length);
    expect(text.slice(source.start, source.end)).toBe("415-\u200b555-1212");
    expect(r.indexAt(source.start)).toBe(at);
    // A character NFKC changed maps to its segment (the ASCII character before it and the run).
    const wide = readableText("x ４１５-555-1212");
    expect(wide.source(2, 5)).toEqual({ start: 1, end: 5 });
  });

  it("the Cf table is exactly Unicode's general category Cf (of this Node's Unicode)", () => {
    const cf = /\p{Cf}/u;
    const differ: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (cf.test(String.fromCodePoint(cp)) !== isFormatChar(cp)) differ.push(cp.toString(16));
    }
    expect(differ).toEqual([]);
  });

  it("is NFKC of the whole text, for any text without invisible characters or dashes (property)", () => {
    const special = /[\p{Cc}\p{Cf}\p{Cs}\u2010-\u2015\u2212]/u;
    const piece = fc.oneof(
      fc.string({ unit: "binary", maxLength: 8 }),
      fc.constantFrom("e\u0301", "ｅ\u0301", "１", "ﬃ", "①", "A\u030a", "\u1100\u1161", "x", " ", "4"),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), (parts) => {
        const text = parts.join("");
        fc.pre(!special.test(text.normalize("NFKC")) && !special.test(text));
        return readableText(text).text === text.normalize("NFKC");
      }),
      { numRuns: 2000 },
    );
  });

  it("maps every readable unit inside the input, in order (property)", () => {
    const piece = fc.constantFrom("a", "4", " ", "-", "\u200b", "\u0001", "\ud800", "４", "é", "ﬃ", "😀", "\u2013");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        const r = readableText(text);
        let last = 0;
        for (let j = 0; j < r.text.length; j++) {
          const { start, end } = r.source(j, j + 1);
          if (start < last || end > text.length || start >= end) return false;
          last = start;
        }
        return true;
      }),
      { numRuns: 2000 },
    );
  });
});

describe("jsonStrings", () => {
  it("reads every string of a JSON value, keys included, decoded (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = JSON.stringify({ v: value });
        const strings = new Set(jsonStrings(json));
        const all: string[] = [];
        const walk = (v: unknown): void => {
          if (typeof v === "string") all.push(v);
          else if (Array.isArray(v)) v.forEach(walk);
          else if (v !== null && typeof v === "object") {
            for (const [k, inner] of Object.entries(v)) {
              all.push(k);
              walk(inner);
            }
          }
        };
        walk(value);
        return all.every((s) => strings.has(s));
      }),
    );
  });

  it("reads a 1 MB envelope of escapes to its strings", () => {
    const json = JSON.stringify({ a: "\u0001".repeat(500_000), b: Array.from({ length: 20_000 }, () => "x") });
    expect(jsonStrings(json)?.length).toBeGreaterThan(20_000);
  });
});

describe("scanPii reads both ways where invisible characters split digits or letters", () => {
  it("finds a card split irregularly, an address split inside a word, and two cards one run apart", () => {
    expect(scanPii("pay 41\u200b11111111111111 now").map((m) => m.value)).toEqual(["4111111111111111"]);
    expect(scanPii("write jane@exam\u200bple.com").map((m) => m.value)).toEqual(["jane@example.com"]);
    expect(scanPii("4111111111111111\u200b5555555555554444").map((m) => m.value)).toEqual([
      "4111111111111111",
      "5555555555554444",
    ]);
  });

  it("reports a value the second reading finds where it starts in the first, once", () => {
    const text = "a\u0001b then 4111 1111 1111 11\u200b11";
    const [match, ...more] = scanPii(text);
    expect(more).toEqual([]);
    expect(match?.value).toBe("4111 1111 1111 1111");
    expect(readableText(text).text.slice(match?.index)).toBe("4111 1111 1111 11 11");
    expect(text.slice(match?.source.start, match?.source.end)).toBe("4111 1111 1111 11\u200b11");
  });
});
