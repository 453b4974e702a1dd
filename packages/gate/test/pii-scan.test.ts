import { describe, expect, it } from "vitest";
import { jsonStrings, luhnCheckDigit, luhnValid, scanPii } from "../src/index";

const values = (text: string, types?: Parameters<typeof scanPii>[1]) => scanPii(text, types).map((m) => m.value);
const typed = (text: string | readonly string[]) => scanPii(text).map((m) => `${m.type}:${m.value}`);

describe("EMAIL", () => {
  it("finds ordinary addresses, with their index", () => {
    expect(scanPii("Contact me at hi@example.com and I will follow up.")).toEqual([
      { type: "EMAIL", value: "hi@example.com", index: 14, source: { start: 14, end: 28 } },
    ]);
    expect(values("john.doe@example.com, ops+oncall@example.com; a_b%c-d@sub.example.co.uk")).toEqual([
      "john.doe@example.com",
      "ops+oncall@example.com",
      "a_b%c-d@sub.example.co.uk",
    ]);
  });

  it("stops at sentence punctuation and trims leading dots", () => {
    expect(values("Mail hi@example.com.")).toEqual(["hi@example.com"]);
    expect(values("(hi@example.com)")).toEqual(["hi@example.com"]);
    expect(values("...hi@example.com")).toEqual(["hi@example.com"]);
    expect(values("<mailto:Hi@Example.COM>")).toEqual(["Hi@Example.COM"]);
  });

  it("rejects what is not an address", () => {
    for (const text of [
      "user@localhost",
      "a@b.c",
      "@example.com",
      "x@-bad.com",
      "x@bad-.com",
      "x@example.c0m",
      "x@.com",
      "twitter @handle",
      "a @ b.com",
    ]) {
      expect(values(text), text).toEqual([]);
    }
  });

  it("leaves out asset names and SSH / scp remotes", () => {
    for (const text of [
      "Add logo@2x.png and icon@3x.SVG to the catalog",
      "bundle main@1x.js",
      "git clone git@github.com:acme/api.git",
      "scp build.tgz deploy@example.com:/srv/app/",
      "ssh ops@bastion.example.com:2222",
    ]) {
      expect(values(text), text).toEqual([]);
    }
    // Real TLDs that are also file extensions stay addresses, and so does a ':' before words.
    expect(values("hi@example.zip, a@b.md")).toEqual(["hi@example.zip", "a@b.md"]);
    expect(values("Mail hi@example.com: I'll answer.")).toEqual(["hi@example.com"]);
    expect(values("Mail hi@example.com:today")).toEqual(["hi@example.com"]);
    expect(values("logo@2x.png.example.com")).toEqual(["logo@2x.png.example.com"]);
  });

  it("caps the local part at 64 characters (the last 64 are reported)", () => {
    const m = scanPii(`${"a".repeat(100)}@example.com`);
    expect(m).toHaveLength(1);
    expect(m[0]?.value).toBe(`${"a".repeat(64)}@example.com`);
  });
});

describe("PHONE (US formats)", () => {
  it.each([
    "415-555-1212",
    "(415) 555-1212",
    "(415)555-1212",
    "415.555.1212",
    "415 555 1212",
    "+1 415 555 1212",
    "+1-415-555-1212",
    "+1 (415) 555-1212",
    "+14155551212",
    "1-415-555-1212",
    "1 (415) 555-1212",
  ])("finds %s", (phone) => {
    expect(scanPii(`Call ${phone} today.`)).toEqual([
      { type: "PHONE", value: phone, index: 5, source: { start: 5, end: 5 + phone.length } },
    ]);
    expect(values(phone)).toEqual([phone]);
  });

  it("finds several in one text", () => {
    expect(values("call 415-555-1212 during business hours and 212-555-0100 after hours")).toEqual([
      "415-555-1212",
      "212-555-0100",
    ]);
    expect(values("415-555-1212 212-555-0100, 415.555.1212")).toEqual(["415-555-1212", "212-555-0100", "415.555.1212"]);
  });

  it("does not match digits inside longer digit runs", () => {
    for (const text of [
      "4155551212", // ten bare digits: order numbers look like this
      "94155551212",
      "415-555-12123",
      "9415-555-1212",
      "12-415-555-1212",
      "415-555-1212-123456", // more than an extension's 1-5 digits after the dash
      "415-555-1212-99-1",
      "415.555.1212.5",
      "ID x415-555-1212",
      "415-555-1212abc",
      "+2 415 555 1212", // no country code is "2": not a phone, and its tail is not a US one
      "415--555-1212",
      "41-5555-1212",
      "2024-01-15 10:30:00",
      "v1.415.555",
    ]) {
      expect(values(text, { types: ["PHONE"] }), text).toEqual([]);
    }
  });
});

