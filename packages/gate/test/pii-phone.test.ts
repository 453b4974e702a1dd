// Phone forms beyond the classic US ones (src/pii-phone.ts): seven unbroken digits after the
// area code, extensions, labelled bare digits, numbers glued to "Tel", full-width digits, and
// international numbers with a country code; and what stays out.
import { describe, expect, it } from "vitest";
import { scanPii } from "../src/index";

const phones = (text: string) => scanPii(text, { types: ["PHONE"] }).map((m) => m.value);

describe("PHONE: more US forms", () => {
  it.each([
    ["415-5551212", "415-5551212"],
    ["(415) 5551212", "(415) 5551212"],
    ["415 5551212", "415 5551212"],
    ["1-415-5551212", "1-415-5551212"],
    ["Tel(415) 555-1212", "(415) 555-1212"],
    ["Tel:415-555-1212", "415-555-1212"],
    ["Tel.+1 415 555 0100", "+1 415 555 0100"],
    ["mobile:(619)555-0190", "(619)555-0190"],
    ["Call ４１５-５５５-１２１２ now", "415-555-1212"],
    ["Mobile ４１５ ５５５ １２１２", "415 555 1212"],
    ["+1 4155551212", "+1 4155551212"],
  ])("%s", (text, phone) => {
    expect(phones(text)).toEqual([phone]);
  });

  it("seven unbroken digits need a NANP area and exchange (first digit 2-9), and no dot", () => {
    for (const text of ["123-4567890", "415-0551212", "415-1551212", "415.5551212", "v1.415.5551212", "415-55512123"]) {
      expect(phones(text), text).toEqual([]);
    }
  });
});

describe("PHONE: extensions are not part of the value", () => {
  it.each([
    ["415-555-1212-99", "415-555-1212"],
    ["415-555-1212-12345", "415-555-1212"],
    ["415-555-1212 x204", "415-555-1212"],
    ["415-555-1212x204", "415-555-1212"],
    ["(718) 555-0134 ext. 12", "(718) 555-0134"],
    ["972-555-0119 ext 4521", "972-555-0119"],
    ["972-555-0119ext4521", "972-555-0119"],
    ["(415) 555-1212-7.", "(415) 555-1212"],
  ])("%s", (text, phone) => {
    expect(phones(`Direct line ${text}`)).toEqual([phone]);
  });

  it("but a longer tail makes it another number", () => {
    for (const text of [
      "415-555-1212-123456",
      "415-555-1212-99-1",
      "415-555-1212-99.5",
      "415-555-1212-99x",
      "415.555.1212.5",
      "415-555-1212xyz",
      "415-555-1212x",
      "415-555-1212x1234567",
      "212-4455667-8899001",
    ]) {
      expect(phones(text), text).toEqual([]);
    }
  });
});

describe("PHONE: ten bare digits only when labelled as a phone", () => {
  it.each([
    ["Tel:4155551212", "4155551212"],
    ["Phone: 2065550123", "2065550123"],
    ["phone number: 14155551212", "14155551212"],
    ["call me at 3125550147 tomorrow", "3125550147"],
    ["Fax 4155551299.", "4155551299"],
    ["WhatsApp: 2025550189", "2025550189"],
  ])("%s", (text, phone) => {
    expect(phones(text)).toEqual([phone]);
  });

  it("not unlabelled, not with another label, not NANP-invalid", () => {
    for (const text of [
      "4155551212",
      "Order number 4155551212",
      "Epoch 1705314645",
      "Tracking ID 7345550199",
      "/api/orders/4155551212/items",
      "Tel: 1234567890", // area code starts with 1
      "Tel: 4150551212", // exchange starts with 0
      "Tel: 24155551212", // eleven digits not starting with 1
      "Tel: 415555121",
      "Call the owner 4155551212", // "owner" is the label, not "call"
    ]) {
      expect(phones(text), text).toEqual([]);
    }
  });
});

describe("PHONE: international numbers with a country code", () => {
  it.each([
    "+27 21 555 1234",
    "+44 20 7946 0958",
    "+49 30 1234567",
    "+44 (0)20 7946 0958",
    "+49 (0)30 1234567",
    "+49 (30) 1234567",
    "+33 1 23 45 67 89",
    "+33.1.23.45.67.89",
    "+91 98765 43210",
    "+81 3-1234-5678",
    "+82-2-312-3456",
    "+7 495 123-45-67",
    "+353 1 234 5678",
    "+852 2123 4567",
    "+971 4 123 4567",
    "+55 11 91234-5678",
    "+43 1 234567890",
    "+376 123 456",
    "+442079460958",
    "+4915112345678",
    "+27 415 555 1212",
  ])("finds %s", (phone) => {
    expect(scanPii(`Call ${phone}, thanks`)).toEqual([
      { type: "PHONE", value: phone, index: 5, source: { start: 5, end: 5 + phone.length } },
    ]);
    expect(phones(`${phone}.`)).toEqual([phone]);
  });

  it("full-width digits and plus", () => {
    expect(phones("Tel. ＋４４ ２０ ７９４６ ０９５８")).toEqual(["+44 20 7946 0958"]);
  });

  it("takes groups up to 15 digits in all, then stops", () => {
    expect(phones("+44 20 7946 0958 1234 more")).toEqual(["+44 20 7946 0958"]);
    expect(phones("+27 11 555 0199 and +27 31 555 0188")).toEqual(["+27 11 555 0199", "+27 31 555 0188"]);
  });

  it("rejects what is not an international number", () => {
    for (const text of [
      "+2 415 555 1212", // no country code is "2"
      "+37.7749 -122.4194", // "37" is not a code; 37x needs three digits
      "+48.8566 2.3522", // dots do not mix with spaces
      "+40.7128, -74.0060",
      "+0044 20 7946 0958",
      "+12.5% growth",
      "+44 20 79", // too few digits
      "+441234567", // unbroken E.164 needs 10-15 digits
      "+4411111111111111", // 16 digits
      "+12 345 678 901", // "+1" takes the US grammar or ten national digits
      "+1 415 555", // short
      "Date: 15 Jan 2024 10:30:45 +0000",
      "UTC+05:30",
      "++44 20 7946 0958",
      "x+44 20 7946 0958",
      "+44 20 7946 0958x1234567",
      "+44 20 7946 0958.12345", // a dot + digits continues it into something else
    ]) {
      expect(phones(text), text).toEqual([]);
    }
  });
});

describe("PHONE: a US-shaped part, SKU or serial number is not a phone", () => {
  it("labelled as one", () => {
    for (const text of [
      "Part number 555-123-4567",
      "P/N 555-123-4567",
      "SKU 300-555-1234",
      "Serial No. 212-555-0147",
      "model: 800-555-1212",
    ]) {
      expect(phones(text), text).toEqual([]);
    }
  });

  it("but parentheses, a country code or another label keep it a phone", () => {
    expect(phones("Part (555) 123-4567")).toEqual(["(555) 123-4567"]);
    expect(phones("SKU +1 555 123 4567")).toEqual(["+1 555 123 4567"]);
    expect(phones("Parts desk 555-123-4567")).toEqual(["555-123-4567"]);
    expect(phones("call about the part at 555-123-4567")).toEqual(["555-123-4567"]);
    expect(phones("SN at 555-123-4567")).toEqual(["555-123-4567"]);
  });
});
