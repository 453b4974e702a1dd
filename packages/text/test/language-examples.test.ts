// detectLanguage(): which language a text is in, for one rule: a proposal restating a CFB in
// another language is a review, never an update, and is compared on its numbers and names only.
// A wrong "different" would hold back every update of that CFB, so an uncertain text is null
// (unknown), and languagesDiffer is never true for an unknown side.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectLanguage, languagesDiffer } from "../src/index";

describe("detectLanguage", () => {
  it.each([
    ["en", "We must rotate the signing keys before every release and update the runbook."],
    ["en", "The database is backed up every night to the bucket in Frankfurt."],
    ["de", "Die Schlüssel werden vor jedem Release rotiert und das Runbook wird aktualisiert."],
    ["de", "Die Datenbank wird jede Nacht in den Bucket in Frankfurt gesichert und ist verschlüsselt."],
    ["fr", "Les clés sont changées avant chaque version et le runbook est mis à jour."],
    ["fr", "La clé de la base est changée chaque mois."],
    ["es", "Las claves se rotan antes de cada versión y el runbook se actualiza."],
    ["es", "La base de datos se respalda cada noche en el bucket de Fráncfort y los datos están cifrados."],
    ["nl", "De sleutels worden voor elke release geroteerd en het runbook wordt bijgewerkt."],
    ["nl", "De database wordt elke nacht geback-upt naar de bucket in Frankfurt en is versleuteld."],
    ["pt", "As chaves são trocadas antes de cada versão e o runbook é atualizado."],
    ["pt", "O banco de dados é copiado todas as noites para o bucket em Frankfurt e não é público."],
    ["it", "Le chiavi vengono ruotate prima di ogni rilascio e il runbook viene aggiornato."],
  ])("%s: %j", (language, text) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it.each([
    ["cyrillic", "Ключи меняются перед каждым релизом, и runbook обновляется."],
    ["cyrillic", "Сервер Postgres перезапускается каждую ночь в 02:00"], // names and numbers in Latin
    ["han", "每次发布前轮换签名密钥并更新运行手册。"],
    ["greek", "Τα κλειδιά αλλάζουν πριν από κάθε έκδοση."],
    ["kana", "バックアップ"],
    ["hangul", "데이터베이스는 매일 밤 백업됩니다"],
    ["arabic", "المفاتيح تتغير قبل كل إصدار"],
    ["hebrew", "המפתחות מוחלפים לפני כל גרסה"],
  ])("the script %s: %j", (script, text) => {
    expect(detectLanguage(text)).toBe(script);
  });

  it("needs most of the letters in a script to call the text that script", () => {
    // One Russian name in an English sentence is still English.
    expect(detectLanguage("The Moscow office is called Москва in the internal wiki and it hosts the build farm")).toBe(
      "en",
    );
    expect(detectLanguage("the build farm is in Москва")).not.toBe("cyrillic"); // 1 of 6
  });

  it.each([
    ["empty", ""],
    ["one word", "Hello"],
    ["one function word", "the"],
    ["numbers only", "02:00 99.9%"],
    ["names only", "Kubernetes Postgres Redis"],
    ["English and German function words in equal numbers", "the und the und"],
    ["a list of identifiers", "eu-central-1 us-east-1 sha256 v1.2"],
  ])("is null for %s", (_, text) => {
    expect(detectLanguage(text)).toBeNull();
  });

  it("is null when English and another language are too close to call", () => {
    // 2 English votes (the, is) against 2 German (die, ist): no lead.
    expect(detectLanguage("the backup is done, die Sicherung ist fertig")).toBeNull();
  });
});

describe("languagesDiffer", () => {
  it.each([
    ["en", "de", true],
    ["fr", "es", true],
    ["en", "cyrillic", true],
    ["en", "en", false],
    ["cyrillic", "cyrillic", false],
    [null, "en", false],
    ["en", null, false],
    [null, null, false],
  ] as const)("%s / %s: %s", (a, b, expected) => {
    expect(languagesDiffer(a, b)).toBe(expected);
  });

  it("is never true when either text's language is unknown", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc
        .array(fc.constantFrom("the", "die", "les", "los", "het", "não", "il", "Ключи", "中文", "backup", "90"), {
          maxLength: 12,
        })
        .map((ws) => ws.join(" ")),
    );
    fc.assert(
      fc.property(text, text, (a, b) => {
        const la = detectLanguage(a);
        const lb = detectLanguage(b);
        if (la === null || lb === null) expect(languagesDiffer(la, lb)).toBe(false);
        else expect(languagesDiffer(la, lb)).toBe(la !== lb);
      }),
    );
  });
});