describe("CREDIT_CARD", () => {
  it.each([
    ["Visa", "4111111111111111"],
    ["Visa, spaced", "4111 1111 1111 1111"],
    ["Visa, dashed", "4111-1111-1111-1111"],
    ["Visa 13 digits", "4222222222222"],
    ["Mastercard", "5555555555554444"],
    ["Mastercard 2-series (2221)", "2221000000000009"],
    ["Mastercard 2-series (2720)", "2720 9900 0000 0007"],
    ["Amex 4-6-5", "3782 822463 10005"],
    ["Amex", "371449635398431"],
    ["Discover", "6011111111111117"],
    ["Discover 19 digits", "6011 0009 9013 9424 116"],
    ["Visa 19 digits", "4000000000000000006"],
  ])("finds %s", (_label, card) => {
    expect(luhnValid(card.replace(/[ -]/g, ""))).toBe(true);
    expect(scanPii(`Card: ${card}.`)).toEqual([
      { type: "CREDIT_CARD", value: card, index: 6, source: { start: 6, end: 6 + card.length } },
    ]);
  });

  it("finds a card followed by a CVV-like group", () => {
    expect(values("4111 1111 1111 1111 123", { types: ["CREDIT_CARD"] })).toEqual(["4111 1111 1111 1111"]);
  });

  it("does not match Luhn failures", () => {
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(values("4111111111111112 and 4111 1111 1111 1112")).toEqual([]);
  });

  it("does not match 13-digit millisecond timestamps (nor 16/19-digit micro/nano ones)", () => {
    expect(luhnValid("1732233600000")).toBe(false); // (so also the Luhn-valid ones below)
    for (const ts of ["1732233600003", "1700000000004", "1732233600000004", "1732233600000000003"]) {
      expect(luhnValid(ts), ts).toBe(true);
      expect(values(`created_at=${ts}`.replace("=", " ")), ts).toEqual([]);
    }
    expect(values('{"ts": 1732233600003}')).toEqual([]);
  });

  it("does not match digits inside words or longer numbers", () => {
    for (const text of [
      "order12345678903",
      "ABC4111111111111XYZ",
      "4111111111111111XYZ",
      "x_4111111111111111",
      "14111111111111111111", // 20 digits
      "4".repeat(40),
      "41111111111111110000",
    ]) {
      expect(values(text, { types: ["CREDIT_CARD"] }), text).toEqual([]);
    }
    expect(luhnValid("12345678903")).toBe(true); // order12345678903 is Luhn-valid: only the word rule stops it
  });

  it("requires a 4-digit first group and single separators when grouped", () => {
    expect(values("411 1111 1111 1111 1", { types: ["CREDIT_CARD"] })).toEqual([]);
    expect(values("4111  1111 1111 1111", { types: ["CREDIT_CARD"] })).toEqual([]);
    expect(values("4111 -1111 1111 1111", { types: ["CREDIT_CARD"] })).toEqual([]);
  });

  it("takes mixed single separators (a stray dash among spaces)", () => {
    for (const card of ["4111 1111-1111 1111", "5555-5555 5555-4444", "4111-1111 1111 1111", "3782-822463 10005"]) {
      expect(values(`Card ${card}, thanks`, { types: ["CREDIT_CARD"] }), card).toEqual([card]);
    }
    expect(values("4111 1111-1111 1112", { types: ["CREDIT_CARD"] })).toEqual([]); // still Luhn-checked
  });

  it("finds a 13-digit card grouped 4-4-4-1, and only that short last group", () => {
    expect(values("Old Visa: 4222 2222 2222 2.")).toEqual(["4222 2222 2222 2"]);
    expect(values("card 4835-8715-0636-1 closed")).toEqual(["4835-8715-0636-1"]);
    expect(values("4222 2222 2222 3")).toEqual([]); // Luhn
    expect(luhnValid("42222222222222")).toBe(false);
    // A 1-digit group anywhere else is not a card's: 4-4-1-4, and 4-4-4-4-1 keeps just the 16 digits.
    expect(values("4222 2222 2 2222", { types: ["CREDIT_CARD"] })).toEqual([]);
    expect(values("4111 1111 1111 1111 5", { types: ["CREDIT_CARD"] })).toEqual(["4111 1111 1111 1111"]);
  });

  it("leaves out Luhn-valid numbers that are something else", () => {
    expect(luhnValid("490154203237518")).toBe(true);
    expect(luhnValid("8901410321111851072")).toBe(true);
    expect(luhnValid("7001234567890123")).toBe(true);
    for (const text of [
      "IMEI: 490154203237518", // IMEIs carry a Luhn digit
      "My IMEI is 356938035643809.",
      "ICCID 8901410321111851072", // so do SIM card numbers (and start with 89)
      "printed on the SIM: 8901410321111851072",
      "Loyalty number 7001 2345 6789 0123 earned 40 points.",
      "Tracking number is 4111111111111111", // what the text calls it decides
      "IBAN DE89 3704 0044 0532 0130 00", // an IBAN's digit groups continue "DE89"
      "USPS 9400 1118 9922 3397 3271 09 delivered", // 5+ groups of 4, more than 19 digits
    ]) {
      expect(values(text, { types: ["CREDIT_CARD"] }), text).toEqual([]);
    }
    expect(luhnValid("9400111899223397")).toBe(false);
    // The same numbers unlabelled are cards when they are card-shaped: the label is what decides.
    expect(values("Card 4111111111111111 and 7001 2345 6789 0123")).toEqual([
      "4111111111111111",
      "7001 2345 6789 0123",
    ]);
    // A 16-digit card followed by a four-digit group is not a tracking number: only 5+ groups are.
    expect(values("4111 1111 1111 1111 2027", { types: ["CREDIT_CARD"] })).toEqual(["4111 1111 1111 1111"]);
    // A date before a card does not make the card continue a token.
    expect(values("exp 12/27 4111 1111 1111 1111", { types: ["CREDIT_CARD"] })).toEqual(["4111 1111 1111 1111"]);
  });

  it("an unbroken 13-digit ISBN (978/979) is not a card, other 13-digit numbers may be", () => {
    // 9780306406157 fails Luhn anyway; build Luhn-valid 978/979 numbers to test the rule itself.
    for (const payload of ["978030640615", "979100000000"]) {
      const isbnLike = payload + luhnCheckDigit(payload);
      expect(luhnValid(isbnLike)).toBe(true);
      expect(values(`code ${isbnLike}`, { types: ["CREDIT_CARD"] }), isbnLike).toEqual([]);
    }
    expect(values("code 4222222222222", { types: ["CREDIT_CARD"] })).toEqual(["4222222222222"]);
  });
});

