"use client";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTRPC } from "@/lib/trpc";
import { isUnauthorized, signInHref } from "@/lib/trpc-errors";

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
