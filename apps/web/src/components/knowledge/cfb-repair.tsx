"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { type FormEvent, useState } from "react";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";
import { trpcCode } from "@/lib/trpc-errors";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { formatTs } from "../ui/format";
import { ErrorAlert } from "../ui/ui";

// Undo and repair on a CFB's page, for Jam editors: revert to an earlier version, retire and
// restore, merge a duplicate in. The buttons are the ones the server allows (`cfb.actions`); the
// costly ones (revert, retire, merge) ask first. Each sends the version shown, so a CFB another
// editor changed meanwhile is a CONFLICT that says what changed, with a way to the current version.

type TCfbView = TRouterOutputs["cfbs"]["get"];

/** After a repair (or a conflict): the CFB page, the lists and the proposals read again. */
function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.cfbs.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.proposals.pathKey() }),
    ]);
}

/** A failed repair: a conflict says what moved and offers the current version; anything else its message. */
function RepairError({ what, error, onReload }: { what: string; error: unknown; onReload: () => void }) {
  if (!error) return null;
  const message = (error as { message?: string }).message ?? String(error);
  if (trpcCode(error) !== "CONFLICT") return <ErrorAlert what={what} error={{ message }} />;
  return (
    <div className="stack conflict" role="alert">
      <p className="error">{message}</p>
      <div className="row">
        <button type="button" onClick={onReload}>
          Show the current version
        </button>
      </div>
    </div>
  );
}

/** The retirement notice, with Restore when the server allows it. */
export function RetiredNotice({ cfb }: { cfb: TCfbView }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const restore = useMutation(trpc.cfbs.restore.mutationOptions({ onSuccess: refresh }));
  if (!cfb.retired_ts) return null;
  return (
    <div className="stack retired-notice" role="status" data-testid="cfb-retired">
      <p className="flush">
        Retired on {formatTs(cfb.retired_ts)}: answers, resolve and the CFB list leave it out. Its page and history
        stay.
      </p>
      {cfb.actions.allowed.includes("restore") ? (
        <div className="row">
          <button
            type="button"
            onClick={() => restore.mutate({ cfb_id: cfb.cfb_id, version: cfb.version })}
            disabled={restore.isPending}
          >
            {restore.isPending ? "Restoring…" : "Restore"}
          </button>
        </div>
      ) : null}
      <RepairError
        what="Could not restore"
        error={restore.error}
        onReload={async () => {
          await refresh();
          restore.reset();
        }}
      />
    </div>
  );
}

/** Retire and merge, each behind a confirmation. */
export function CfbRepairActions({ cfb }: { cfb: TCfbView }) {
  const allowed = cfb.actions.allowed;
  if (!allowed.includes("retire") && !allowed.includes("merge")) return null;
  return (
    <section className="stack" aria-labelledby="repair-heading" data-testid="cfb-repair">
      <h2 id="repair-heading">Repair</h2>
      {allowed.includes("retire") ? <RetireButton cfb={cfb} /> : null}
      {allowed.includes("merge") ? <MergeForm cfb={cfb} /> : null}
    </section>
  );
}

