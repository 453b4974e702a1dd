"use client";
import { isForbidden, isUnauthorized } from "@/lib/trpc-errors";
import { useRedirectOnUnauthorized } from "./session";

/**
 * A failed query, explained: signed out (redirects), no access (FORBIDDEN), or the server's
 * message.
 */
export function QueryError({ error, what }: { error: unknown; what: string }) {
  useRedirectOnUnauthorized(error);
  if (isUnauthorized(error)) return <p className="muted">You are signed out. Redirecting to sign-in…</p>;
  if (isForbidden(error)) {
    return (
      <section className="panel stack" role="alert" aria-labelledby="forbidden-heading">
        <h2 id="forbidden-heading">You don&rsquo;t have access</h2>
        <p>You don&rsquo;t have access to {what}.</p>
      </section>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return (
    <p className="error" role="alert">
      Could not load {what}: {message}
    </p>
  );
}
