// changeCues(): language saying a practice changed ("no longer", "replaced by", "deprecated"), in
// English and the commonest forms of German, French, Spanish, Portuguese and Dutch. A proposal
// using it about a CFB contradicts the CFB (CONTRADICTS → review), so a false positive costs a
// reviewer's time and a miss lets a changed practice overwrite the old one silently. It runs on
// every candidate's text, so it must stay linear in the text's length.

import { tokens as tokenize } from "@solserver/text";
import { describe, expect, it } from "vitest";
import { CHANGE_CUES, changeCues, type TChangeCue } from "../src/index";
import { changeCuesOf } from "../src/text/change-cues";

const cues = (text: string) => [...changeCues(text)].sort();

describe("changeCues", () => {
  it("has three kinds of change", () => {
    expect(CHANGE_CUES).toEqual(["NEGATION", "REPLACEMENT", "RETIREMENT"]);
  });

  it.each<[string, TChangeCue]>([
    // English
    ["We no longer use Jenkins for releases.", "NEGATION"],
    ["No more manual deploys on Fridays.", "NEGATION"],
    ["Jenkins is not used anymore.", "NEGATION"],
    ["Jenkins is not used any more.", "NEGATION"],
    ["We stopped using Jenkins last year.", "NEGATION"],
    ["Jenkins was replaced by GitHub Actions.", "REPLACEMENT"],
    ["The old runbook is superseded by this page.", "REPLACEMENT"],
    ["We use GitHub Actions instead of Jenkins.", "REPLACEMENT"],
    ["The team switched to GitHub Actions.", "REPLACEMENT"],
    ["We migrated from Jenkins in March.", "REPLACEMENT"],
    ["We chose GitHub Actions in favour of Jenkins.", "REPLACEMENT"],
    ["Jenkins is deprecated.", "RETIREMENT"],
    ["The Jenkins server was decommissioned.", "RETIREMENT"],
    ["Jenkins was phased out.", "RETIREMENT"],
    ["The legacy VPN is retired.", "RETIREMENT"],
    // German
    ["Wir nutzen Jenkins nicht mehr.", "NEGATION"],
    ["Wir nutzen keinen Jenkins mehr.", "NEGATION"],
    ["Es gibt keine Backups mehr auf Band.", "NEGATION"],
    ["Jenkins wurde durch GitHub Actions ersetzt.", "REPLACEMENT"],
    ["Wir nutzen GitHub Actions statt Jenkins.", "REPLACEMENT"],
    ["Jenkins wurde abgeschafft.", "RETIREMENT"],
    ["Der Jenkins-Server wurde eingestellt.", "RETIREMENT"],
    // French
    ["Nous n'utilisons plus Jenkins.", "NEGATION"],
    ["Nous ne l'utilisons plus pour les versions.", "NEGATION"],
    ["Jenkins est remplacé par GitHub Actions.", "REPLACEMENT"],
    ["La configuration est remplacée par un fichier.", "REPLACEMENT"],
    ["Nous utilisons GitHub Actions au lieu de Jenkins.", "REPLACEMENT"],
    // Spanish
    ["Ya no usamos Jenkins.", "NEGATION"],
    ["Jenkins fue reemplazado por GitHub Actions.", "REPLACEMENT"],
    ["Usamos GitHub Actions en lugar de Jenkins.", "REPLACEMENT"],
    ["Usamos GitHub Actions en vez de Jenkins.", "REPLACEMENT"],
    ["Jenkins fue descontinuado.", "RETIREMENT"],
    // Portuguese
    ["Não usamos mais o Jenkins.", "NEGATION"],
    ["Já não usamos o Jenkins.", "NEGATION"],
    ["O Jenkins foi substituído pelo GitHub Actions.", "REPLACEMENT"],
    ["Usamos GitHub Actions em vez do Jenkins.", "REPLACEMENT"],
    ["O Jenkins foi descontinuado.", "RETIREMENT"],
    // Dutch
    ["We gebruiken geen Jenkins meer.", "NEGATION"],
    ["We gebruiken Jenkins niet meer.", "NEGATION"],
    ["Jenkins is vervangen door GitHub Actions.", "REPLACEMENT"],
    ["We gebruiken GitHub Actions in plaats van Jenkins.", "REPLACEMENT"],
    ["Jenkins is uitgefaseerd.", "RETIREMENT"],
    ["De oude VPN is afgeschaft.", "RETIREMENT"],
  ])("%j is %s", (text, cue) => {
    expect(cues(text)).toEqual([cue]);
  });

  it("finds every kind in one text", () => {
    expect(cues("We no longer run Jenkins: it was replaced by Actions, and the old VPN is deprecated.")).toEqual([
      "NEGATION",
      "REPLACEMENT",
      "RETIREMENT",
    ]);
  });

  it("folds case and diacritics as the index does", () => {
    expect(cues("JENKINS WAS REPLACED BY ACTIONS")).toEqual(["REPLACEMENT"]);
    expect(cues("Jenkins est REMPLACÉ")).toEqual(["REPLACEMENT"]);
    expect(cues("NÃO usamos MAIS o Jenkins")).toEqual(["NEGATION"]);
  });

  it.each([
    "We do not use Jenkins for releases.", // a plain "not" is how practices are stated, not changed
    "Jenkins is not deployed on Sundays and does not run nightly builds.",
    "Replace the disk when the array reports a failure.", // an instruction, not a change
    "No one may push to main; more reviewers are better.", // "no" and "more" apart
    "The longer the timeout, the fewer retries we need.",
    "Wir nutzen Jenkins für alle Releases.",
    "Nous utilisons Jenkins pour les versions.",
    "Il ne faut pas oublier de redémarrer le service et de vérifier les journaux plus tard.", // ne … plus too far apart
    "Die Tabelle hat keinen Index, deshalb braucht die Abfrage bei großen Kunden viel mehr Zeit.",
    "",
  ])("finds nothing in %j", (text) => {
    expect(cues(text)).toEqual([]);
  });

  it("reads a split negation only within a few words", () => {
    expect(cues("ne a b c plus")).toEqual(["NEGATION"]); // 4 words on
    expect(cues("ne a b c d plus")).toEqual([]); // 5
    expect(cues("kein a b mehr")).toEqual(["NEGATION"]); // 3 words on
    expect(cues("kein a b c mehr")).toEqual([]); // 4
    expect(cues("plus ne")).toEqual([]); // the order matters
  });

  it("gives the same over tokens already cut", () => {
    const text = "Wir nutzen keinen Jenkins mehr; it was replaced by Actions.";
    expect(changeCuesOf(tokenize(text))).toEqual(changeCues(text));
  });

  it.each([
    ["prose with cues", "We no longer deploy on Fridays; Jenkins was replaced by Actions. "],
    ["split-negation openers that never close", "ne n nao geen kein keine "],
    ["openers and closers interleaved", "ne plus kein mehr geen meer nao mais "],
    ["one long word", "x"],
  ])("reads 100 kB of %s to an answer", (_, unit) => {
    const text = unit.repeat(Math.ceil(100_000 / unit.length));
    expect(text.length).toBeGreaterThanOrEqual(100_000);
    // Its regexes are proved linear (test/linear-regexes.test.ts); the test's timeout bounds the rest.
    expect(changeCues(text)).toBeTypeOf("object");
  });
});
