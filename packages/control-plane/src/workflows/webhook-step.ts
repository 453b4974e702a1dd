import { createHmac } from "node:crypto";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { RESERVED_CONTEXT_KEYS, type TRunState, toPlainData } from "@solserver/checkpoint";
import { Agent, fetch as undiciFetch } from "undici";
import type { TStep, TStepResult } from "./driver";

// The webhook executor on the server (docs/workflows-webhooks.md): a phase whose `run` is
// `{ webhook: url, secret_env, timeout, retries }` POSTs the run's context as JSON to the URL,
// signed with HMAC-SHA256 when secret_env names a key, and merges the JSON answer into the
// context. Deliveries are retried on network errors, timeouts, 5xx and 429 with exponential
// backoff; every delivery of one attempt of the phase carries the same idempotency key. By default
// an address that resolves to a loopback, private or link-local network is refused, so that a
// definition cannot turn the server into a proxy to internal services.

export const WEBHOOK_USER_AGENT = "solserver-workflows";
/** Set to 1 (or true) to let webhooks reach loopback, private and link-local addresses. */
export const WEBHOOKS_PRIVATE_ENV = "SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE";
/** How old a signed request a receiver should still accept (docs; the sender stamps every delivery afresh). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** An answer larger than this fails the phase. */
export const MAX_ANSWER_BYTES = 1024 * 1024;
export const DEFAULT_BACKOFF_MS = 500;
export const DEFAULT_MAX_BACKOFF_MS = 8_000;
export const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;
/** How much of a refused answer's body a failure message quotes. */
const SNIPPET_CHARS = 200;
const SNIPPET_BYTES = 4096;

