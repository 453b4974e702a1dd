"use client";
import { type FormEvent, useState } from "react";
import { safeNextPath, signInWithEmail } from "@/lib/auth-client";

/**
 * Email + password sign-in; on success a full page load of `next` (a path on this site) or /.
 * The fields are uncontrolled and read from the form on submit: what someone typed before the
 * page's script loaded (a slow connection) still counts, instead of React's empty state. The form
 * posts if submitted before then, so a password never lands in a URL (browser history, logs).
 */
export function SignInForm({ next }: { next: string | null }) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const target = safeNextPath(next);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    const email = String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    if (!email.trim() || !password) {
      setError("Enter your email and password.");
      return;
    }
    setPending(true);
    const result = await signInWithEmail(email.trim(), password);
    if (result.ok) {
      window.location.assign(target);
      return;
    }
    setPending(false);
    setError(result.message);
  }

  return (
    <section className="panel stack narrow" aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading" className="page-title">
        Sign in
      </h1>
      {target !== "/" ? <p className="muted">Sign in to continue to {target}.</p> : null}
      <form className="stack" method="post" onSubmit={submit} noValidate>
        <label className="field">
          <span>Email</span>
          <input type="email" name="email" autoComplete="username" required />
        </label>
        <label className="field">
          <span>Password</span>
          <input type="password" name="password" autoComplete="current-password" required />
        </label>
        <div className="row">
          <button type="submit" className="primary" disabled={pending}>
            {pending ? "Signing in…" : "Sign in"}
          </button>
        </div>
        {error ? (
          <p className="error" role="alert">
            {error}
          </p>
        ) : null}
      </form>
      <p className="muted">
        Accounts are created by a Jam editor. On a fresh install the setup command prints the demo accounts.
      </p>
    </section>
  );
}
