import "server-only";

/**
 * better-auth's answer without session tokens in its body. It sends the session token as an
 * HttpOnly cookie and also in the JSON (`token` after sign-in and sign-up, `session.token` from
 * get-session, each session's `token` from list-sessions, after a password change), where any
 * script on the page could read it; the cookie alone is enough for the browser. Every `token`
 * key of a JSON answer is removed, at any depth. API tokens are created through our own
 * procedures, not here, so they are unaffected.
 */
export async function withoutTokens(response: Response): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return rebuilt(response, text);
  }
  return rebuilt(response, JSON.stringify(stripTokens(body)));
}

function stripTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripTokens);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "token")
      .map(([key, v]) => [key, stripTokens(v)]),
  );
}

function rebuilt(response: Response, body: string): Response {
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
