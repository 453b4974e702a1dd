// What the HTTP load benchmarks (load.ts, throughput.ts) send as signed-in chat clients: the
// session cookie of a password sign-in, and the mix of messages the offline model handles
// (decisions that become proposals, questions, an acknowledgement).

export const CHAT_MESSAGES = [
  "We decided to run the nightly backup at 02:00 UTC from now on.",
  "How do we rotate the database credentials?",
  "What is the retention of the audit log?",
  "We agreed that deploys go out on Tuesdays and Thursdays only.",
  "Why does the worker restart after a config change?",
  "ok thanks",
] as const;

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
