"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { signOut } from "@/lib/auth-client";
import { CheckpointBadge, PendingBadge } from "../review/pending-badge";
import { isUnder, JAM_PAGES } from "./jam-pages";
import { useMe } from "./session";

const LINKS = [
  { href: "/chat", label: "Chat" },
  { href: "/review", label: "Review" },
  { href: "/cfbs", label: "Knowledge" },
  { href: "/threads", label: "Threads" },
  { href: "/gate", label: "Gate" },
] as const;

/** The header's navigation and account: who is signed in, their role, and Sign out. */
export function SessionNav() {
  const pathname = usePathname();
  const me = useMe();
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function leave() {
    setLeaving(true);
    setError(null);
    try {
      await signOut();
      window.location.assign("/sign-in");
    } catch {
      setLeaving(false);
      setError("Sign-out failed; try again.");
    }
  }

  const links = me.data?.role === "jam" ? [...LINKS, ...JAM_PAGES] : me.data ? LINKS : [];
  return (
    <>
      <nav aria-label="Main">
        {links.map((l) => (
          // No prefetch: the links appear with the session, as the page loads its own data, and their
          // eight page requests would queue with it on the server (the review desk's first item).
          <Link
            key={l.href}
            href={l.href}
            prefetch={false}
            aria-current={isUnder(pathname, l.href) ? "page" : undefined}
          >
            {l.label}
            {l.href === "/review" ? <PendingBadge /> : null}
            {l.href === "/workflows" ? <CheckpointBadge /> : null}
          </Link>
        ))}
      </nav>
      <div className="account">
        {me.data ? (
          <>
            <span data-testid="signed-in-as" title={me.data.name}>
              {me.data.email}
            </span>
            <span className={`badge${me.data.role === "jam" ? " jam" : ""}`} data-testid="role-badge">
              {me.data.role}
            </span>
            <button type="button" onClick={leave} disabled={leaving}>
              {leaving ? "Signing out…" : "Sign out"}
            </button>
            {error ? (
              <span className="error" role="alert">
                {error}
              </span>
            ) : null}
          </>
        ) : me.isPending ? null : pathname === "/sign-in" ? null : (
          <Link href="/sign-in">Sign in</Link>
        )}
      </div>
    </>
  );
}
