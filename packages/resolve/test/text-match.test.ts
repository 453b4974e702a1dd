// The text measures: how much a proposal says what a CFB says (Dice of analysed terms, calibrated
// so a restatement is a full match), which of its sentences the CFB does not support (the facts
// it adds), what is compared across languages (numbers, names and cognates), and whether two CFBs are
// one written twice. They read the two texts only, never corpus statistics.
import { describe, expect, it, vi } from "vitest";
import {
  cachedTextProfile,
  dice,
  matchText,
  PAIR_DICE,
  SENTENCE_SUPPORT,
  sameFacts,
  TEXT_FULL,
  type TTextProfile,
  textProfile,
} from "../src/index";
import { CROSS_LANGUAGE_TRIGRAMS_FULL } from "../src/text/text-match";

vi.mock("../src/decision-rule", async () => ({ DECISION_RULE: (await import("./seed-rule")).SEED_RULE }));

/** A body without a title, so the terms are exactly the body's. */
const body = (text: string, title = ""): TTextProfile => textProfile(title, text);

describe("dice", () => {
  it.each([
    [[], [], 0],
    [["a"], [], 0],
    [["a", "b"], ["a", "b"], 1],
    [["a", "b"], ["b", "c"], 0.5],
    [["a", "b", "c", "d"], ["a"], 0.4],
    [["a"], ["b"], 0],
  ])("%j / %j is %d", (a, b, expected) => {
    expect(dice(new Set(a), new Set(b))).toBe(expected);
    expect(dice(new Set(b), new Set(a))).toBe(expected);
  });
});

describe("matchText: text similarity", () => {
  it("is calibrated so that Dice TEXT_FULL = 0.6 is a full match", () => {
    expect(TEXT_FULL).toBe(0.6);
    const p = body("Alpha bravo charlie delta echo.");
    // 5 terms a side; 3, 2, 1, 0 shared
    const three = matchText(p, body("Alpha bravo charlie foxtrot golf."));
    expect(three.dice).toBe(0.6);
    expect(three.text).toBe(1);
    expect(matchText(p, body("Alpha bravo foxtrot golf hotel.")).text).toBeCloseTo(2 / 3, 12);
    expect(matchText(p, body("Alpha foxtrot golf hotel india.")).text).toBeCloseTo(1 / 3, 12);
    expect(matchText(p, body("Foxtrot golf hotel india juliett.")).text).toBe(0);
  });

  it("caps at 1 above TEXT_FULL", () => {
    const p = body("Alpha bravo charlie delta echo.");
    const four = matchText(p, body("Alpha bravo charlie delta foxtrot."));
    expect(four.dice).toBe(0.8);
    expect(four.text).toBe(1);
    expect(matchText(p, p).text).toBe(1);
  });

  it("compares analysed terms: inflections, aliases and function words do not count against a match", () => {
    const m = matchText(
      body("The prod DB is rotated to a new replica every night."),
      body("Production database rotation to the replica happens nightly."),
    );
    expect(m.text).toBeGreaterThan(0.6);
    expect(m.languageDiffers).toBe(false);
  });
});

describe("matchText: new facts", () => {
  it("counts a sentence supported when the CFB holds SENTENCE_SUPPORT = 0.3 of its terms", () => {
    expect(SENTENCE_SUPPORT).toBe(0.3);
    const p = body("Alpha bravo charlie delta echo foxtrot golf hotel india juliett.");
    expect(matchText(p, body("Alpha bravo charlie kilo lima.")).newShare).toBe(0); // 3 of 10
    expect(matchText(p, body("Alpha bravo kilo lima mike.")).newShare).toBe(1); // 2 of 10
  });

  it("is the share of the proposal's terms in unsupported sentences", () => {
    const p = body("Alpha bravo charlie delta. Echo foxtrot golf hotel india juliett.");
    expect(matchText(p, body("Alpha bravo charlie delta.")).newShare).toBe(0.6); // 6 of 10 terms
    // Support is measured against the whole CFB, its title included.
    expect(matchText(p, body("Alpha bravo charlie delta.", "Echo foxtrot")).newShare).toBe(0);
  });

  it("reads the proposal's body only, not its title", () => {
    const p = body("Alpha bravo charlie delta.", "Kilo lima mike november");
    expect(matchText(p, body("Alpha bravo charlie delta.")).newShare).toBe(0);
    expect(matchText(body(""), body("Alpha bravo.")).newShare).toBe(0);
  });

  it("computes no detail when not asked (new share 0, no contradiction)", () => {
    const p = body("We no longer use alpha. Echo foxtrot golf hotel india juliett.");
    const c = body("Alpha bravo charlie delta.");
    expect(matchText(p, c).newShare).toBeGreaterThan(0);
    expect(matchText(p, c).contradicts).toBe(true);
    const fast = matchText(p, c, false);
    expect(fast.newShare).toBe(0);
    expect(fast.contradicts).toBe(false);
    expect(fast.text).toBe(matchText(p, c).text);
  });
});

