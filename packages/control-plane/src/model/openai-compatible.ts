import { ZOutputEnvelope } from "@solserver/contracts";
import OpenAI, { APIConnectionTimeoutError, APIError } from "openai";
import type { z } from "zod";
import { ENVELOPE_SCHEMA, ENVELOPE_WITH_SUMMARY_SCHEMA, ZSummaryUpdate } from "./envelope-schema";
import { buildMessages } from "./prompt";
import {
  ModelAttemptsFailed,
  type TGenerateOptions,
  type TModelAttempt,
  type TModelInput,
  type TModelOutput,
  type TModelProvider,
  type TSummaryShape,
} from "./provider";
import { assistantTextStream } from "./stream-text";

// A model behind the chat-completions protocol: OpenAI itself, vLLM, Ollama, llama.cpp server
// (docs/model-providers.md). One generate() call makes up to `maxAttempts` HTTP requests; the
// SDK's own retries are off so that every try is recorded as a TModelAttempt (n = 1..N). The
// answer must be JSON matching ZOutputEnvelope (sent as response_format json_schema); anything
// else is an `invalid_envelope` attempt, never a crash. When no attempt succeeds the provider
// throws ModelAttemptsFailed with every attempt, and nothing else for model problems.

export type TOpenAICompatibleOptions = {
  /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama). */
  baseURL: string;
  /** Sent as `Authorization: Bearer`; local servers accept any placeholder. Never recorded. */
  apiKey: string;
  /** The model id the server knows, e.g. gpt-4o-mini or llama3.1:8b. */
  model: string;
  /** Per attempt, from sending the request to the last byte of the answer. */
  timeoutMs: number;
  /** 1..5: how many requests one turn may make. */
  maxAttempts: number;
  /** Backoff before retrying a timeout, network error, 429 or 5xx without Retry-After: base * 2^(n-1). */
  retryDelayMs?: number;
  /** Cap on any wait between attempts, Retry-After included. */
  maxRetryDelayMs?: number;
};

const DEFAULT_RETRY_DELAY_MS = 250;
const DEFAULT_MAX_RETRY_DELAY_MS = 5000;
const REASON_CHARS = 300;
const ISSUES_IN_REASON = 3;

/** Wraps an error of the caller's judge, so that it passes the attempt's own error handling. */
class JudgeFailed extends Error {
  constructor(override readonly cause: unknown) {
    super("the judge failed");
  }
}

async function judgeOf(options: TGenerateOptions, output: TModelOutput, attempt: TModelAttempt) {
  return (await options.judge?.({ output, attempt })) ?? { deliver: true as const };
}

/** One attempt's result: the attempt as recorded, the output when ok, and whether/when to retry. */
type TTry = { attempt: TModelAttempt; output?: TModelOutput; retry: boolean; delayMs: number };

const clip = (text: string, max = REASON_CHARS) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Removes the API key and anything key- or token-like from text that goes into a reason. */
function redact(text: string, apiKey: string): string {
  let out = apiKey.length >= 4 ? text.split(apiKey).join("[redacted]") : text;
  out = out.replace(/Bearer\s+\S+/gi, "Bearer [redacted]").replace(/\bsk-[A-Za-z0-9_*-]{4,}/g, "[redacted]");
  return clip(out);
}

/**
 * Wait asked for by Retry-After / retry-after-ms (seconds or an HTTP date), or null when there is
 * none or it is not a sane one: a negative or non-numeric value ("-5", "soon") is ignored (the
 * backoff applies), and the caller caps it at maxRetryDelayMs.
 */