describe("mixed text and options", () => {
  it("reports each value once, in order, the longest at a position", () => {
    expect(typed("mail 415-555-1212@example.com or card 4111111111111111 or 212-555-0100")).toEqual([
      "EMAIL:415-555-1212@example.com",
      "CREDIT_CARD:4111111111111111",
      "PHONE:212-555-0100",
    ]);
  });

  it("scans only the requested types", () => {
    const text = "a@example.com 415-555-1212 4111111111111111";
    expect(typed(text)).toHaveLength(3);
    expect(scanPii(text, { types: ["PHONE"] }).map((m) => m.type)).toEqual(["PHONE"]);
    expect(scanPii(text, { types: [] })).toEqual([]);
  });

  it("allowlist: exact values are case-insensitive; phones and cards compare by digits", () => {
    const text =
      "Write Support@Example.com or ops@example.com, call (415) 555-1212 or 212-555-0100, card 4111 1111 1111 1111";
    const allowlist = ["support@example.com", "+1 415 555 1212", "4111-1111-1111-1111"];
    expect(typed(text)).toHaveLength(5);
    expect(scanPii(text, { allowlist }).map((m) => m.value)).toEqual(["ops@example.com", "212-555-0100"]);
  });

  it("allowlist: *suffix matches values ending with it", () => {
    const text = "a@example.com b@corp.example.com c@other.org 415-555-1212 212-555-0100";
    expect(values(text)).toHaveLength(5);
    expect(scanPii(text, { allowlist: ["*@example.com"] }).map((m) => m.value)).toEqual([
      "b@corp.example.com",
      "c@other.org",
      "415-555-1212",
      "212-555-0100",
    ]);
    expect(scanPii(text, { allowlist: ["*example.com", "*1212"] }).map((m) => m.value)).toEqual([
      "c@other.org",
      "212-555-0100",
    ]);
    expect(scanPii(text, { allowlist: ["*"] })).toEqual([]);
  });

  it("empty text has nothing", () => {
    expect(scanPii("")).toEqual([]);
  });
});

