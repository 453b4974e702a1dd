"use client";
import { type FormEvent, useState } from "react";
import { safeNextPath, signInWithEmail } from "@/lib/auth-client";

/** Email + password sign-in; on success a full page load of `next` (a path on this site) or /. */
export function SignInForm({ next }: { next: string | null }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const target = safeNextPath(next);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
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
      <form className="stack" onSubmit={submit} noValidate>
        <label className="field">
          <span>Email</span>
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
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
