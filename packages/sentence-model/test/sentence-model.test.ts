// The embedded sentence model in its worker thread: real weights from the installed package, no
// network. Any text gets a unit vector (or is cut by the documented rule), meaning shows in the
// cosines, and a turn's text goes before queued background work.
import { afterAll, describe, expect, it } from "vitest";
import { DIMS, MAX_CHARS, MODEL, modelText, openSentenceModel } from "../index.mjs";

const model = openSentenceModel();
afterAll(() => model.close());

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);
const norm = (v: Float32Array) => Math.sqrt(cosine(v, v));

describe("the sentence model", () => {
  it("loads from the installed package and gives one unit vector of DIMS numbers per text", async () => {
    await model.ready;
    expect(MODEL).toBe("use-lite-512");
    const vectors = await model.embed(["The water pump runs but no water comes out.", "Bonjour"]);
    expect(vectors).toHaveLength(2);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(DIMS);
      expect(norm(v)).toBeCloseTo(1, 3);
    }
  });

  it("puts a restatement nearer than an unrelated sentence", async () => {
    const [question, answer, unrelated] = await model.embed([
      "nothing comes out of the taps in my trailer",
      "The water pump must be primed after the fresh tank ran dry.",
      "Quarterly invoices are sent to customers on the first Monday.",
    ]);
    expect(cosine(question as Float32Array, answer as Float32Array)).toBeGreaterThan(
      cosine(question as Float32Array, unrelated as Float32Array),
    );
  });

  it("embeds any text: empty, emoji, other scripts, lone surrogates, very long", async () => {
    const long = "pump ".repeat(20_000);
    const vectors = await model.embed(["", "   ", "😀😀", "房车的水泵坏了", "broken \ud800 surrogate", long]);
    expect(vectors).toHaveLength(6);
    for (const v of vectors) expect(norm(v)).toBeCloseTo(1, 3);
  });

  it("cuts long texts at the last space before MAX_CHARS, and reads an empty one as '.'", () => {
    const long = `${"word ".repeat(MAX_CHARS.interactive)}end`;
    const cut = modelText(long);
    expect(cut.length).toBeLessThanOrEqual(MAX_CHARS.interactive);
    expect(cut.endsWith("word")).toBe(true);
    expect(modelText(long, MAX_CHARS.background).length).toBeLessThanOrEqual(MAX_CHARS.background);
    expect(modelText("  ")).toBe(".");
    expect(modelText("a\ud800b")).toBe("a\ufffdb");
  });

  it("gives a long background request's vectors in order, the same as each text's alone", async () => {
    const texts = Array.from(
      { length: 9 },
      (_, i) => `note ${i}: the ${["pump", "furnace", "slide"][i % 3]} needs a part`,
    );
    const together = await model.embed(texts, { background: true });
    const alone = await Promise.all(texts.map(async (t) => (await model.embed([t], { background: true }))[0]));
    expect(together).toHaveLength(9);
    for (const [i, v] of together.entries()) expect(cosine(v, alone[i] as Float32Array)).toBeCloseTo(1, 4);
  });

  it("answers interactive work before queued background batches", async () => {
    const order: string[] = [];
    const background = Array.from({ length: 4 }, (_, i) =>
      model
        .embed([`background batch ${i} about furnaces and fuses`], { background: true })
        .then(() => order.push(`b${i}`)),
    );
    const turn = model.embed(["a turn's message"]).then(() => order.push("turn"));
    await Promise.all([...background, turn]);
    // The first background batch may already be in the worker; the turn comes right after it.
    expect(order.indexOf("turn")).toBeLessThanOrEqual(1);
  });
});
