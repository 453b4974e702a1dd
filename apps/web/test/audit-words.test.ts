import { describe, expect, it } from "vitest";
import { csvField, detailLines, targetHref } from "@/components/admin/audit-words";

describe("audit log in words", () => {
  it("reads details as key: value lines, naming account ids", () => {
    const names = new Map([["u-1", "jam@solserver.local"]]);
    expect(
      detailLines({ assignee_id: "u-1", promotion_id: "PE-0001", overrides: null, role: "jam" }, (id) => names.get(id)),
    ).toEqual(["assignee id: jam@solserver.local", "promotion id: PE-0001", "role: jam"]);
    expect(detailLines(null, () => undefined)).toEqual([]);
  });

  it("links targets that have a page", () => {
    expect(targetHref("proposal", "UP-0001")).toBe("/proposals/UP-0001");
    expect(targetHref("cfb", "CFB-0002")).toBe("/cfbs/CFB-0002");
    expect(targetHref("other", "x")).toBeNull();
  });

  it("quotes CSV fields that need it and defuses spreadsheet formulas", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
  });
});
