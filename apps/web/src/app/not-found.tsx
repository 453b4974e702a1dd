import Link from "next/link";

// Our own 404: Next's built-in one styles itself with inline style attributes, which the CSP refuses.
export default function NotFound() {
  return (
    <section className="panel stack narrow">
      <h2>Page not found</h2>
      <p className="muted">There is nothing at this address.</p>
      <Link href="/">Back to the dashboard</Link>
    </section>
  );
}