describe("textProfile: sentences and specifics", () => {
  it("ends a sentence at . ! ? ; before a space or the end, keeping 99.9%, 02:00, eu-central-1 and v1.2 whole", () => {
    const p = body("Uptime target is 99.9% in eu-central-1. Backups start at 02:00 UTC; v1.2 ships next week!");
    expect(p.sentences).toHaveLength(3);
    const [first, second, third] = p.sentences;
    for (const term of ["99", "9", "eu", "central", "1"]) expect(first?.has(term), term).toBe(true);
    for (const term of ["02", "00", "utc"]) expect(second?.has(term), term).toBe(true);
    for (const term of ["v1", "2", "ship"]) expect(third?.has(term), term).toBe(true);
  });

  it("ends a sentence at a line break followed by a blank line", () => {
    expect(body("Backups run nightly.\nRestores are tested.").sentences).toHaveLength(2);
    expect(body("Backups run nightly\n\nRestores are tested").sentences).toHaveLength(2);
  });

  it("leaves out sentences of function words only", () => {
    expect(body("The. Backups run. And so on?").sentences).toEqual([new Set(["backup", "run"])]);
  });

  it("is memoised on the title and the body (cachedTextProfile)", () => {
    const title = "Nightly backups";
    const text = "Backups run nightly at 02:00 UTC. We no longer keep them on tape.";
    const cached = cachedTextProfile(title, text);
    const fresh = textProfile(title, text);
    for (const key of ["terms", "sentences", "specifics", "trigrams", "language", "cues"] as const)
      expect(cached[key], key).toEqual(fresh[key]);
    expect(cachedTextProfile(title, text)).toBe(cached);
    // The title is not a sentence: the same words the other way round are another profile.
    expect(cachedTextProfile(text, title).sentences).not.toEqual(cached.sentences);
  });

  it("takes numbers and names as specifics, not sentence-initial capitals or lone letters", () => {
    const p = textProfile(
      "Use a YubiKey",
      "Hashes use sha256 and expire after 7 days; the Frankfurt bucket holds them.",
    );
    expect(p.specifics).toEqual(new Set(["yubikey", "sha256", "7", "frankfurt"]));
  });
});

/** The nightly backups in English, and restated in German. */
const ENGLISH = body("The production database is backed up every night at 02:00 UTC to the S3 bucket in Frankfurt.");
const GERMAN = body("Die Produktionsdatenbank wird jede Nacht um 02:00 UTC in den S3-Bucket in Frankfurt gesichert.");

describe("matchText: across languages", () => {
  it("compares numbers and names, and adds no new facts", () => {
    expect(ENGLISH.language).toBe("en");
    expect(GERMAN.language).toBe("de");
    const m = matchText(GERMAN, ENGLISH);
    expect(m.languageDiffers).toBe(true);
    // 02, 00, utc, s3, frankfurt shared: at least the Dice of the specifics
    expect(m.dice).toBeGreaterThanOrEqual(dice(GERMAN.specifics, ENGLISH.specifics));
    expect(m.dice).toBeGreaterThan(TEXT_FULL);
    expect(m.text).toBe(1);
    expect(m.newShare).toBe(0); // word overlap across languages says nothing about new facts
  });

  it("compares cognates through character trigrams, scaled so a translation reads as a restatement", () => {
    expect(CROSS_LANGUAGE_TRIGRAMS_FULL).toBe(0.5);
    const english = body("Database migrations run before the deployment.");
    const spanish = body("Las migraciones de la base de datos se ejecutan antes del despliegue.");
    expect(spanish.language).toBe("es");
    expect(spanish.specifics.size).toBe(0); // no names, no numbers: trigrams alone
    const m = matchText(spanish, english);
    const trigrams = dice(spanish.trigrams, english.trigrams);
    expect(m.dice).toBeCloseTo(Math.min(1, trigrams / CROSS_LANGUAGE_TRIGRAMS_FULL) * TEXT_FULL, 12);
    expect(m.text).toBeGreaterThan(0.5);
    // Another subject in the same pair of languages shares far less.
    const other = body("Las vacaciones se piden en el portal de recursos humanos.");
    expect(matchText(other, english).text).toBeLessThan(0.2);
  });

  it("leaves function words out of the trigrams", () => {
    expect(body("Et de la le.").trigrams.size).toBe(0);
    expect([...body("La base.").trigrams].sort()).toEqual([" ba", "ase", "bas", "se "]);
  });

  it("is null when neither numbers and names nor content words can be compared", () => {
    const functionWordsOnly = body("Et de la le.");
    expect(functionWordsOnly.language).toBe("fr");
    expect(matchText(functionWordsOnly, ENGLISH)).toMatchObject({ text: null, dice: 0, languageDiffers: true });
    expect(matchText(ENGLISH, functionWordsOnly).text).toBeNull();
  });

  it("compares words as usual when either language is unknown", () => {
    const unknown = body("Kubernetes Postgres Redis.");
    expect(unknown.language).toBeNull();
    expect(matchText(unknown, ENGLISH).languageDiffers).toBe(false);
    expect(matchText(unknown, ENGLISH).dice).toBe(dice(unknown.terms, ENGLISH.terms));
  });
});

