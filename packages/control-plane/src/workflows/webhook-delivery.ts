import { createHmac } from "node:crypto";
import { WEBHOOK_SECRET_PREFIX } from "@solserver/checkpoint";
import { checkDestination, defaultLookup, publicFetch, type TLookup } from "./webhook-address";
import { WebhookError } from "./webhook-error";

// Delivering one signed POST (docs/workflows-webhooks.md): HMAC-SHA256 over "<timestamp>.<body>"
// when a key is named, retried on network errors, timeouts, 5xx and 429 with exponential backoff
// and jitter; every delivery of one attempt carries the same idempotency key; a 2xx is never
// repeated and a redirect never followed.

const WEBHOOK_USER_AGENT = "solserver-workflows";
/** An answer larger than this fails the phase. */
const MAX_ANSWER_BYTES = 1024 * 1024;
const DEFAULT_BACKOFF_MS = 500;
const DEFAULT_MAX_BACKOFF_MS = 8_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;
/** How much of a refused answer's body a failure message quotes. */
const SNIPPET_CHARS = 200;
const SNIPPET_BYTES = 4096;

/** How deliveries are made; every field has the real default, tests inject their own. */
export type TDeliveryOptions = {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Where secret_env is looked up: the server's SOLSERVER_WEBHOOK_SECRET_* variables (env.ts). */
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
function webhookHeaders(input: {
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
function signWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/**
 * The secret a secret_env names, or null when none is named; a named one that is missing fails.
 * Only variables under WEBHOOK_SECRET_PREFIX sign (a definition is refused otherwise; this also
 * holds for runs stored before the rule), and a refusal never says whether the variable is set.
 */
export function webhookSecret(
  secretEnv: string | null | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  if (secretEnv === null || secretEnv === undefined) return null;
  // A definition's author must not be able to make the server sign with its own secrets (the
  // receiver would get an HMAC keyed by, say, the database password over a body it knows).
  if (!secretEnv.startsWith(WEBHOOK_SECRET_PREFIX)) {
    throw new WebhookError(
      `secret_env ${secretEnv} cannot sign webhooks: only variables starting with ${WEBHOOK_SECRET_PREFIX} do`,
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
export function shown(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

export function oneLine(text: string, max = SNIPPET_CHARS): string {
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
