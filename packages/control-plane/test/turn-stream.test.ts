// Streaming a turn's answer, piece by piece:
//  - the PII hold-back guard (`createStreamGuard`): text goes out only up to a whitespace well
//    before the end, deltas always join to a prefix of what was written, PII (emails, spaced
//    phone numbers, card numbers, whatever the chunking, next to any control, format, full-width
//    or other character that can stand beside it) never goes out, an attempt that was
//    shown but not delivered is retracted (on a new attempt and when the turn settles), and PII
//    enforcement "off" or an allowlist lets the text through;
//  - the offline model's stream (`streamChunks`, `onText` with and without a pause per chunk);
//  - `assistantTextStream`: assistant_text reported as it grows from envelope JSON in pieces of
//    any size, escapes and unicode, a ``` fence before the JSON, unreadable JSON ending quietly;
//  - the OpenAI-compatible provider with `stream: true` against a real local HTTP server sending
//    chat.completion.chunk events: the text grows, the envelope and usage arrive whole, and an
//    invalid streamed envelope is an invalid_envelope attempt, retried (and retracted by the guard).
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OUTPUT_LIMITS } from "@solserver/contracts";
import { prng } from "@solserver/db/testing";
import { gluesToSample, PII_SAMPLES, piiNeighbours } from "@solserver/gate/testing";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { pipelineGateConfig } from "../src/gate/pipeline-config";
import { createOfflineModel, offlineEnvelope, streamChunks } from "../src/model/offline-model";
import { createOpenAICompatibleModel } from "../src/model/openai-compatible";
import type { TModelInput } from "../src/model/provider";
import { assistantTextStream } from "../src/model/stream-text";
import { createStreamGuard, type TStreamEvent } from "../src/services/turn/stream-guard";

/** Characters the guard keeps back after its last released whitespace, at the least. */
const HELD = 39;
const PII = pipelineGateConfig().pii;

/** A stream guard whose events are recorded. */
function guarded(pii = PII) {
  const events: TStreamEvent[] = [];
  const guard = createStreamGuard((e) => events.push(e), pii);
  const shown = (n: number) =>
    events
      .filter((e): e is Extract<TStreamEvent, { type: "delta" }> => e.type === "delta" && e.n === n)
      .map((e) => e.text)
      .join("");
  return { guard, events, shown };
}

/** Feeds `text` to the guard as attempt `n`, in pieces of the given sizes (cycled). */
function feed(guard: ReturnType<typeof createStreamGuard>, n: number, text: string, sizes: readonly number[] = [5]) {
  let at = 0;
  for (let i = 0; at < text.length; i++) {
    const from = at;
    at = Math.min(text.length, at + (sizes[i % sizes.length] as number));
    guard.onText({ n, piece: text.slice(from, at) });
  }
}

/** Feeds `text` to the guard as attempt 1, one UTF-16 unit at a time. */
function feedUnits(guard: ReturnType<typeof createStreamGuard>, text: string) {
  for (let i = 0; i < text.length; i++) guard.onText({ n: 1, piece: text.charAt(i) });
}

const CLEAN =
  "The pump runs when the switch is on and the tank has water in it so check the fuse first and then the wiring harness behind the panel.";

// Generated cases: a seeded PRNG (mulberry32), so every run checks the same cases (fast-check is
// not a dependency of this package).
type TRng = () => number;
const int = (rng: TRng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: TRng, items: readonly T[]): T => items[int(rng, 0, items.length - 1)] as T;
const many = <T>(rng: TRng, min: number, max: number, one: () => T): T[] =>
  Array.from({ length: int(rng, min, max) }, one);

/** Runs `check` on `count` generated cases; a failure names its seed. */
function forCases(count: number, check: (rng: TRng) => void): void {
  for (let seed = 1; seed <= count; seed++) {
    try {
      check(prng(seed));
    } catch (error) {
      throw new Error(`case seed ${seed}: ${(error as Error).message}`);
    }
  }
}

/** Lower-case words separated by spaces or newlines: text without PII. */
const randomWords = (rng: TRng) =>
  many(rng, 1, 40, () => many(rng, 1, 12, () => pick(rng, [..."abcdefghijklmnopqrstuvwxyz"])).join(""))
    .map((w) => w + pick(rng, [" ", "\n", "  "]))
    .join("");
const randomSizes = (rng: TRng) => many(rng, 1, 8, () => int(rng, 1, 30));