describe("matchText: contradictions", () => {
  it("is true when the proposal uses change language the CFB does not", () => {
    const cfb = body("Releases are built by Jenkins.");
    expect(matchText(body("Releases are no longer built by Jenkins."), cfb).contradicts).toBe(true);
    expect(matchText(body("Jenkins was replaced by GitHub Actions."), cfb).contradicts).toBe(true);
    expect(matchText(body("Releases are not built on Sundays."), cfb).contradicts).toBe(false);
  });

  it("is false when the CFB already says the same kind of change, or only the CFB does", () => {
    const changed = body("Jenkins is no longer used; releases run on GitHub Actions.");
    expect(matchText(body("We no longer use Jenkins for releases."), changed).contradicts).toBe(false);
    expect(matchText(body("Releases run on GitHub Actions."), changed).contradicts).toBe(false);
    // A different kind of change is still news.
    expect(matchText(body("GitHub Actions was replaced by Buildkite."), changed).contradicts).toBe(true);
  });

  it("reads change language across languages", () => {
    const cfb = body("Releases are built by Jenkins on every merge.");
    expect(matchText(body("Wir nutzen Jenkins nicht mehr für Releases."), cfb).contradicts).toBe(true);
  });
});

// Two CFBs written twice, and two that look alike but state different facts.
const VPN_A = textProfile(
  "Office VPN access",
  "Connect to the office VPN with WireGuard. Request a config from IT through the helpdesk; configs expire after 90 days.",
);
const VPN_B = textProfile(
  "Office VPN access",
  "To reach the office network, connect with WireGuard. IT issues the config through the helpdesk; a config expires after 90 days.",
);
const EU = textProfile(
  "Primary database region for EU customers",
  "The primary Postgres database for EU customers runs in eu-central-1 (Frankfurt) with a hot standby replica. Failover is manual and takes about 15 minutes.",
);
const US = textProfile(
  "Primary database region for US customers",
  "The primary Postgres database for US customers runs in us-east-1 (Virginia) with a hot standby replica. Failover is manual and takes about 15 minutes.",
);

describe("sameFacts", () => {
  it("is true for one CFB written twice", () => {
    expect(sameFacts(VPN_A, VPN_B)).toBe(true);
    expect(sameFacts(VPN_B, VPN_A)).toBe(true);
  });

  it("is false for a near-identical pair that differs in numbers and names", () => {
    expect(dice(EU.terms, US.terms)).toBeGreaterThan(0.8); // nearly the same words
    expect(sameFacts(EU, US)).toBe(false); // EU, Frankfurt against US, Virginia
    expect(sameFacts(US, EU)).toBe(false);
  });

  it("is true when only one side states a number or name the other lacks", () => {
    // One adds a detail; neither contradicts the other's.
    const more = textProfile(
      "Office VPN access",
      "Connect to the office VPN with WireGuard. Request a config from IT through the helpdesk; configs expire after 90 days. Use Okta to sign in.",
    );
    expect(sameFacts(VPN_A, more)).toBe(true);
    expect(sameFacts(more, VPN_A)).toBe(true);
  });

  it("is false when a single number differs", () => {
    const sixty = textProfile(
      "Office VPN access",
      "Connect to the office VPN with WireGuard. Request a config from IT through the helpdesk; configs expire after 60 days.",
    );
    expect(sameFacts(VPN_A, sixty)).toBe(false);
  });

  it("is false below PAIR_DICE = 0.5, whatever the specifics", () => {
    expect(PAIR_DICE).toBe(0.5);
    const sameNames = textProfile(
      "WireGuard",
      "IT and the VPN team own WireGuard; 90 engineers use it daily for deploys.",
    );
    expect(dice(VPN_A.terms, sameNames.terms)).toBeLessThan(PAIR_DICE);
    expect(sameFacts(VPN_A, sameNames)).toBe(false);
  });
});
