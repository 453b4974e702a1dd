/**
 * The pages only Jam editors may open (they live under app/(signed-in)/(jam)/): where each is,
 * its link in the header, and what the "no access" message calls it.
 */
export const JAM_PAGES = [
  { href: "/workflows", label: "Checkpoints", what: "Checkpoint workflows" },
  { href: "/admin/tokens", label: "Tokens", what: "Managing API tokens" },
  { href: "/admin/users", label: "Users", what: "Managing users" },
  { href: "/admin/audit", label: "Audit", what: "The audit log" },
  { href: "/admin/resolve", label: "Resolve", what: "Resolve and the reviewers" },
  { href: "/admin/routing", label: "Routing", what: "Teaching the router" },
  { href: "/admin/jobs", label: "Jobs", what: "Background jobs" },
] as const;

/** Whether `pathname` is the page at `href` or one below it ("/" only matches itself). */
export function isUnder(pathname: string, href: string): boolean {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

/** What the Jam page at `pathname` is, for the "no access" message; undefined for one not listed. */
export function jamPageName(pathname: string): string | undefined {
  return JAM_PAGES.find((p) => isUnder(pathname, p.href))?.what;
}
