// Typing slips (spelling.ts): one edit toward a catalog word, never toward a common English word
// or an ambiguous pair, and the whole engine reads the mended word.
import { describe, expect, it } from "vitest";
import { Speller } from "../src/context/spelling";
import { drive, last } from "./drive";

const speller = new Speller([
  "compressor",
  "thermostat",
  "sputters",
  "capacitor",
  "blown",
  "lights",
  "tripped",
  "trapped",
]);

describe("Speller", () => {
  it.each([
    ["compresser", "compressor"], // substitution
    ["thermostatt", "thermostat"], // insertion
    ["capacitr", "capacitor"], // deletion
    ["sputtres", "sputters"], // adjacent swap
    ["blwon", "blown"], // swap in a five-letter word
  ])("%s → %s", (slip, word) => {
    expect(speller.correct(slip)).toBe(word);
  });

  it.each([
    ["nights", "a common English word is never mended into a catalog word ('lights')"],
    ["theres", "contractions are common words too"],
    ["blow", "words under five letters are left alone"],
    ["trepped", "two catalog words one edit away ('tripped', 'trapped'): ambiguous, left alone"],
    ["compressorss", "two edits away is another word"],
    ["thermostat", "a catalog word is itself"],
  ])("leaves %s (%s)", (word) => {
    expect(speller.correct(word)).toBe(word);
  });

  it("reads a 100,000-letter word in linear time", () => {
    const long = "a".repeat(100_000);
    expect(speller.correct(long)).toBe(long);
  });
});

describe("the engine reads mended words", () => {
  it("a thermostat and a compressor typed with slips are still understood", () => {
    const turn = last(
      drive("roof_ac", ["ac problem", "power ok", "thermastat calls", "fan runs", "compresser wont start"]),
    );
    expect(turn.state.evidence).toMatchObject({ thermostat_cool: "calls", compressor: "no_start" });
    expect(turn.state.active_step).toBe("capacitor");
  });

  it("a hazard typed with a slip still stops the case", () => {
    expect(last(drive("furnace", ["furnace problem", "I smell proapne"])).state.mode).toBe("safety_stop");
  });
});
