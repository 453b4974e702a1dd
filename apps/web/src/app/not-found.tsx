import Link from "next/link";

// Our own 404: Next's built-in one styles itself with inline style attributes, which the CSP refuses.
export default function NotFound() {
  return (
    <section className="panel stack narrow">
      <h1 className="page-title">Page not found</h1>
      <p className="muted">There is nothing at this address.</p>
      <div className="row">
        <Link href="/">Back to your start page</Link>
        <Link href="/review">Review queue</Link>
        <Link href="/cfbs">Knowledge</Link>
      </div>
    </section>
  );
}
