// The label reader (src/pii-label.ts): which word the text calls a number, read backwards within
// a fixed bound.
import { describe, expect, it } from "vitest";
import { labelBefore } from "../src/pii-label";

/** The label of the number at the first digit of `text`. */
const label = (text: string) => labelBefore(text, text.search(/\d/));

describe("labelBefore", () => {
  it("reads the word before the number over separators and filler words", () => {
    expect(label("SSN 523456789")).toEqual({ word: "ssn", previous: "" });
    expect(label("ssn:523456789")).toEqual({ word: "ssn", previous: "" });
    expect(label('"ssn": "523456789"')).toEqual({ word: "ssn", previous: "" });
    expect(label("{\nssn\n: \n523456789")).toEqual({ word: "ssn", previous: "" });
    expect(label("my social security number is 523456789")).toEqual({ word: "security", previous: "social" });
    expect(label("call me at 4155551212")).toEqual({ word: "call", previous: "" });
    expect(label("S/N 4155-551-2120")).toEqual({ word: "s/n", previous: "" });
    expect(label("Tel(415) 555-1212")).toEqual({ word: "tel", previous: "" });
  });

  it("no word right before the number: no label", () => {
    expect(label("523456789")).toBeNull();
    expect(label("/orders/4155551212")).toBeNull();
    expect(label("SSN, 523456789")).toBeNull(); // ',' is not a separator between a label and its number
    expect(labelBefore("x9 523456789", 3)).toBeNull(); // a word glued to a digit is not a word
  });

  it("at most three filler words, at most 64 characters back, whole words only", () => {
    expect(label("SSN number is no 523456789")?.word).toBe("ssn");
    expect(label("SSN number is no is 523456789")?.word).toBe("number"); // the fourth word, never "ssn"
    expect(label(`SSN ${" ".repeat(3)}523456789`)?.word).toBe("ssn");
    expect(label(`SSN ${" ".repeat(4)}523456789`)).toBeNull(); // more than 4 separators
    expect(label("abcdefghijklmnopqrstuvwxyz 523456789")).toBeNull(); // longer than 20 letters
    // The label word must start inside the 64-character window.
    const far = `ssn ${"number ".repeat(2)}${"x".repeat(60)}`;
    expect(labelBefore(`${far} 523456789`, far.length + 1)).toBeNull();
  });
});
