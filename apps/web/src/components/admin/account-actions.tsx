"use client";
import type { TRole } from "@solserver/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/lib/trpc";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ErrorAlert } from "../ui/ui";

type TAccountRow = { id: string; email: string; role: TRole; disabled_ts: string | null };
type TAsk =
  | { kind: "role"; role: TRole }
  | { kind: "disable" }
  | { kind: "enable" }
  | { kind: "reset" }
  | { kind: "delete" };

/**
 * What a Jam editor may do to an account, each asking first: change its role, disable or enable
 * it, reset its password (the new one is shown once), delete it (typing its email). Nothing is
 * offered on one's own account that would lock oneself out.
 */
export function AccountActions({ account, self }: { account: TAccountRow; self: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.users.pathKey() });
  const [ask, setAsk] = useState<TAsk | null>(null);
  const [typed, setTyped] = useState("");
  const [newPassword, setNewPassword] = useState<string | null>(null);
  const close = () => {
    setAsk(null);
    setTyped("");
  };
  const done = { onSuccess: close, onSettled: refresh };
  const setRole = useMutation(trpc.users.setRole.mutationOptions(done));
  const setDisabled = useMutation(trpc.users.setDisabled.mutationOptions(done));
  const remove = useMutation(trpc.users.delete.mutationOptions(done));
  const reset = useMutation(
    trpc.users.resetPassword.mutationOptions({
      onSuccess: (r) => {
        setNewPassword(r.password);
        close();
      },
    }),
  );
  const pending = setRole.isPending || setDisabled.isPending || remove.isPending || reset.isPending;
  const error = setRole.error ?? setDisabled.error ?? remove.error ?? reset.error;

  function confirm() {
    if (!ask) return;
    if (ask.kind === "role") setRole.mutate({ user_id: account.id, role: ask.role });
    else if (ask.kind === "disable" || ask.kind === "enable")
      setDisabled.mutate({ user_id: account.id, disabled: ask.kind === "disable" });
    else if (ask.kind === "reset") reset.mutate({ user_id: account.id });
    else remove.mutate({ user_id: account.id, confirm_email: typed });
  }

  return (
    <div className="row">
      <select
        aria-label={`Role of ${account.email}`}
        value={account.role}
        disabled={self || pending}
        title={self ? "You cannot remove your own Jam role" : undefined}
        onChange={(e) => setAsk({ kind: "role", role: e.target.value as TRole })}
      >
        <option value="user">user</option>
        <option value="jam">jam</option>
      </select>
      {self ? null : (
        <>
          <button
            type="button"
            disabled={pending}
            onClick={() => setAsk({ kind: account.disabled_ts ? "enable" : "disable" })}
          >
            {account.disabled_ts ? "Enable" : "Disable"}
          </button>
          <button type="button" disabled={pending} onClick={() => setAsk({ kind: "reset" })}>
            Reset password
          </button>
          <button type="button" className="reject" disabled={pending} onClick={() => setAsk({ kind: "delete" })}>
            Delete
          </button>
        </>
      )}
      {newPassword ? (
        <p className="ok" role="status" data-testid="new-password">
          New password for {account.email}: <code>{newPassword}</code> (shown once; hand it over safely).{" "}
          <button type="button" onClick={() => setNewPassword(null)}>
            Done
          </button>
        </p>
      ) : null}
      {ask ? (
        <ConfirmDialog
          title={TITLES[ask.kind](account.email, ask.kind === "role" ? ask.role : account.role)}
          confirmLabel={LABELS[ask.kind]}
          pending={pending}
          onCancel={close}
          onConfirm={confirm}
          alert={<ErrorAlert what="Could not do it" error={error} />}
        >
          <p>{EXPLAIN[ask.kind]}</p>
          {ask.kind === "delete" ? (
            <label className="field">
              <span>Type {account.email} to delete it</span>
              <input type="text" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
            </label>
          ) : null}
        </ConfirmDialog>
      ) : (
        <ErrorAlert what="Could not do it" error={error} />
      )}
    </div>
  );
}

const TITLES: Record<TAsk["kind"], (email: string, role: TRole) => string> = {
  role: (email, role) => `Make ${email} a ${role === "jam" ? "Jam editor" : "user"}?`,
  disable: (email) => `Disable ${email}?`,
  enable: (email) => `Enable ${email}?`,
  reset: (email) => `Reset the password of ${email}?`,
  delete: (email) => `Delete ${email}?`,
};
const LABELS: Record<TAsk["kind"], string> = {
  role: "Change the role",
  disable: "Disable",
  enable: "Enable",
  reset: "Reset the password",
  delete: "Delete the account",
};
const EXPLAIN: Record<TAsk["kind"], string> = {
  role: "A Jam editor sees every thread and proposal, edits knowledge and manages accounts and tokens; a user only their own threads.",
  disable:
    "Their sessions end now; they cannot sign in and their API tokens are refused until the account is enabled. Nothing is deleted.",
  enable: "They can sign in again, and their API tokens work again.",
  reset:
    "A new random password replaces theirs and their sessions end. It is shown once, here: give it to them safely.",
  delete:
    "The account, its sign-in and its API tokens are deleted. Its threads and proposals stay, without an owner (visible to Jam editors). This cannot be undone.",
};