export type TLookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/** How deliveries are made; every field has the real default, tests inject their own. */
export type TDeliveryOptions = {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Where secret_env is looked up (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The clock for x-solserver-timestamp and Retry-After dates. */
  now?: () => Date;
  /** Name resolution for the private-network check (default dns.lookup, every address). */
  lookup?: TLookup;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Let webhooks reach loopback, private and link-local addresses (SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE=1). */
  allowPrivateNetworks?: boolean;
  /** The first retry's delay; each further retry doubles it, up to maxBackoffMs (±25 % jitter). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** The longest a Retry-After header is honoured; a longer one is cut to this. */
  maxRetryAfterMs?: number;
  /** The largest answer body accepted (default 1 MiB). */
  maxAnswerBytes?: number;
};

export type TWebhookStepOptions = TDeliveryOptions & {
  /** The run's id (WR-…): the state does not carry it. */
  runId: string;
};

/** What a webhook step POSTs (docs/workflows-webhooks.md#the-request). */
export type TWebhookRequestBody = {
  run_id: string;
  workflow: string;
  phase_id: string;
  iteration: number;
  attempt: number;
  context: TRunState["context"];
  variables: TRunState["variables"];
};

/** A failed delivery, in one line without the secret. `status` is the last HTTP status, if any. */
export class WebhookError extends Error {
  override readonly name = "WebhookError";
  readonly status: number | null;
  /** Requests actually sent (0: refused before sending). */
  readonly deliveries: number;
  constructor(message: string, status: number | null = null, deliveries = 0) {
    super(message);
    this.status = status;
    this.deliveries = deliveries;
  }
}

/** Whether the env var SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE allows private networks. */
export function privateNetworksAllowed(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env[WEBHOOKS_PRIVATE_ENV]?.trim().toLowerCase();
  return value === "1" || value === "true" || value === "yes";
}

// ---------------------------------------------------------------------------------------------
// Addresses

type TRange = { net: number; bits: number; kind: string };

function v4(text: string): number {
  return text.split(".").reduce((acc, part) => acc * 256 + Number(part), 0);
}

const V4_RANGES: readonly TRange[] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (carrier-grade NAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved (benchmarking)"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
].map(([net, bits, kind]) => ({ net: v4(net as string), bits: bits as number, kind: kind as string }));

function v4Kind(address: number): string | undefined {
  for (const range of V4_RANGES) {
    const size = 2 ** (32 - range.bits);
    if (Math.floor(address / size) === Math.floor(range.net / size)) return range.kind;
  }
  return undefined;
}

/** The eight 16-bit groups of a valid IPv6 address (an embedded dotted IPv4 tail included). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted?.[1]) {
    const n = v4(dotted[1]);
    text = `${text.slice(0, dotted.index)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array<string>(8 - h.length - t.length).fill("0");
  return [...h, ...fill, ...t].map((g) => Number.parseInt(g, 16));
}

function v6Kind(address: string): string | undefined {
  const g = v6Groups(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = g6 * 65536 + g7;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(8)) return "unspecified";
  if (zeroTo(7) && g7 === 1) return "loopback";
  const inner = (label: string, v4Address: number) => {
    const kind = v4Kind(v4Address);
    return kind === undefined ? undefined : `${label} ${kind}`;
  };
  // IPv4 inside IPv6: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d),
  // 6to4 (2002:aabb:ccdd::) all reach the embedded IPv4 address.
  if (zeroTo(5) && g5 === 0xffff) return inner("IPv4-mapped", embedded);
  if (zeroTo(6)) return inner("IPv4-compatible", embedded);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return inner("NAT64", embedded);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return "private (local NAT64)";
  if (g0 === 0x2002) return inner("6to4", g1 * 65536 + g2);
  if (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) return "reserved (discard)";
  if ((g0 & 0xfe00) === 0xfc00) return "private (unique local)";
  if ((g0 & 0xffc0) === 0xfe80) return "link-local";
  if ((g0 & 0xffc0) === 0xfec0) return "private (site-local)";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  return undefined;
}

/**
 * Why an IP address is not a public one ("loopback", "private", "link-local", "IPv4-mapped
 * loopback", …), or undefined when it is public (or not an IP address at all).
 */
export function nonPublicAddressKind(address: string): string | undefined {
  const plain = (address.split("%")[0] ?? address).replace(/^\[|\]$/g, "");
  const family = isIP(plain);
  if (family === 4) return v4Kind(v4(plain));
  if (family === 6) return v6Kind(plain);
  return undefined;
}

const defaultLookup: TLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The connection's own name lookup refuses non-public addresses too. checkDestination resolves the
 * name before a delivery, but fetch resolves it again when it connects: a name that answers with a
 * public address first and 127.0.0.1 next (DNS rebinding) would pass the first check. Checked here,
 * the address connected to is the one that was checked.
 */
const publicOnlyAgent = new Agent({
  connect: {
    lookup: (hostname, options, callback) => {
      dnsLookup(hostname, { all: true, verbatim: true }).then(
        (addresses) => {
          const refused = addresses.find((a) => nonPublicAddressKind(a.address) !== undefined);
          if (refused) {
            const kind = nonPublicAddressKind(refused.address);
            callback(new WebhookError(`${hostname} resolves to ${refused.address}, a ${kind} address`), "", 0);
          } else if ((options as { all?: boolean }).all) {
            (callback as unknown as (e: null, list: typeof addresses) => void)(null, addresses);
          } else {
            const first = addresses[0];
            if (!first) callback(new Error(`${hostname} resolves to no address`), "", 0);
            else callback(null, first.address, first.family);
          }
        },
        (error: NodeJS.ErrnoException) => callback(error, "", 0),
      );
    },
  },
});

/** fetch over the public-only connection (undici's own fetch, so the agent is its own version). */
export const publicFetch: typeof fetch = (input, init) =>
  undiciFetch(input as string | URL, {
    ...(init as object),
    dispatcher: publicOnlyAgent,
  }) as unknown as Promise<Response>;

/**
 * Refuses (WebhookError, nothing sent) a URL whose host is, or resolves to, a non-public address;
 * every address the name resolves to is checked. Resolution failures are network errors (thrown
 * as they are, so the caller retries them).
 */
async function checkDestination(url: URL, lookup: TLookup): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const addresses = isIP(host) !== 0 ? [host] : (await lookup(host)).map((entry) => entry.address);
  if (addresses.length === 0) throw new Error(`${host} resolves to no address`);
  for (const address of addresses) {
    const kind = nonPublicAddressKind(address);
    if (kind === undefined) continue;
    const what = address === host ? `${host} is` : `${host} resolves to ${address},`;
    throw new WebhookError(
      `${what} a ${kind} address; webhooks to private networks are refused unless ${WEBHOOKS_PRIVATE_ENV}=1`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Delivery

/** One POST as deliverWebhook makes it (retried as a whole). */
export type TDelivery = {
  url: string;
  /** The raw JSON body: signed and sent byte for byte. */
  body: string;
  /** The same on every retry of this delivery. */
  idempotencyKey: string;
  /** The HMAC key, or null to send unsigned. */
  secret: string | null;
  timeoutMs: number;
  /** Retries after the first request (0: one request). */
  retries: number;
  /** Any 2xx is success and its body is not read (a notification); default false. */
  discardAnswer?: boolean;
};

export type TDelivered = { status: number; text: string; deliveries: number };

/** The headers of one delivery, signed when a secret is given (exported for receivers' tests). */
export function webhookHeaders(input: {
  body: string;
  idempotencyKey: string;
  secret: string | null;
  timestamp: number;
}): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": WEBHOOK_USER_AGENT,
    "idempotency-key": input.idempotencyKey,
    "x-solserver-timestamp": String(input.timestamp),
  };
  if (input.secret !== null) headers["x-solserver-signature"] = signWebhook(input.secret, input.timestamp, input.body);
  return headers;
}

/** `sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The secret a secret_env names, or null when none is named; a named one that is missing fails. */
/** Variables the server itself is configured with (its database, sessions, model keys): never a webhook key. */
export function serverOwnVariable(name: string): boolean {
  return /^(SOLSERVER_|DATABASE_URL$|BETTER_AUTH_|PG[A-Z]*$|POSTGRES_|OPENAI_|ANTHROPIC_|AWS_|GOOGLE_|AZURE_)/.test(
    name,
  );
}

export function webhookSecret(
  secretEnv: string | null | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  if (secretEnv === null || secretEnv === undefined) return null;
  // A definition's author must not be able to make the server sign with its own secrets (the
  // receiver would get an HMAC keyed by, say, the database password over a body it knows).
  if (serverOwnVariable(secretEnv)) {
    throw new WebhookError(
      `secret_env ${secretEnv} is part of the server's own configuration and cannot sign webhooks; use a variable of its own`,
    );
  }
  const value = env[secretEnv];
  if (value === undefined || value === "") {
    throw new WebhookError(
      `secret_env ${secretEnv} is not set in the server's environment; the request must be signed, so nothing was sent`,
    );
  }
  return value;
}

/** The URL as messages show it: no query (it may carry a token), no fragment. */
function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function oneLine(text: string, max = SNIPPET_CHARS): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max)}…` : line;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === "string" ? `${code} (${oneLine(cause.message, 120)})` : oneLine(cause.message, 120);
  }
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? `${code} (${oneLine(error.message, 120)})` : oneLine(error.message, 120);
}

type TBody = { text: string } | { tooLarge: true };

/** At most `max` bytes of the body; more is `tooLarge` (or, with `truncate`, the first `max` bytes). */
async function readBody(response: Response, max: number, truncate = false): Promise<TBody> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (!truncate && Number.isFinite(declared) && declared > max) {
    void response.body?.cancel().catch(() => {});
    return { tooLarge: true };
  }
  if (response.body === null) return { text: "" };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      void reader.cancel().catch(() => {});
      if (!truncate) return { tooLarge: true };
      chunks.push(value.subarray(0, value.byteLength - (size - max)));
      break;
    }
    chunks.push(value);
  }
  return { text: Buffer.concat(chunks).toString("utf8") };
}

function retryAfterMs(header: string | null, now: Date): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

type TOutcome =
  | { ok: true; status: number; text: string }
  | { ok: false; retry: boolean; message: string; status: number | null; waitMs?: number };

/**
 * POSTs `delivery.body` until a 2xx, retrying network errors, timeouts, 5xx and 429; throws
 * WebhookError (one line, no secret) when it gives up. A 2xx is never repeated, even when its body
 * then cannot be read; a redirect is not followed (and not retried).
 */
export async function deliverWebhook(delivery: TDelivery, options: TDeliveryOptions = {}): Promise<TDelivered> {
  // Injected fetch (tests) as given; otherwise public-only connections unless private ones are allowed.
  const fetchFn = options.fetch ?? (options.allowPrivateNetworks ? globalThis.fetch : publicFetch);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const lookup = options.lookup ?? defaultLookup;
  const maxAnswer = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
  const base = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const cap = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
  const retryAfterCap = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  const redact = (text: string) => (delivery.secret ? text.split(delivery.secret).join("[secret]") : text);

  let url: URL;
  try {
    url = new URL(delivery.url);
  } catch {
    throw new WebhookError(`webhook ${oneLine(delivery.url, 120)} is not a URL`);
  }
  const label = `webhook ${shown(url)}`;
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new WebhookError(`${label}: must be an http or https URL`);
  }
  const total = Math.max(0, Math.floor(delivery.retries)) + 1;
  let sent = 0;

  const once = async (): Promise<TOutcome> => {
    if (!options.allowPrivateNetworks) {
      try {
        await checkDestination(url, lookup);
      } catch (error) {
        if (error instanceof WebhookError) throw new WebhookError(`${label}: ${error.message}`, null, sent);
        return {
          ok: false,
          retry: true,
          status: null,
          message: `cannot resolve ${url.hostname}: ${networkReason(error)}`,
        };
      }
    }
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, delivery.timeoutMs);
    try {
      let response: Response;
      try {
        sent++;
        response = await fetchFn(url, {
          method: "POST",
          headers: webhookHeaders({
            body: delivery.body,
            idempotencyKey: delivery.idempotencyKey,
            secret: delivery.secret,
            timestamp: Math.floor(now().getTime() / 1000),
          }),
          body: delivery.body,
          redirect: "manual",
          signal: controller.signal,
        });
      } catch (error) {
        const message = timedOut ? `no answer within ${seconds(delivery.timeoutMs)}` : networkReason(error);
        return { ok: false, retry: true, status: null, message };
      }
      const status = response.status;
      const statusText = `${status}${response.statusText ? ` ${response.statusText}` : ""}`;
      if (status >= 200 && status < 300) {
        // The receiver did the work: whatever happens to the body now, the request is not repeated.
        if (delivery.discardAnswer) {
          void response.body?.cancel().catch(() => {});
          return { ok: true, status, text: "" };
        }
        let body: TBody;
        try {
          body = await readBody(response, maxAnswer);
        } catch (error) {
          const why = timedOut ? `did not finish within ${seconds(delivery.timeoutMs)}` : networkReason(error);
          return { ok: false, retry: false, status, message: `answered ${statusText} but its body ${why}` };
        }
        if ("tooLarge" in body) {
          return {
            ok: false,
            retry: false,
            status,
            message: `answered ${statusText} with a body larger than ${maxAnswer} bytes`,
          };
        }
        return { ok: true, status, text: body.text };
      }
      let snippet = "";
      try {
        const body = await readBody(response, SNIPPET_BYTES, true);
        if ("text" in body && body.text.trim() !== "") snippet = `: ${oneLine(body.text)}`;
      } catch {
        // the status says enough
      }
      if (status >= 300 && status < 400) {
        const location = response.headers.get("location");
        return {
          ok: false,
          retry: false,
          status,
          message: `answered ${statusText}${location ? ` to ${oneLine(location, 120)}` : ""} (redirects are not followed)`,
        };
      }
      const retry = status === 429 || status >= 500;
      const after = retry ? retryAfterMs(response.headers.get("retry-after"), now()) : undefined;
      return {
        ok: false,
        retry,
        status,
        message: `answered ${statusText}${snippet}`,
        ...(after === undefined ? {} : { waitMs: Math.min(after, retryAfterCap) }),
      };
    } finally {
      clearTimeout(timer);
    }
  };

  for (let n = 1; ; n++) {
    const outcome = await once();
    if (outcome.ok) return { status: outcome.status, text: outcome.text, deliveries: sent };
    if (!outcome.retry || n >= total) {
      const tail = !outcome.retry
        ? `${sent === 1 ? "1 delivery" : `${sent} deliveries`}, not retried`
        : `${sent === 1 ? "1 delivery" : `${sent} deliveries`}, no retries left`;
      throw new WebhookError(redact(`${label}: ${outcome.message} (${tail})`), outcome.status, sent);
    }
    const nominal = Math.min(cap, base * 2 ** (n - 1));
    await sleep(outcome.waitMs ?? Math.round(nominal * (0.75 + 0.5 * random())));
  }
}

// ---------------------------------------------------------------------------------------------
// The step

/** The body a webhook step POSTs for the phase `state.next` names. */
export function webhookRequestBody(runId: string, state: TRunState): TWebhookRequestBody {
  if (state.next.kind !== "run_phase") throw new WebhookError("the run is not waiting for a phase to run");
  return {
    run_id: runId,
    workflow: state.workflow,
    phase_id: state.next.phase_id,
    iteration: state.next.iteration,
    attempt: state.next.attempt,
    context: state.context,
    variables: state.variables,
  };
}

function objectOrProblem(value: unknown, path: string): Record<string, unknown> | string {
  let plain: unknown;
  try {
    plain = toPlainData(value, path);
  } catch (error) {
    return error instanceof Error ? error.message : `${path}: is not plain JSON data`;
  }
  if (typeof plain !== "object" || plain === null || Array.isArray(plain)) {
    return `${path} must be a JSON object, not ${Array.isArray(plain) ? "an array" : plain === null ? "null" : typeof plain}`;
  }
  return plain as Record<string, unknown>;
}

/**
 * A 2xx answer as the step's result. The contract (docs/workflows-webhooks.md#the-answer):
 * 204 or an empty body: nothing; a JSON object whose only keys are `data` and/or `variables`:
 * those (each an object, or null for none); any other JSON object: the whole object is the data.
 * Anything else (not JSON, an array, a string) fails the phase. Data may not set the runner's own
 * context keys (phases, skip_phases, checkpoints).
 */
export function parseWebhookAnswer(status: number, text: string): TStepResult {
  if (status === 204 || text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebhookError(`answered ${status} with a body that is not JSON: ${oneLine(text, 120)}`, status);
  }
  const answer = objectOrProblem(json, "answer");
  if (typeof answer === "string") throw new WebhookError(`answered ${status} but ${answer}`, status);
  const keys = Object.keys(answer);
  const envelope = keys.length > 0 && keys.every((key) => key === "data" || key === "variables");
  const result: TStepResult = {};
  const take = (value: unknown, path: string): Record<string, unknown> | undefined => {
    if (value === undefined || value === null) return undefined;
    const checked = objectOrProblem(value, path);
    if (typeof checked === "string") throw new WebhookError(`answered ${status} but ${checked}`, status);
    return checked;
  };
  const data = envelope ? take(answer.data, "answer.data") : answer;
  const variables = envelope ? take(answer.variables, "answer.variables") : undefined;
  if (data !== undefined) {
    const reserved = Object.keys(data).find((key) => RESERVED_CONTEXT_KEYS.has(key));
    if (reserved !== undefined) {
      const where = envelope ? "answer.data" : "answer";
      throw new WebhookError(`answered ${status} but ${where}.${reserved} is reserved for the runner`, status);
    }
    result.data = data;
  }
  if (variables !== undefined) result.variables = variables;
  return result;
}

/**
 * The step for phases whose `run` is a webhook executor: POSTs TWebhookRequestBody to the
 * executor's URL (retries, timeout and signing as the executor says) and returns the answer as
 * data/variables (parseWebhookAnswer). Throws WebhookError, one line without the secret, when the
 * secret is missing, the address is private, or the deliveries fail.
 */
export function webhookStep(options: TWebhookStepOptions): TStep {
  return async ({ state, phaseId }) => {
    const next = state.next;
    if (next.kind !== "run_phase" || next.phase_id !== phaseId || next.executor?.kind !== "webhook") {
      throw new WebhookError(`phase ${phaseId} has no webhook to call`);
    }
    const executor = next.executor;
    const secret = webhookSecret(executor.secret_env, options.env ?? process.env);
    const body = JSON.stringify(webhookRequestBody(options.runId, state));
    const answer = await deliverWebhook(
      {
        url: executor.webhook,
        body,
        idempotencyKey: `${options.runId}:${next.phase_id}:${next.iteration}:${next.attempt}`,
        secret,
        timeoutMs: executor.timeout_ms,
        retries: executor.retries,
      },
      options,
    );
    try {
      return parseWebhookAnswer(answer.status, answer.text);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const shownUrl = (() => {
        try {
          return shown(new URL(executor.webhook));
        } catch {
          return executor.webhook;
        }
      })();
      const clean = secret ? message.split(secret).join("[secret]") : message;
      throw new WebhookError(`webhook ${shownUrl}: ${clean}`, answer.status, answer.deliveries);
    }
  };
}
