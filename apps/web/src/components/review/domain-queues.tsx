"use client";
import type { TProposalQueuesResponse } from "@solserver/contracts";
import { ageOf } from "../knowledge/glossary";
import { formatTs } from "../ui/format";

/**
 * The pending queue per domain: how many wait, how old the oldest is, and the day's progress
 * (decided in the last 24 hours out of decided + pending). Picking one filters the queue.
 */
export function DomainQueues({
  queues,
  current,
  onPick,
}: {
  queues: TProposalQueuesResponse;
  current: string;
  onPick: (domain: string) => void;
}) {
  if (queues.domains.length === 0) return null;
  return (
    <ul className="plain domain-queues" aria-label="Queues by domain" data-testid="domain-queues">
      {queues.domains.map((d) => {
        const total = d.pending + d.decided_24h;
        const share = total === 0 ? 0 : d.decided_24h / total;
        return (
          <li key={d.domain}>
            <button
              type="button"
              aria-pressed={current === d.domain}
              onClick={() => onPick(current === d.domain ? "" : d.domain)}
              data-testid={`domain-queue-${d.domain || "none"}`}
            >
              <span className="domain-name">{d.domain || "no domain"}</span>
              <span>{d.pending} pending</span>
              {d.oldest_ts ? (
                <span className="muted" title={formatTs(d.oldest_ts)}>
                  oldest {ageOf(d.oldest_ts)}
                </span>
              ) : null}
              <progress
                max={1}
                value={share}
                aria-label={`${d.domain || "no domain"}: ${d.decided_24h} of ${total} decided today`}
              />
            </button>
          </li>
        );
      })}
      {queues.assigned_to_me > 0 ? <li className="muted">{queues.assigned_to_me} assigned to you</li> : null}
    </ul>
  );
}
