"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { DataTable } from "../ui/data-table";
import { formatTs } from "../ui/format";
import { hasNoItems, QueryState } from "../ui/query-state";
import { ErrorAlert } from "../ui/ui";

/** The expiries the form offers, in days (a CI token for a quarter, a year). */
const EXPIRY_DAYS = [7, 30, 90, 365] as const;

/** Jam editors: API tokens for services, created for an account and shown in plaintext once. */
export function AdminTokens() {
  return (
    <div className="stack">
      <NewTokenForm />
      <TokenList />
    </div>
  );
}

/** Invalidates the token list after a change. */
function useRefreshTokens() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.tokens.pathKey() });
}

/** A new token for an account, its plaintext shown once. */
function NewTokenForm() {
  const trpc = useTRPC();
  const refresh = useRefreshTokens();
  const users = useQuery(trpc.users.list.queryOptions());
  const [userId, setUserId] = useState("");
  const [name, setName] = useState("");
  const [expiresInDays, setExpiresInDays] = useState("");
  const [formError, setFormError] = useState<string | null>(null);
  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      onSuccess: async () => {
        setName("");
        await refresh();
      },
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    if (!userId) return setFormError("Choose the account the token acts as.");
    if (!name.trim()) return setFormError("Give the token a name (what service uses it).");
    create.mutate({
      user_id: userId,
      name: name.trim(),
      ...(expiresInDays ? { expires_in_days: Number(expiresInDays) } : {}),
    });
  }

  return (
    <section className="panel stack" aria-labelledby="new-token-heading">
      <h2 id="new-token-heading">New API token</h2>
      <p className="muted">
        A service sends it as <code>Authorization: Bearer &lt;token&gt;</code> and acts as the chosen account, with that
        account&rsquo;s role.
      </p>
      <form className="row form-row" onSubmit={submit}>
        <label className="field">
          <span>Account</span>
          <select
            aria-label="Account"
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
            disabled={!users.data}
          >
            <option value="">{users.isPending ? "Loading accounts…" : "Choose an account"}</option>
            {users.data?.items.map((u) => (
              <option key={u.id} value={u.id}>
                {u.email} ({u.role})
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Token name</span>
          <input
            type="text"
            value={name}
            maxLength={80}
            placeholder="e.g. nightly importer"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Expires</span>
          <select aria-label="Expires" value={expiresInDays} onChange={(e) => setExpiresInDays(e.target.value)}>
            <option value="">never (until revoked)</option>
            {EXPIRY_DAYS.map((days) => (
              <option key={days} value={days}>
                in {days} days
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create token"}
        </button>
      </form>
      <ErrorAlert what="Could not load accounts" error={users.error} />
      {formError || create.error ? (
        <p className="error" role="alert">
          {formError ?? create.error?.message}
        </p>
      ) : null}
      {create.data ? (
        <NewToken
          token={create.data.token}
          name={create.data.name}
          email={create.data.user_email}
          onDone={() => create.reset()}
        />
      ) : null}
    </section>
  );
}

/** Every token, and revoking one (it asks first: the service using it stops working). */
function TokenList() {
  const trpc = useTRPC();
  const refresh = useRefreshTokens();
  const tokens = useQuery(trpc.tokens.list.queryOptions());
  const [revoking, setRevoking] = useState<{ id: string; name: string; email: string } | null>(null);
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({ onSettled: refresh, onSuccess: () => setRevoking(null) }),
  );
  return (
    <section className="panel stack" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">API tokens</h2>
      <ErrorAlert what="Could not revoke" error={revoking ? null : revoke.error} />
      {revoking ? (
        <ConfirmDialog
          title={`Revoke "${revoking.name}"?`}
          confirmLabel="Revoke the token"
          pending={revoke.isPending}
          onCancel={() => setRevoking(null)}
          onConfirm={() => revoke.mutate({ token_id: revoking.id })}
          alert={<ErrorAlert what="Could not revoke" error={revoke.error} />}
        >
          <p>
            Every request with it (acting as {revoking.email}) is refused from now on. The service using it stops
            working until it gets a new token. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
      <QueryState
        query={tokens}
        what="API tokens"
        loading="Loading tokens…"
        isEmpty={hasNoItems}
        empty="No tokens yet."
      >
        {(data) => (
          <DataTable
            headers={[
              "Name",
              "Account",
              "Prefix",
              "Created",
              "Last used",
              "Status",
              <span key="actions" className="visually-hidden">
                Actions
              </span>,
            ]}
            testId="token-list"
          >
            <tbody>
              {data.items.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>{t.user_email}</td>
                  <td>
                    <code>{t.prefix}…</code>
                  </td>
                  <td>{formatTs(t.created_ts)}</td>
                  <td>{formatTs(t.last_used_ts)}</td>
                  <td>
                    {t.revoked_ts ? (
                      <span className="badge revoked">revoked {formatTs(t.revoked_ts)}</span>
                    ) : t.expires_ts && new Date(t.expires_ts) <= new Date() ? (
                      <span className="badge revoked">expired {formatTs(t.expires_ts)}</span>
                    ) : (
                      <span className="badge">active{t.expires_ts ? `, expires ${formatTs(t.expires_ts)}` : ""}</span>
                    )}
                  </td>
                  <td>
                    {t.revoked_ts ? null : (
                      <button
                        type="button"
                        className="reject"
                        aria-label={`Revoke ${t.name}`}
                        disabled={revoke.isPending && revoke.variables?.token_id === t.id}
                        onClick={() => setRevoking({ id: t.id, name: t.name, email: t.user_email })}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </DataTable>
        )}
      </QueryState>
    </section>
  );
}

/** The plaintext token, once: the server keeps only its hash. */
function NewToken({ token, name, email, onDone }: { token: string; name: string; email: string; onDone: () => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  async function copy() {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(token);
      setCopied("yes");
    } catch {
      setCopied("no");
    }
  }
  return (
    <section className="secret stack" aria-label="New token">
      <p>
        <strong>Copy this token now: it will not be shown again.</strong> Token &ldquo;{name}&rdquo; acts as {email}.
        Store it in the service&rsquo;s secret store; if it is lost, revoke it and create another.
      </p>
      <div className="row">
        <input
          ref={input}
          type="text"
          readOnly
          value={token}
          aria-label="Token value"
          data-testid="new-token"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" onClick={copy}>
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
      {copied === "yes" ? <p className="muted">Copied to the clipboard.</p> : null}
      {copied === "no" ? <p className="muted">Copying failed here: select the text and copy it by hand.</p> : null}
    </section>
  );
}
