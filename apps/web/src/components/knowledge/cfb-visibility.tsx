"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { type TRouterOutputs, useTRPC } from "@/lib/trpc";
import { ErrorAlert } from "../ui/ui";

type TCfbVisibilityView = Pick<TRouterOutputs["cfbs"]["get"], "visibility" | "private_to">;

/**
 * The "private to <email>" marker of a CFB a user's own approval wrote (issue 19): only that
 * user's threads retrieve it until a Jam editor endorses it. Nothing for a shared CFB.
 */
export function PrivateMarker({ cfb }: { cfb: TCfbVisibilityView }): ReactNode {
  if (cfb.visibility !== "private") return null;
  return (
    <span className="badge warn" data-testid="cfb-private">
      private to {cfb.private_to ?? "a user"}
    </span>
  );
}

/**
 * The CFB page's visibility: who retrieves it, and the Endorse button when the server says this
 * caller may endorse it (one click: the editor vouches for the version on screen).
 */
export function CfbVisibility({ cfb }: { cfb: TRouterOutputs["cfbs"]["get"] }): ReactNode {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endorse = useMutation(
    trpc.cfbs.endorse.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.cfbs.pathKey() }),
    }),
  );
  if (cfb.visibility === "shared") {
    return (
      <div className="stack" data-testid="cfb-visibility">
        <p className="muted">Shared knowledge: every thread may retrieve it.</p>
        {endorse.data?.cfb_id === cfb.cfb_id ? (
          <p className="ok" role="status">
            Endorsed as v{endorse.data.version}: it is shared knowledge now.
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <div className="stack" data-testid="cfb-visibility">
      <p className="muted">
        Private: only the threads of {cfb.private_to ?? "the user who approved it"} retrieve it, until a Jam editor
        endorses it into shared knowledge.
      </p>
      {cfb.actions.allowed.includes("endorse") ? (
        <div>
          <button
            type="button"
            className="primary"
            disabled={endorse.isPending}
            onClick={() => endorse.mutate({ cfb_id: cfb.cfb_id, version: cfb.version })}
          >
            {endorse.isPending ? "Endorsing…" : "Endorse into shared knowledge"}
          </button>
        </div>
      ) : null}
      <ErrorAlert what="Could not endorse" error={endorse.error} />
    </div>
  );
}