describe("stream guard: hold-back", () => {
  it("sends nothing while the text is shorter than the hold-back", () => {
    const { guard, events } = guarded();
    feed(guard, 1, CLEAN.slice(0, HELD + 1), [1]);
    expect(events).toEqual([]);
  });

  it("releases whole words up to a whitespace at least the hold-back before the end", () => {
    const { guard, events, shown } = guarded();
    feed(guard, 1, CLEAN, [7]);
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((e) => e.type === "delta" && e.n === 1 && /\s$/.test(e.text))).toBe(true);
    expect(CLEAN.startsWith(shown(1))).toBe(true);
    expect(CLEAN.length - shown(1).length).toBeGreaterThanOrEqual(HELD);
  });

  it("deltas always join to a prefix of the text so far, holding back its end (any words, any chunking)", () => {
    forCases(300, (rng) => {
      const text = randomWords(rng);
      const sizes = randomSizes(rng);
      const { guard, shown } = guarded();
      let at = 0;
      for (let i = 0; at < text.length; i++) {
        const from = at;
        at = Math.min(text.length, at + (sizes[i % sizes.length] as number));
        const sofar = text.slice(0, at);
        guard.onText({ n: 1, piece: text.slice(from, at) });
        expect(sofar.startsWith(shown(1))).toBe(true);
        expect(sofar.length - shown(1).length).toBeGreaterThanOrEqual(Math.min(sofar.length, HELD));
      }
    });
  });
});

describe("stream guard: PII never goes out", () => {
  const VALUES = [
    ["an email", "jane.doe@example.com"],
    ["a phone number with spaces", "415 555 1212"],
    ["a phone number with dashes", "(415) 555-1212"],
    ["a card number in groups", "4111 1111 1111 1111"],
    ["a card number in one run", "4111111111111111"],
  ] as const;

  it.each(VALUES)("%s, whatever the chunking, and nothing after it", (_name, value) => {
    forCases(200, (rng) => {
      const text = `${randomWords(rng)} ${value} ${randomWords(rng)} ${CLEAN}`;
      const { guard, shown } = guarded();
      feed(guard, 1, text, randomSizes(rng));
      // Not a character of the value, nor anything written after it.
      expect(shown(1).length).toBeLessThanOrEqual(text.indexOf(value));
      expect(shown(1)).not.toMatch(/[\d@]/);
    });
  });

  it("sends the clean text before the value, then withholds the attempt", () => {
    const text = `${CLEAN} Call 415 555 1212 today. ${CLEAN}`;
    const { guard, shown } = guarded();
    feed(guard, 1, text, [1]);
    expect(shown(1).length).toBeGreaterThan(0);
    expect(shown(1).length).toBeLessThanOrEqual(text.indexOf("415"));
  });

  it('sends it all when PII enforcement is "off"', () => {
    const text = `Call 415 555 1212 or write to help@example.com. ${CLEAN}`;
    const { guard, shown } = guarded(pipelineGateConfig({ pii: { enforce: "off" } }).pii);
    feed(guard, 1, text);
    expect(shown(1)).toContain("415 555 1212");
    expect(shown(1)).toContain("help@example.com");
  });

  it("keeps streaming through an allowlisted email that arrives letter by letter (help@example.co… → .com)", () => {
    const text = `Write to help@example.com for the desk. ${CLEAN}`;
    const { guard, shown } = guarded(pipelineGateConfig({ pii: { allowlist: ["*@example.com"] } }).pii);
    // One character at a time: at "help@example.co" the scanner sees an email the allowlist does
    // not cover yet; it must hold that value back, not give up on the attempt.
    feedUnits(guard, text);
    expect(shown(1)).toContain("help@example.com");
    expect(text.startsWith(shown(1))).toBe(true);
  });

  it("never releases the start of a value that is still being written and turns out to be PII", () => {
    const long = "a.very.long.mailbox.name.for.the.service.desk@example.org";
    const text = `Write to ${long} for the desk. ${CLEAN}`;
    const { guard, shown } = guarded();
    feedUnits(guard, text);
    expect(shown(1)).not.toContain("a.very");
    expect(shown(1)).toBe("Write to ");
  });

  it("a long value held while it grows is judged again as it grows, and released once it is not PII", () => {
    // Held values are rescanned only after the unheld text grew by half (linear time): the
    // value must still go out once it completes as an allowlisted address.
    const value = `${"a".repeat(3000)}@example.com`;
    const text = `${CLEAN} ${value} is the desk. ${CLEAN}`;
    const { guard, shown } = guarded(pipelineGateConfig({ pii: { allowlist: ["*@example.com"] } }).pii);
    feedUnits(guard, text);
    expect(shown(1)).toContain(value);
    expect(text.startsWith(shown(1))).toBe(true);
  });

  it("sends an allowlisted phone number (compared by digits)", () => {
    const text = `Call 415 555 1212 for the desk. ${CLEAN}`;
    const { guard, shown } = guarded(pipelineGateConfig({ pii: { allowlist: ["415-555-1212"] } }).pii);
    feed(guard, 1, text);
    expect(shown(1)).toContain("415 555 1212");
  });
});