export function retryAfterMs(headers: Headers | undefined): number | null {
  const msText = headers?.get("retry-after-ms")?.trim() ?? "";
  if (/^\d+(\.\d+)?$/.test(msText)) return Number(msText);
  const value = headers?.get("retry-after")?.trim();
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  // An HTTP date names a weekday and a month ("Wed, 21 Oct 2015 07:28:00 GMT"); a bare number or
  // "-5" is not one (Date.parse reads "-5" as a year).
  if (!/[A-Za-z]{3}/.test(value)) return null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** A token count as the server reported it, or null; anything not a count is noted in `warnings`. */
export function tokenCount(value: unknown, field: string, warnings: string[]): number | null {
  if (value === undefined || value === null) return null;
  const n = typeof value === "string" && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
  if (typeof n === "number" && Number.isFinite(n) && n >= 0 && n <= 100_000_000) {
    if (typeof value === "string" || !Number.isInteger(n))
      warnings.push(`${field} ${JSON.stringify(value)} read as ${Math.round(n)}`);
    return Math.round(n);
  }
  const shown = typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));
  warnings.push(`${field} ${clip(shown, 40)} ignored`);
  return null;
}

/** The innermost cause's message ("connect ECONNREFUSED 127.0.0.1:11434"), more useful than "fetch failed". */
function rootCause(error: unknown): string {
  let e: unknown = error;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  const outer = error instanceof Error ? error.message : String(error);
  const inner = e instanceof Error ? e.message : String(e);
  return inner === outer ? outer : `${outer} ${inner}`;
}

/** Some local models wrap JSON in a ``` fence despite the schema; accept that one wrapper. */
function unfence(content: string): string {
  const fenced = content.trim();
  if (fenced.length < 6 || !fenced.startsWith("```") || !fenced.endsWith("```")) return content;
  return fenced.slice(3, -3).replace(/^json/i, "");
}

