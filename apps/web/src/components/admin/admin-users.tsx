"use client";
import { MIN_PASSWORD_LENGTH, type TRole } from "@solserver/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { useMe } from "../session/session";
import { DataTable } from "../ui/data-table";
import { formatTs } from "../ui/format";
import { QueryState } from "../ui/query-state";
import { AccountActions } from "./account-actions";

const ROLES: { value: TRole; label: string }[] = [
  { value: "user", label: "user (own threads)" },
  { value: "jam", label: "jam (editor: everything)" },
];

/** Jam editors: accounts and their roles. */
export function AdminUsers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useMe();
  const users = useQuery(trpc.users.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.users.pathKey() });

  return (
    <div className="stack">
      <CreateUser onCreated={refresh} />
      <section className="panel stack" aria-labelledby="users-heading">
        <h2 id="users-heading">Accounts</h2>
        <QueryState query={users} what="accounts">
          {(data) => (
            <DataTable headers={["Email", "Name", "Created", "Role and actions"]} stack testId="user-list">
              <tbody>
                {data.items.map((u) => {
                  const self = u.id === me.data?.id;
                  return (
                    <tr key={u.id} data-disabled={u.disabled_ts ? "true" : undefined}>
                      <td data-label="Email">
                        {u.email}
                        {self ? <span className="muted"> (you)</span> : null}
                        {u.disabled_ts ? <span className="badge bad">disabled</span> : null}
                      </td>
                      <td data-label="Name">{u.name}</td>
                      <td data-label="Created">{formatTs(u.created_ts)}</td>
                      <td data-label="Role and actions">
                        <AccountActions account={u} self={self} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </DataTable>
          )}
        </QueryState>
      </section>
    </div>
  );
}

function CreateUser({ onCreated }: { onCreated: () => Promise<void> }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<TRole>("user");
  // Every problem at once, by field: a form that reports one error per submit is fixed in rounds.
  const [problems, setProblems] = useState<{ email?: string; name?: string; password?: string }>({});
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: async () => {
        setEmail("");
        setName("");
        setPassword("");
        setRole("user");
        await onCreated();
      },
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    create.reset();
    const found = {
      ...(/^[^@\s]+@[^@\s]+$/.test(email.trim()) ? {} : { email: "Email must be an email address." }),
      ...(name.trim() ? {} : { name: "Name must not be empty." }),
      ...(password.length >= MIN_PASSWORD_LENGTH
        ? {}
        : { password: `Password must be at least ${MIN_PASSWORD_LENGTH} characters.` }),
    };
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    create.mutate({ email: email.trim(), name: name.trim(), password, role });
  }

  return (
    <section className="panel stack" aria-labelledby="new-user-heading">
      <h2 id="new-user-heading">New account</h2>
      <form className="row form-row" onSubmit={submit} noValidate>
        <label className="field">
          <span>Email</span>
          <input
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={problems.email ? true : undefined}
            aria-describedby={problems.email ? "new-user-email-problem" : undefined}
          />
        </label>
        <label className="field">
          <span>Name</span>
          <input
            type="text"
            maxLength={80}
            value={name}
            onChange={(e) => setName(e.target.value)}
            aria-invalid={problems.name ? true : undefined}
            aria-describedby={problems.name ? "new-user-name-problem" : undefined}
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="new-password"
            minLength={MIN_PASSWORD_LENGTH}
            maxLength={128}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={problems.password ? true : undefined}
            aria-describedby={problems.password ? "new-user-password-problem" : undefined}
          />
        </label>
        <label className="field">
          <span>Role</span>
          <select aria-label="Role" value={role} onChange={(e) => setRole(e.target.value as TRole)}>
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create account"}
        </button>
      </form>
      {Object.keys(problems).length > 0 ? (
        <ul className="error" role="alert">
          {Object.entries(problems).map(([field, problem]) => (
            <li key={field} id={`new-user-${field}-problem`}>
              {problem}
            </li>
          ))}
        </ul>
      ) : create.error ? (
        <p className="error" role="alert">
          {create.error.message}
        </p>
      ) : null}
      {create.data ? (
        <p className="ok" role="status">
          Created {create.data.email} ({create.data.role}). Give them their password by a private channel.
        </p>
      ) : null}
    </section>
  );
}
