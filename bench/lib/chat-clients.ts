// What the HTTP load benchmarks (load.ts, throughput.ts) send as signed-in chat clients: the
// session cookie of a password sign-in, and the mix of messages the offline model handles
// (decisions that become proposals, questions, an acknowledgement).

const CHAT_MESSAGES = [
  "We decided to run the nightly backup at 02:00 UTC from now on.",
  "How do we rotate the database credentials?",
  "What is the retention of the audit log?",
  "We agreed that deploys go out on Tuesdays and Thursdays only.",
  "Why does the worker restart after a config change?",
  "ok thanks",
] as const;

/**
 * Client `client`'s `n`th message: the list in turn, each made its own with a ticket number, as
 * people never send the same text twice (a repeated text finds its sentence vector cached, and a
 * benchmark of repeats measures the cache); the acknowledgement stays as people type it.
 */
export function chatMessage(client: number, n: number): string {
  const text = CHAT_MESSAGES[n % CHAT_MESSAGES.length] as string;
  return text === "ok thanks" ? text : `${text} (ticket ${client}-${n})`;
}

/**
 * Signs `email` in on the server at `server` (a process's own address) as the browser at `origin`
 * (the public address every process shares) would, and returns the session cookie header.
 */
export async function signInCookie(
  server: string,
  origin: string,
  email: string,
  password: string,
  timeoutMs = 30_000,
): Promise<string> {
  const res = await fetch(`${server}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email, password }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (res.status !== 200) throw new Error(`sign-in ${email} on ${server}: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