/** The first few zod issues as "path: message", short. */
function describe(issues: readonly z.core.$ZodIssue[], prefix = ""): string {
  return issues
    .slice(0, ISSUES_IN_REASON)
    .map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join(".") || "(root)"}: ${i.message}`)
    .join("; ");
}

/** Parses and validates the message content; the envelope (and summary) or why it is unusable. */
/** What one answer came back with, streamed or not. */
type TRawReply = { content: string | null; refusal: string | null; finishReason: string | null };

function rawReplyOf(completion: OpenAI.Chat.Completions.ChatCompletion): TRawReply {
  const choice = completion.choices?.[0];
  return {
    content: choice?.message?.content ?? null,
    refusal: choice?.message?.refusal ?? null,
    finishReason: choice?.finish_reason ?? null,
  };
}

function readReply(
  raw: TRawReply,
  wantSummary: boolean,
): { ok: true; envelope: unknown; summary?: TSummaryShape | null } | { ok: false; reason: string } {
  const content = raw.content;
  if (typeof content !== "string" || content.trim() === "") {
    const refusal = raw.refusal;
    return {
      ok: false,
      reason: refusal ? `refused: ${refusal}` : `no message content (finish_reason ${raw.finishReason ?? "none"})`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(unfence(content));
  } catch (error) {
    const truncated = raw.finishReason === "length" ? " (truncated: finish_reason length)" : "";
    return { ok: false, reason: `unparseable JSON${truncated}: ${(error as Error).message}` };
  }
  const parsed = ZOutputEnvelope.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `schema: ${describe(parsed.error.issues)}` };
  if (!wantSummary) return { ok: true, envelope: parsed.data };
  // A missing summary means "no update proposed"; a present but malformed one fails the attempt.
  const given = (json as { summary?: unknown }).summary;
  if (given === undefined || given === null) return { ok: true, envelope: parsed.data, summary: null };
  const summary = ZSummaryUpdate.safeParse(given);
  if (!summary.success) return { ok: false, reason: `schema: ${describe(summary.error.issues, "summary")}` };
  return { ok: true, envelope: parsed.data, summary: summary.data };
}

type TRequest = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type TTokens = { tokensIn: number | null; tokensOut: number | null; warnings: string[] };
// A server's usage figures are its input like any other: a count that is not one ("12", 12.5,
// -5) is read or ignored with a warning on the attempt, never a failed turn.
const tokensOf = (usage: OpenAI.Completions.CompletionUsage | null | undefined): TTokens => {
  const warnings: string[] = [];
  const raw = usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | null | undefined;
  return {
    tokensIn: tokenCount(raw?.prompt_tokens, "usage.prompt_tokens", warnings),
    tokensOut: tokenCount(raw?.completion_tokens, "usage.completion_tokens", warnings),
    warnings,
  };
};

async function wholeReply(
  client: OpenAI,
  request: TRequest,
  signal: AbortSignal,
): Promise<{ raw: TRawReply; tokens: TTokens }> {
  const completion = await client.chat.completions.create(request, { signal });
  return { raw: rawReplyOf(completion), tokens: tokensOf(completion.usage) };
}

/** The same request streamed (server-sent chunks); assistant_text is reported piece by piece. */
async function streamReply(
  client: OpenAI,
  request: TRequest,
  signal: AbortSignal,
  onPiece: (piece: string) => void,
): Promise<{ raw: TRawReply; tokens: TTokens }> {
  const stream = await client.chat.completions.create(
    { ...request, stream: true, stream_options: { include_usage: true } },
    { signal },
  );
  const text = assistantTextStream(onPiece);
  let content = "";
  let refusal = "";
  let finishReason: string | null = null;
  let usage: OpenAI.Completions.CompletionUsage | null = null;
  for await (const chunk of stream) {
    const choice = chunk.choices?.[0];
    const delta = choice?.delta?.content;
    if (delta) {
      content += delta;
      text.write(delta);
    }
    if (choice?.delta?.refusal) refusal += choice.delta.refusal;
    if (choice?.finish_reason) finishReason = choice.finish_reason;
    if (chunk.usage) usage = chunk.usage;
  }
  return { raw: { content, refusal: refusal || null, finishReason }, tokens: tokensOf(usage) };
}

/** The chat request for a turn: its messages, and the envelope's JSON schema (with the summary when one is asked). */
function requestOf(model: string, input: TModelInput, wantSummary: boolean): TRequest {
  return {
    model,
    messages: buildMessages(input),
    response_format: {
      type: "json_schema",
      json_schema: {
        name: "OutputEnvelope",
        schema: wantSummary ? ENVELOPE_WITH_SUMMARY_SCHEMA : ENVELOPE_SCHEMA,
        strict: false,
      },
    },
  };
}

export function createOpenAICompatibleModel(options: TOpenAICompatibleOptions): TModelProvider {
  const { model, apiKey, timeoutMs, maxAttempts } = options;
  const baseDelay = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const maxDelay = options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  // maxRetries 0: we retry ourselves so each try is an attempt of its own.
  const client = new OpenAI({ baseURL: options.baseURL, apiKey, timeout: timeoutMs, maxRetries: 0 });
  const backoff = (n: number) => Math.min(maxDelay, baseDelay * 2 ** (n - 1));

  async function tryOnce(n: number, input: TModelInput, options: TGenerateOptions): Promise<TTry> {
    const started = performance.now();
    // The SDK's timeout stops at the response headers; this deadline also covers the body.
    const deadline = AbortSignal.timeout(timeoutMs);
    const attempt = (rest: Partial<TModelAttempt> & Pick<TModelAttempt, "outcome" | "reason">): TModelAttempt => ({
      n,
      model,
      tokensIn: null,
      tokensOut: null,
      latencyMs: Math.round(performance.now() - started),
      ...rest,
    });
    try {
      const wantSummary = input.summary != null;
      const request = requestOf(model, input, wantSummary);
      const onText = options.onText;
      const { raw, tokens: reported } = onText
        ? await streamReply(client, request, deadline, (piece) => onText({ n, piece }))
        : await wholeReply(client, request, deadline);
      const { warnings, ...tokens } = reported;
      // A stream the deadline cut short ends quietly with part of the answer: that is a timeout
      // (with its backoff), not an invalid envelope asked again at once.
      if (deadline.aborted) {
        const reason = `no complete answer within ${timeoutMs} ms`;
        return { attempt: attempt({ ...tokens, outcome: "timeout", reason }), retry: true, delayMs: backoff(n) };
      }
      const reply = readReply(raw, wantSummary);
      if (!reply.ok) {
        // The model answered but not usably: ask again at once.
        const reason = redact(reply.reason, apiKey);
        return { attempt: attempt({ ...tokens, outcome: "invalid_envelope", reason }), retry: true, delayMs: 0 };
      }
      const done = attempt({
        ...tokens,
        outcome: "ok",
        reason: warnings.length > 0 ? redact(`warning: ${warnings.join("; ")}`, apiKey) : null,
      });
      const output: TModelOutput = { envelope: reply.envelope, ...tokens };
      if (wantSummary) output.summary = reply.summary ?? null;
      // The judge is our own code (the gate, the claim check and its lookup): its failure is not
      // the model's, so it must not be recorded as a network error and retried.
      const verdict = await judgeOf(options, output, done).catch((cause: unknown) => {
        throw new JudgeFailed(cause);
      });
      if (!verdict.deliver) {
        // The output gate refused it: not delivered; a fresh sample may pass, so ask again now.
        return { attempt: { ...done, outcome: "blocked", reason: verdict.reason }, retry: true, delayMs: 0 };
      }
      return { attempt: done, output, retry: false, delayMs: 0 };
    } catch (error) {
      if (error instanceof JudgeFailed) throw error.cause;
      // Our deadline firing (before or after the headers) or the SDK's own timeout.
      if (deadline.aborted || error instanceof APIConnectionTimeoutError) {
        const reason = `no complete answer within ${timeoutMs} ms`;
        return { attempt: attempt({ outcome: "timeout", reason }), retry: true, delayMs: backoff(n) };
      }
      if (error instanceof APIError && typeof error.status === "number") {
        const status = error.status;
        // The SDK's message starts with the status; keep the server's words after it, redacted.
        const detail = error.message.replace(new RegExp(`^${status}\\s*`), "");
        const reason = redact(`HTTP ${status}${detail ? `: ${detail}` : ""}`, apiKey);
        const retry = status === 429 || status >= 500;
        const wait = retryAfterMs(error.headers);
        const delayMs = wait === null ? backoff(n) : Math.min(Math.max(0, wait), maxDelay);
        return { attempt: attempt({ outcome: "http_error", reason }), retry, delayMs };
      }
      // Connection refused/reset, DNS, a body that is not the protocol: the network's fault.
      const reason = redact(rootCause(error), apiKey);
      return { attempt: attempt({ outcome: "network_error", reason }), retry: true, delayMs: backoff(n) };
    }
  }

  return {
    name: `openai-compatible:${model}`,
    async generate(input: TModelInput, options: TGenerateOptions = {}): Promise<TModelOutput> {
      const attempts: TModelAttempt[] = [];
      for (let n = 1; n <= maxAttempts; n++) {
        const result = await tryOnce(n, input, options);
        const again = !result.output && result.retry && n < maxAttempts;
        const waits = again && result.delayMs > 0;
        // The wait before the next attempt (backoff, or the server's Retry-After) is said with the
        // failure, so the trace shows why the turn took that long.
        attempts.push(
          waits
            ? {
                ...result.attempt,
                reason: `${result.attempt.reason ?? result.attempt.outcome}; next attempt in ${result.delayMs} ms`,
              }
            : result.attempt,
        );
        if (result.output) return { ...result.output, attempts };
        if (!again) break;
        if (result.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, result.delayMs));
      }
      const last = attempts[attempts.length - 1];
      throw new ModelAttemptsFailed(
        `model ${model} gave no usable envelope in ${attempts.length} attempt(s); last: ${last?.outcome} (${last?.reason})`,
        attempts,
      );
    },
  };
}
