"use client";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { useTRPC } from "@/lib/trpc";
import { isForbidden, isUnauthorized, signInHref } from "@/lib/trpc-errors";

/**
 * Leaves for /sign-in?next=<here>. A full page load, so nothing cached for the previous
 * session survives. Never from the sign-in page itself.
 */
export function redirectToSignIn() {
  if (typeof window === "undefined") return;
  const { pathname, search } = window.location;
  if (pathname === "/sign-in") return;
  window.location.replace(signInHref(`${pathname}${search}`));
}

/** Who is signed in (shared cache entry: the header and every page ask once). */
export function useMe() {
  const trpc = useTRPC();
  return useQuery(trpc.me.get.queryOptions(undefined, { staleTime: 60_000 }));
}

/** Redirects to sign-in when `error` is UNAUTHORIZED. */
export function useRedirectOnUnauthorized(error: unknown) {
  const unauthorized = isUnauthorized(error);
  useEffect(() => {
    if (unauthorized) redirectToSignIn();
  }, [unauthorized]);
}

type TRequireSessionProps = {
  /** Only Jam editors; anyone else sees the "no access" message. */
  jamOnly?: boolean;
  /** What the page is, for the "no access" message. */
  what?: string;
  children: ReactNode;
};

/**
 * Renders its children only for a signed-in account (a Jam editor when `jamOnly`). Anonymous visitors
 * go to /sign-in?next=<this page>. The server checks every call anyway; this only keeps the
 * page from showing a wall of errors.
 */
export function RequireSession({ jamOnly = false, what, children }: TRequireSessionProps) {
  const me = useMe();
  useRedirectOnUnauthorized(me.error);
  if (me.isPending) return <p className="muted">Checking your session…</p>;
  if (me.error) {
    if (isUnauthorized(me.error)) return <p className="muted">You are signed out. Redirecting to sign-in…</p>;
    return (
      <p className="error" role="alert">
        Could not check your session: {me.error.message}
      </p>
    );
  }
  if (jamOnly && me.data.role !== "jam") return <Forbidden what={what} />;
  return children;
}

export function Forbidden({ what, detail }: { what?: string | undefined; detail?: string | undefined }) {
  return (
    <section className="panel stack" role="alert" aria-labelledby="forbidden-heading">
      <h2 id="forbidden-heading">You don&rsquo;t have access</h2>
      <p>
        {what ? `${what} is` : "This page is"} only available to Jam editors
        {detail ? ` (${detail})` : ""}. Ask a Jam editor if you need it.
      </p>
    </section>
  );
}

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
