"use client";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { isUnauthorized } from "@/lib/trpc-errors";
import { jamPageName } from "./jam-pages";
import { useMe, useRedirectOnUnauthorized } from "./session";

/**
 * The signed-in pages' frame (app/(signed-in)/layout.tsx): renders them only for a signed-in
 * account. Anonymous visitors go to /sign-in?next=<this page>. The server checks every call
 * anyway; this only keeps a page from showing a wall of errors.
 */
export function SignedIn({ children }: { children: ReactNode }) {
  const me = useMe();
  useRedirectOnUnauthorized(me.error);
  if (me.error) {
    if (isUnauthorized(me.error)) return <p className="muted">You are signed out. Redirecting to sign-in…</p>;
    return (
      <p className="error" role="alert">
        Could not check your session: {me.error.message}
      </p>
    );
  }
  // While the session is checked the page is mounted hidden, so that its own calls go out in the
  // same batch as the session's instead of a round trip after it (the review desk's first item,
  // issue 35). The same element either way: the page keeps its state when it is shown.
  return (
    <>
      {me.isPending ? <p className="muted">Checking your session…</p> : null}
      <div className="signed-in-page" hidden={me.isPending}>
        {children}
      </div>
    </>
  );
}

/** The Jam editors' pages' frame (app/(signed-in)/(jam)/layout.tsx): anyone else is told they have no access. */
export function JamOnly({ children }: { children: ReactNode }) {
  const me = useMe();
  const pathname = usePathname();
  // Mounted while the session is checked (SignedIn): the page's own calls start once it is known.
  if (me.isPending) return null;
  if (me.data?.role !== "jam") return <Forbidden what={jamPageName(pathname)} />;
  return children;
}

function Forbidden({ what }: { what: string | undefined }) {
  return (
    <section className="panel stack" role="alert" aria-labelledby="forbidden-heading">
      <h2 id="forbidden-heading">You don&rsquo;t have access</h2>
      <p>{what ? `${what} is` : "This page is"} only available to Jam editors. Ask a Jam editor if you need it.</p>
    </section>
  );
}
