"use client";
import { createAuthClient } from "better-auth/react";

type TAuthClient = ReturnType<typeof createAuthClient>;

let client: TAuthClient | undefined;

/**
 * better-auth's browser client for /api/auth (sign-in, sign-out). Created on first use in the
 * browser, so server rendering never builds one without an origin to talk to.
 */
function authClient(): TAuthClient {
  client ??= createAuthClient({ baseURL: window.location.origin });
  return client;
}

export type TSignInResult = { ok: true } | { ok: false; message: string };

/**
 * Email + password sign-in with the messages a person needs: wrong credentials, and how long to
 * wait after too many failures (the server answers 429 with Retry-After).
 */
export async function signInWithEmail(email: string, password: string): Promise<TSignInResult> {
  let retryAfter: string | null = null;
  let failure: { status: number; message: string | undefined } | null = null;
  try {
    const { error } = await authClient().signIn.email(
      { email, password },
      {
        onError: (ctx) => {
          retryAfter = ctx.response.headers.get("retry-after");
        },
      },
    );
    if (error) failure = { status: error.status, message: error.message };
  } catch {
    return { ok: false, message: "Could not reach the server. Check your connection and try again." };
  }
  if (!failure) return { ok: true };
  return { ok: false, message: signInErrorMessage(failure.status, failure.message, retryAfter) };
}

function signInErrorMessage(status: number, message: string | undefined, retryAfter: string | null): string {
  if (status === 429) {
    const seconds = Number(retryAfter);
    const wait = Number.isFinite(seconds) && seconds > 0 ? ` retry in ${Math.ceil(seconds)} s` : " try again later";
    return `Too many failed sign-ins,${wait}.`;
  }
  if (status === 401) return "Invalid email or password.";
  if (status === 400) return message ? `Check the form: ${message}` : "Enter a valid email address and password.";
  if (status === 403 && message?.includes("disabled"))
    return "This account is disabled. Ask a Jam editor to enable it.";
  if (status === 403) return "Sign-in was refused: open the dashboard from its own address and try again.";
  if (status === 413) return "That request is too large.";
  return message ? `Sign-in failed: ${message}` : `Sign-in failed (HTTP ${status}). Try again.`;
}

/** Ends the session; the caller then leaves for /sign-in with a full page load (no cached data survives). */
export async function signOut(): Promise<void> {
  const { error } = await authClient().signOut();
  if (error) throw new Error(error.message ?? `sign-out failed (HTTP ${error.status})`);
}

/** A ?next= value we may send the browser to: a path on this site, never another origin. */
export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith("/")) return "/";
  // Parsed as the browser would: it drops tabs and newlines and reads "\\" as "/", so "/\t/evil"
  // or "/\\evil" name another host. Only a result on our own (placeholder) origin is kept.
  const base = "http://solserver.invalid";
  const url = new URL(next, base);
  if (url.origin !== base || url.pathname.startsWith("/sign-in")) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}