function RetireButton({ cfb }: { cfb: TCfbView }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const retire = useMutation(
    trpc.cfbs.retire.mutationOptions({
      onSuccess: async () => {
        setAsking(false);
        await refresh();
      },
    }),
  );
  const close = () => {
    setAsking(false);
    retire.reset();
  };
  return (
    <div className="row">
      <button type="button" className="reject" onClick={() => setAsking(true)}>
        Retire…
      </button>
      <span className="muted">Take it out of answers and resolve; you can restore it.</span>
      {asking ? (
        <ConfirmDialog
          title={`Retire ${cfb.cfb_id}?`}
          confirmLabel="Retire"
          pending={retire.isPending}
          onCancel={close}
          onConfirm={() => retire.mutate({ cfb_id: cfb.cfb_id, version: cfb.version })}
          alert={
            <RepairError
              what="Could not retire"
              error={retire.error}
              onReload={async () => {
                await refresh();
                close();
              }}
            />
          }
        >
          <p>
            &ldquo;{cfb.title}&rdquo; (version {cfb.version}) leaves answers, resolve&rsquo;s candidates and the CFB
            list from now on. Its page, history and id stay, and it can be restored here.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** Folds another CFB (a duplicate) into this one, after showing both. */
function MergeForm({ cfb }: { cfb: TCfbView }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [otherId, setOtherId] = useState("");
  const [asked, setAsked] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const other = useQuery(
    trpc.cfbs.get.queryOptions({ cfb_id: asked ?? "" }, { enabled: asked !== null, retry: false }),
  );
  const merge = useMutation(
    trpc.cfbs.merge.mutationOptions({
      onSuccess: async () => {
        setAsked(null);
        setOtherId("");
        await refresh();
      },
    }),
  );
  const close = () => {
    setAsked(null);
    merge.reset();
  };
  function submit(event: FormEvent) {
    event.preventDefault();
    const id = otherId.trim().toUpperCase();
    setFormError(null);
    if (!id) return setFormError("Name the CFB to merge into this one, e.g. CFB-0007.");
    if (id === cfb.cfb_id) return setFormError("Choose another CFB than this one.");
    setAsked(id);
  }
  const found = asked !== null && other.data?.cfb_id === asked ? other.data : null;
  return (
    <div className="stack">
      <form className="row form-row" onSubmit={submit}>
        <label className="field">
          <span>Merge a duplicate into this CFB</span>
          <input type="text" value={otherId} placeholder="CFB-0007" onChange={(e) => setOtherId(e.target.value)} />
        </label>
        <button type="submit" disabled={asked !== null && other.isFetching}>
          Review merge…
        </button>
      </form>
      {formError ? (
        <p className="error" role="alert">
          {formError}
        </p>
      ) : null}
      {asked !== null && other.error ? <ErrorAlert what={`Cannot merge ${asked}`} error={other.error} /> : null}
      {found ? (
        <ConfirmDialog
          title={`Merge ${found.cfb_id} into ${cfb.cfb_id}?`}
          confirmLabel="Merge"
          pending={merge.isPending}
          onCancel={close}
          onConfirm={() =>
            merge.mutate({
              cfb_id: cfb.cfb_id,
              version: cfb.version,
              merge_cfb_id: found.cfb_id,
              merge_version: found.version,
            })
          }
          alert={
            <RepairError
              what="Could not merge"
              error={merge.error}
              onReload={async () => {
                await refresh();
                close();
              }}
            />
          }
        >
          <p>
            <Link href={`/cfbs/${found.cfb_id}`}>{found.cfb_id}</Link> &ldquo;{found.title}&rdquo; (version{" "}
            {found.version}) is folded into {cfb.cfb_id} &ldquo;{cfb.title}&rdquo; (version {cfb.version}): its tags,
            entities and sources join this CFB, it leaves answers and resolve, and its id points here.
          </p>
          <p className="muted">This CFB keeps its title, summary and text. The merge itself cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** On a revision of the history: revert the CFB to it, when the server allows it, after asking. */
export function RevertButton({ cfb, version }: { cfb: TCfbView; version: number }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const revert = useMutation(
    trpc.cfbs.revert.mutationOptions({
      onSuccess: async () => {
        setAsking(false);
        await refresh();
      },
    }),
  );
  if (!cfb.actions.revert_to.includes(version)) return null;
  const close = () => {
    setAsking(false);
    revert.reset();
  };
  return (
    <>
      <button type="button" onClick={() => setAsking(true)}>
        Revert to v{version}…
      </button>
      {asking ? (
        <ConfirmDialog
          title={`Revert ${cfb.cfb_id} to version ${version}?`}
          confirmLabel={`Revert to v${version}`}
          pending={revert.isPending}
          onCancel={close}
          onConfirm={() => revert.mutate({ cfb_id: cfb.cfb_id, version: cfb.version, to_version: version })}
          alert={
            <RepairError
              what="Could not revert"
              error={revert.error}
              onReload={async () => {
                await refresh();
                close();
              }}
            />
          }
        >
          <p>
            Version {version}&rsquo;s content (title, summary, text, labels, kind, confidence, trust tier and sources)
            becomes version {cfb.version + 1}, replacing version {cfb.version}. Every version stays in the history.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