describe("JSON text: read as its decoded strings (jsonStrings, as the PII policy does)", () => {
  const inJson = (json: string) => typed(jsonStrings(json) ?? json);

  it("finds phones and cards right after an escaped newline, tab or control character", () => {
    const json = JSON.stringify({
      assistant_text: "Call the owner:\n415-555-1212 today, or pay with\t4111111111111111.",
    });
    expect(inJson(json)).toEqual(["PHONE:415-555-1212", "CREDIT_CARD:4111111111111111"]);
    expect(inJson(JSON.stringify(["x\r(415) 555-1212\f4111 1111 1111 1111\b5555555555554444"]))).toEqual([
      "PHONE:(415) 555-1212",
      "CREDIT_CARD:4111 1111 1111 1111",
      "CREDIT_CARD:5555555555554444",
    ]);
    // The measurement: \u0001 in the JSON text glued its hex digits to the numbers.
    const measured = JSON.stringify({
      t: "Call the owner at\u0001415-555-1212 or charge card\u00014111111111111111 today.",
    });
    expect(measured).toContain("\\u0001415");
    expect(typed(measured)).toEqual([]);
    expect(inJson(measured)).toEqual(["PHONE:415-555-1212", "CREDIT_CARD:4111111111111111"]);
  });

  it("an escaped backslash before a letter leaves it a letter of a word", () => {
    // The text is \n415…: a backslash, then the word "n415-555-1212".
    expect(inJson(JSON.stringify(["\\n415-555-1212 and \\n4111111111111111"]))).toEqual([]);
    expect(typed("plain n415-555-1212 and t4111111111111111")).toEqual([]);
  });

  it("keys, numbers and the text between literals are read too", () => {
    expect(inJson('{"415-555-1212": 1, "n": 4111111111111111, "m": [6011111111111117]}')).toEqual([
      "PHONE:415-555-1212",
      "CREDIT_CARD:4111111111111111",
      "CREDIT_CARD:6011111111111117",
    ]);
  });

  it("is JSON only when it looks like an object or array with well-formed string literals", () => {
    expect(jsonStrings('{"a": "x\\u0031"}')).toEqual(["{", "a", ": ", "x1", "}"]);
    expect(jsonStrings('  [ "a" ]')).toEqual(["  [ ", "a", " ]"]);
    expect(jsonStrings("[1, 2]")).toEqual(["[1, 2]"]);
    for (const text of [
      '"a string"',
      "plain text",
      "4111111111111111",
      '{"open',
      '{"bad \\q escape"}',
      '["raw\nnewline"]',
    ]) {
      expect(jsonStrings(text), text).toBeNull();
    }
  });
});
