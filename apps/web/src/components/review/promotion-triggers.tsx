"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";
import { formatTs } from "../ui/format";
import { ErrorAlert } from "../ui/ui";

const KIND_TEXT: Record<string, string> = {
  missing_query: "asked, no CFB",
  proposal_fingerprint: "same proposal",
  feedback_tag: "feedback tag",
  unknown_type: "unknowns",
  cfb_ignored: "CFB ignored",
  cfb_used: "CFB used",
  domain_mismatch: "routing",
};

/**
 * Repetitions past their threshold (seed 001 §5.2), in the review queue for Jam editors: what
 * keeps coming back, how often, and what to do about it.
 */
export function PromotionTriggers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const triggers = useQuery(trpc.triggers.list.queryOptions({ limit: 20 }));
  const dismiss = useMutation(
    trpc.triggers.dismiss.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.triggers.list.queryKey() }),
    }),
  );
  // A routing suggestion taught: its message becomes an example of the domain the answers named.
  const teach = useMutation(
    trpc.routing.teach.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.triggers.list.queryKey() }),
    }),
  );
  const items = triggers.data?.items ?? [];
  return (
    <section className="stack" aria-labelledby="triggers-heading" data-testid="promotion-triggers">
      <h2 id="triggers-heading">Promotion triggers</h2>
      <p className="muted">What keeps coming back in conversations, past its threshold: worth a CFB or a rule.</p>
      <ErrorAlert what="Could not load promotion triggers" error={triggers.error} />
      {triggers.isSuccess && items.length === 0 ? <p className="muted">No promotion triggers right now.</p> : null}
      <ul className="plain stack">
        {items.map((t) => (
          <li key={t.trigger_id} className="card" data-kind={t.kind}>
            <div className="row">
              <span className="badge warn">
                {KIND_TEXT[t.kind] ?? t.kind} ×{t.count}
              </span>
              <span className="muted">{t.router_domain}</span>
              <span className="muted">last {formatTs(t.last_seen_ts)}</span>
            </div>
            <p>{t.suggestion}</p>
            {t.kind === "domain_mismatch" ? (
              <div className="row">
                {t.key.split("+").map((domain) => (
                  <button
                    key={domain}
                    type="button"
                    disabled={teach.isPending}
                    onClick={() => teach.mutate({ trigger_id: t.trigger_id, domain })}
                  >
                    File under {domain}
                  </button>
                ))}
              </div>
            ) : null}
            <button
              type="button"
              disabled={dismiss.isPending}
              onClick={() => dismiss.mutate({ trigger_id: t.trigger_id })}
            >
              Dismiss
            </button>
          </li>
        ))}
      </ul>
      <ErrorAlert what="Could not dismiss" error={dismiss.error} />
      <ErrorAlert what="Could not teach the router" error={teach.error} />
    </section>
  );
}