describe("stream guard: PII next to any character never goes out", () => {
  // The grid of @solserver/gate/testing (every sample, every character that can stand before or
  // after it: U+0000-U+007F, C1 controls, format characters, lone surrogates, full-width digits
  // and '@'), streamed in seeded random chunks: no delta reaches the value, and nothing after it
  // goes out. The guard reads with the gate's scanner, so what the gate blocks it withholds.
  const cases = PII_SAMPLES.flatMap((sample) =>
    piiNeighbours().flatMap(({ char, name }) =>
      (["before", "after"] as const)
        .filter((side) => !gluesToSample(sample, char, side))
        .map((side) => ({ sample, char, name, side })),
    ),
  );

  it("before or after the value, in any chunking", () => {
    const leaked: string[] = [];
    const rng = prng(17);
    for (const { sample, char, name, side } of cases) {
      const lead = `${CLEAN} Call the owner at`;
      const text =
        side === "before"
          ? `${lead}${char}${sample.value} today. ${CLEAN}`
          : `${lead} ${sample.value}${char}today. ${CLEAN}`;
      const at = text.indexOf(sample.value, lead.length);
      const { guard, shown } = guarded();
      feed(guard, 1, text, randomSizes(rng));
      if (shown(1).length > at) leaked.push(`${sample.value} ${side} ${name}: ${JSON.stringify(shown(1).slice(at))}`);
    }
    expect(cases.length).toBeGreaterThan(7000);
    expect(leaked).toEqual([]);
  });

  it("the issue's measured answer, one character at a time: only the clean words before it go out", () => {
    const measured = "Call the owner at\u0001415-555-1212 or charge card\u00014111111111111111 today.";
    const text = `${CLEAN} ${measured} ${CLEAN}`;
    const { guard, shown } = guarded();
    feedUnits(guard, text);
    expect(shown(1).length).toBeGreaterThan(0);
    expect(`${CLEAN} Call the owner at`.startsWith(shown(1))).toBe(true);
  });

  it("in full-width form", () => {
    for (const sample of PII_SAMPLES) {
      const wide = sample.value.replace(/[0-9@]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
      const text = `${CLEAN} Write to ${wide} today. ${CLEAN}`;
      const { guard, shown } = guarded();
      feed(guard, 1, text, [3]);
      expect(shown(1).length, sample.value).toBeLessThanOrEqual(text.indexOf(wide));
    }
  });
});

describe("stream guard: retractions", () => {
  it("retracts a shown attempt when the next attempt starts, then streams the new one", () => {
    const { guard, events, shown } = guarded();
    feed(guard, 1, CLEAN);
    const firstShown = events.length;
    expect(firstShown).toBeGreaterThan(0);
    feed(guard, 2, CLEAN.toUpperCase());
    expect(events[firstShown]).toEqual({
      type: "retract",
      n: 1,
      reason: "attempt 1 was not delivered; trying again",
    });
    expect(events.slice(firstShown + 1).every((e) => e.type === "delta" && e.n === 2)).toBe(true);
    expect(CLEAN.toUpperCase().startsWith(shown(2))).toBe(true);
    // Attempt 2 is delivered: nothing more to retract.
    guard.settle(2, "not delivered");
    expect(events.filter((e) => e.type === "retract")).toHaveLength(1);
  });

  it("retracts nothing for an attempt that showed nothing", () => {
    const { guard, events } = guarded();
    guard.onText({ n: 1, piece: "Too short to show." });
    feed(guard, 2, CLEAN);
    guard.settle(2, "not delivered");
    expect(events.some((e) => e.type === "retract")).toBe(false);
  });

  it("on settle, retracts every shown attempt but the delivered one, once each, withheld ones included", () => {
    const { guard, events } = guarded();
    feed(guard, 1, CLEAN);
    // Attempt 2 shows some text, then writes a phone number: withheld from then on.
    feed(guard, 2, `${CLEAN} Call 415 555 1212 now. ${CLEAN}`);
    guard.settle(null, "the answer was blocked");
    guard.settle(null, "the answer was blocked");
    expect(events.filter((e) => e.type === "retract")).toEqual([
      { type: "retract", n: 1, reason: "attempt 1 was not delivered; trying again" },
      { type: "retract", n: 2, reason: "the answer was blocked" },
    ]);
  });
});

// ---- the offline model's stream ----------------------------------------------------------------

const INPUT: TModelInput = {
  message: "We decided to rotate the database credentials every quarter. How do backups get verified? Thanks!",
  history: [],
  cfbs: [],
};

describe("offline model streaming", () => {
  it("streamChunks cuts text into a few words each, and the chunks join to the text", () => {
    expect(streamChunks("one two three four five", 2)).toEqual(["one two", " three four", " five"]);
    expect(streamChunks("  a\nb  ")).toEqual(["  a\nb", "  "]);
    expect(streamChunks("")).toEqual([]);
    forCases(300, (rng) => {
      const text = many(rng, 0, 60, () => pick(rng, ["a", "bc", " ", "  ", "\n", "\t", "é", "😀", "\u00a0"])).join("");
      const k = int(rng, 1, 5);
      const chunks = streamChunks(text, k);
      expect(chunks.join("")).toBe(text);
      expect(chunks.every((c) => c.length > 0 && (c.match(/\S+/g) ?? []).length <= k)).toBe(true);
    });
  });

  it("reports the answer growing chunk by chunk, ending with the whole assistant_text", async () => {
    const seen: { n: number; text: string }[] = [];
    let sofar = "";
    const out = await createOfflineModel().generate(INPUT, {
      onText: ({ n, piece }) => {
        sofar += piece;
        seen.push({ n, text: sofar });
      },
    });
    const expected = offlineEnvelope(INPUT);
    expect(out.envelope).toEqual(expected);
    expect(seen.length).toBe(streamChunks(expected.assistant_text).length);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.every((p) => p.n === 1)).toBe(true);
    seen.forEach((p, i) => {
      expect(p.text.length).toBeGreaterThan(seen[i - 1]?.text.length ?? 0);
      expect(expected.assistant_text.startsWith(p.text)).toBe(true);
    });
    expect(seen.at(-1)?.text).toBe(expected.assistant_text);
  });

  it("with a pause per chunk the text arrives over time; without a listener nothing waits", async () => {
    const DELAY = 25;
    const model = createOfflineModel({ streamChunkDelayMs: DELAY });
    vi.useFakeTimers();
    try {
      const seen: string[] = [];
      const streaming = model.generate(INPUT, { onText: (p) => seen.push(p.piece) });
      // Each chunk waits its pause: one more piece per DELAY of the (fake) clock, none before.
      await vi.advanceTimersByTimeAsync(DELAY - 1);
      expect(seen).toHaveLength(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(seen).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(DELAY);
      expect(seen).toHaveLength(2);
      await vi.runAllTimersAsync();
      const streamed = await streaming;
      expect(seen.length).toBeGreaterThan(3);
      // No listener: the answer comes without the clock moving at all.
      const whole = await model.generate(INPUT);
      expect(whole.envelope).toEqual(streamed.envelope);
    } finally {
      vi.useRealTimers();
    }
  });
});

// ---- assistant_text from streamed JSON ---------------------------------------------------------

/** The texts `assistantTextStream` reports for these pieces. */
function reported(pieces: readonly string[]): string[] {
  const seen: string[] = [];
  let sofar = "";
  const stream = assistantTextStream((piece) => {
    sofar += piece;
    seen.push(sofar);
  });
  for (const piece of pieces) stream.write(piece);
  return seen;
}

/** `text` cut at the given offsets (sorted, deduplicated, clamped). */
function cut(text: string, offsets: readonly number[]): string[] {
  const at = [...new Set(offsets.map((o) => Math.min(o, text.length)))].sort((a, b) => a - b);
  return [...at, text.length].map((end, i) => text.slice(i === 0 ? 0 : at[i - 1], end)).filter((p) => p !== "");
}

const envelopeJson = (text: string) =>
  JSON.stringify({ assistant_text: text, meta: { domainHints: [], used_cfb_ids: [], cfb_suggestions: [] } });

describe("assistantTextStream", () => {
  it("reports the text as it grows, before the JSON is complete", () => {
    expect(reported(['{"assistant_text": "Hel', "lo th", 'ere", "meta": {}}'])).toEqual([
      "Hel",
      "Hello th",
      "Hello there",
    ]);
  });

  it("any text, escapes and unicode included, in pieces of any size: growing prefixes ending in the text", () => {
    // Quotes, backslashes, control characters, line separators, accents, astral and lone surrogates.
    const units = ["a", "Z", " ", '"', "\\", "\n", "\t", "\u0001", "\u2028", "é", "😀", "\ud800", "{", "}"];
    forCases(400, (rng) => {
      const text = many(rng, 1, 80, () => pick(rng, units)).join("");
      const json = envelopeJson(text);
      const seen = reported(
        cut(
          json,
          many(rng, 0, 20, () => int(rng, 0, json.length)),
        ),
      );
      expect(seen.at(-1)).toBe(text);
      seen.forEach((s, i) => {
        expect(text.startsWith(s)).toBe(true);
        if (i > 0) expect(s.length).toBeGreaterThan((seen[i - 1] as string).length);
      });
    });
  });

  it("reads one character at a time", () => {
    const text = 'Check the "12 V" fuse\nthen the pump — ok?';
    const seen = reported(envelopeJson(text).split(""));
    expect(seen.length).toBeGreaterThan(text.length / 2);
    expect(seen.at(-1)).toBe(text);
  });

  it("skips a ``` fence (and blank lines) before the JSON, even split across pieces", () => {
    const json = envelopeJson("Fenced answer.");
    expect(reported(["``", "`json\n", "\n", json.slice(0, 10), json.slice(10), "\n```"]).at(-1)).toBe("Fenced answer.");
  });

  it("follows only the top-level assistant_text", () => {
    const json = JSON.stringify({ meta: { assistant_text: "nested" }, assistant_text: "top" });
    expect(reported(cut(json, [5, 20, 30]))).toEqual(expect.not.arrayContaining(["nested"]));
    expect(reported([json]).at(-1)).toBe("top");
  });

  it("reports each character once: the pieces join to the text, whatever the chunking", () => {
    forCases(200, (rng) => {
      const text = many(rng, 1, 200, () => pick(rng, ["ab", " ", '"', "\\", "\n", "é", "😀", "\u0001"])).join("");
      const json = envelopeJson(text);
      const pieces: string[] = [];
      const stream = assistantTextStream((piece) => pieces.push(piece));
      for (const part of cut(
        json,
        many(rng, 0, 40, () => int(rng, 0, json.length)),
      ))
        stream.write(part);
      expect(pieces.join("")).toBe(text);
      expect(pieces.every((p) => p.length > 0)).toBe(true);
    });
  });

  it("finds the key however it is escaped, skips other values whole, and follows the first assistant_text only", () => {
    expect(reported(['{"assistant\\u005ftext": "escaped key"}']).at(-1)).toBe("escaped key");
    const json =
      '{"meta": {"x": ["a\\"}", {"assistant_text": "no"}]}, "n": -1.5e3, "ok": true, "assistant_text": "yes"}';
    expect(reported(json.split(""))).toEqual(["y", "ye", "yes"]);
    expect(reported(['{"assistant_text": "first", "assistant_text": "second"}'])).toEqual(["first"]);
  });

  it("stops past the output limit: a runaway answer reports no more than the limit", () => {
    const pieces: string[] = [];
    const stream = assistantTextStream((piece) => pieces.push(piece));
    const json = envelopeJson("word ".repeat(OUTPUT_LIMITS.assistantText));
    for (let at = 0; at < json.length; at += 7) stream.write(json.slice(at, at + 7));
    const total = pieces.join("").length;
    expect(total).toBeLessThanOrEqual(OUTPUT_LIMITS.assistantText);
    expect(total).toBeGreaterThan(OUTPUT_LIMITS.assistantText - 7);
  });

  it("stops quietly on unreadable JSON, and reports nothing for text that is not JSON", () => {
    expect(() =>
      reported(['{"assistant_text": "Hello there', '", ]]] garbage', ', "assistant_text": "more"}']),
    ).not.toThrow();
    expect(reported(['{"assistant_text": "Hello there', '", ]]] garbage', '{"assistant_text": "again"}'])).toEqual([
      "Hello there",
    ]);
    expect(reported(["Sorry, I cannot answer that."])).toEqual([]);
    expect(reported(['{"assistant_text": 42}'])).toEqual([]);
  });
});

// ---- the OpenAI-compatible provider, streamed ----------------------------------------------------

let server: Server;
let baseURL: string;
/** The assistant content each request streams, in order (the last repeats). */
let contents: string[] = [];
let bodies: Record<string, unknown>[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Streams `content` as chat.completion.chunk events, a few characters at a time, then usage and [DONE]. */
async function streamCompletion(res: ServerResponse, content: string) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id: "chatcmpl-s", object: "chat.completion.chunk", created: 1_700_000_000, model: "stream-model", choices, ...extra })}\n\n`,
    );
  chunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]);
  for (let i = 0; i < content.length; i += 9) {
    await sleep(2);
    chunk([{ index: 0, delta: { content: content.slice(i, i + 9) }, finish_reason: null }]);
  }
  chunk([{ index: 0, delta: {}, finish_reason: "stop" }]);
  chunk([], { usage: { prompt_tokens: 120, completion_tokens: 34, total_tokens: 154 } });
  res.end("data: [DONE]\n\n");
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      bodies.push(JSON.parse(raw));
      void streamCompletion(res, contents[Math.min(bodies.length, contents.length) - 1] ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});
beforeEach(() => {
  bodies = [];
});

const streamingModel = () =>
  createOpenAICompatibleModel({
    baseURL,
    apiKey: "local",
    model: "stream-model",
    timeoutMs: 5000,
    maxAttempts: 2,
    retryDelayMs: 0,
  });

const ANSWER = `According to CFB-0001 the pump needs twelve volts at the switch. ${CLEAN}`;
const VALID = JSON.stringify({
  assistant_text: ANSWER,
  meta: {
    modeLabel: "System",
    domainHints: ["rv_service"],
    used_cfb_ids: [],
    ignored_cfb_ids: [],
    unknowns: [],
    cfb_suggestions: [],
  },
});

describe("OpenAI-compatible provider, streamed", () => {
  it("asks for a stream, reports the text as it grows, and returns the whole envelope with usage", async () => {
    contents = [VALID];
    const seen: { n: number; text: string }[] = [];
    let sofar = "";
    const out = await streamingModel().generate(
      { message: "Pump?", history: [], cfbs: [] },
      {
        onText: ({ n, piece }) => {
          sofar += piece;
          seen.push({ n, text: sofar });
        },
      },
    );
    expect(bodies[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.every((p) => p.n === 1 && ANSWER.startsWith(p.text))).toBe(true);
    expect(seen.at(-1)?.text).toBe(ANSWER);
    expect((out.envelope as { assistant_text: string }).assistant_text).toBe(ANSWER);
    expect(out.attempts).toEqual([
      expect.objectContaining({ n: 1, model: "stream-model", outcome: "ok", tokensIn: 120, tokensOut: 34 }),
    ]);
    expect(out).toMatchObject({ tokensIn: 120, tokensOut: 34 });
  });

  it("an invalid streamed envelope is an invalid_envelope attempt; the retry streams anew and the guard retracts the first", async () => {
    // Valid JSON whose assistant_text streams well, but with no meta: refused by the schema.
    contents = [JSON.stringify({ assistant_text: `Draft answer that will not validate. ${CLEAN}` }), VALID];
    const { guard, events, shown } = guarded();
    const out = await streamingModel().generate(
      { message: "Pump?", history: [], cfbs: [] },
      {
        onText: guard.onText,
      },
    );
    guard.settle(out.attempts?.at(-1)?.n ?? null, "not delivered");
    expect(out.attempts?.map((a) => [a.n, a.outcome])).toEqual([
      [1, "invalid_envelope"],
      [2, "ok"],
    ]);
    expect(out.attempts?.[0]?.reason).toMatch(/^schema: meta: /);
    expect(bodies).toHaveLength(2);
    const retract = events.findIndex((e) => e.type === "retract");
    expect(events[retract]).toEqual({ type: "retract", n: 1, reason: "attempt 1 was not delivered; trying again" });
    expect(events.slice(0, retract).every((e) => e.n === 1)).toBe(true);
    expect(events.slice(retract + 1).every((e) => e.type === "delta" && e.n === 2)).toBe(true);
    expect(shown(2).length).toBeGreaterThan(0);
    expect(ANSWER.startsWith(shown(2))).toBe(true);
  });
});
