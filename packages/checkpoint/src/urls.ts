// Webhook addresses (a webhook step, a workflow's notify): checked as text only, never fetched.

/** Long enough for any real endpoint; longer is a mistake or an attempt to smuggle data out. */
const MAX_URL_CHARS = 2000;

/** Why `text` is not an http(s) webhook address, or undefined when it is one. */
export function webhookUrlProblem(text: string): string | undefined {
  if (text.length > MAX_URL_CHARS) return `is ${text.length} characters; the limit is ${MAX_URL_CHARS}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${text}" is not a URL`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `must be an http or https URL, not ${url.protocol}`;
  if (url.hostname === "") return `"${text}" names no host`;
  // Credentials in a URL end up in logs and in the stored run: the key belongs in secret_env.
  if (url.username !== "" || url.password !== "") return "must not carry credentials; name the key in secret_env";
  return undefined;
}
