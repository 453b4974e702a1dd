// analyzeTerms(): the words the text similarity, the label and title overlaps and the candidate
// index all count. Function words of every language proposals arrive in are dropped, so two texts
// do not look alike for their articles; aliases and Snowball stems make "k8s" meet "Kubernetes" and
// "rotated" meet "rotation"; numbers are kept, because "90 days" against "60 days" is the fact.
import { describe, expect, it } from "vitest";
import { analyzeTerms, analyzeToken, cachedTermSet, termSet, tokens } from "../src/index";

describe("analyzeTerms: function words", () => {
  it("drops English function words", () => {
    for (const w of ["the", "and", "of", "with", "should", "which"]) expect(analyzeToken(w), w).toBeNull();
  });

  it.each([
    ["English", "The service is down and we should restart it"],
    ["model fillers", "also already still just now only going forward please note"],
    ["German", "der die das und ist mit von nicht auf auch noch"],
    ["French", "le la les et est avec pour dans sur pas une"],
    ["Spanish", "el los las una y es con por para del"],
    ["Dutch", "het een en zijn met voor van op te niet ook"],
    ["Portuguese", "os um uma com para por em do da dos das"],
  ])("drops %s function words", (_, text) => {
    const content = analyzeTerms(text);
    expect(content.filter((t) => !["servic", "down", "restart"].includes(t))).toEqual([]);
  });

  it("keeps the content words around them", () => {
    expect(analyzeTerms("Die Datenbank ist langsam")).toEqual(["datenbank", "langsam"]);
    expect(analyzeTerms("La base est lente")).toEqual(["bas", "lent"]);
    expect(analyzeTerms("The database is slow")).toEqual(["databas", "slow"]);
  });
});

describe("analyzeTerms: aliases and stems", () => {
  it.each([
    ["k8s", "kubernetes"],
    ["kube", "Kubernetes"],
    ["prod", "production"],
    ["db", "database"],
    ["dbs", "databases"],
    ["pg", "PostgreSQL"],
    ["psql", "postgresql"],
    ["Postgres", "PostgreSQL"],
    ["2FA", "MFA"],
    ["config", "configuration"],
    ["repos", "repositories"],
    ["infra", "infrastructure"],
    ["env", "environment"],
    ["creds", "credentials"],
  ])("reads %j as %j", (alias, word) => {
    expect(analyzeTerms(alias)).toEqual(analyzeTerms(word));
    expect(analyzeTerms(alias)).toHaveLength(1);
  });

  it("leaves words that are not aliases alone", () => {
    // "prods" and "kubes" are not in the list: no guessing beyond it.
    expect(analyzeTerms("prods")).not.toEqual(analyzeTerms("production"));
    expect(analyzeTerms("database")).not.toEqual(analyzeTerms("datadog"));
  });

  it("stems rotated / rotation / rotate / rotates / rotating to one term", () => {
    const forms = ["rotated", "rotation", "rotate", "rotates", "rotating", "Rotations"].map((w) => analyzeTerms(w));
    for (const f of forms) expect(f).toEqual(["rotat"]);
  });

  it.each([
    ["backups", "backup"],
    ["deployments", "deployment"],
    ["Upgrades", "upgrade"],
    ["restarted", "restart"],
    ["keys", "key"],
  ])("stems %j and %j alike", (a, b) => {
    expect(analyzeTerms(a)).toEqual(analyzeTerms(b));
  });

  it("keeps words of scripts without a stemmer as they fold, ideographs one by one", () => {
    expect(analyzeTerms("Привет ёлка")).toEqual(["привет", "елк"]);
    expect(analyzeTerms("日本語テスト")).toEqual(["日", "本", "語", "テ", "ス", "ト"]);
    expect(analyzeTerms("Crème Brûlée")).toEqual(["crem", "brule"]);
  });
});

describe("analyzeTerms: numbers and lone letters", () => {
  it("keeps digits, also single ones", () => {
    expect(analyzeTerms("rotate every 90 days in 2024: 7 keys")).toEqual(["rotat", "90", "day", "2024", "7", "key"]);
  });

  it("drops lone letters but keeps short tokens with a digit", () => {
    expect(analyzeTerms("a b x v A Z")).toEqual([]);
    expect(analyzeTerms("x2 v1 s3")).toEqual(["x2", "v1", "s3"]);
    expect(analyzeTerms("zz ok")).toEqual(["zz", "ok"]);
  });

  it("keeps repeats, in order", () => {
    expect(analyzeTerms("backup restore backup")).toEqual(["backup", "restor", "backup"]);
  });

  it("gives only index tokens (the candidate index stores the same terms)", () => {
    const text = "Crème brûlée: k8s prod-db rotates 90 keys; the Ωμέγα team.";
    for (const term of analyzeTerms(text)) expect(tokens(term)).toEqual([term]);
  });
});

describe("termSet", () => {
  it("is the distinct analysed terms of all texts", () => {
    expect(termSet("Rotated keys", "rotate Keys", "the key rotation")).toEqual(new Set(["rotat", "key"]));
    expect(termSet("k8s prod", "Kubernetes production")).toEqual(new Set(["kubernet", "product"]));
  });

  it("is empty for no text or function words only", () => {
    expect(termSet()).toEqual(new Set());
    expect(termSet("", "the and of")).toEqual(new Set());
    expect(termSet("der die das")).toEqual(new Set());
  });
});

describe("cachedTermSet", () => {
  it("is termSet of one text, the same set each time the text comes again", () => {
    const first = cachedTermSet("Rotated keys every 90 days");
    expect(first).toEqual(termSet("Rotated keys every 90 days"));
    expect(cachedTermSet("Rotated keys every 90 days")).toBe(first);
    expect(cachedTermSet("Rotated keys every 60 days")).toEqual(new Set(["rotat", "key", "60", "day"]));
  });
});
