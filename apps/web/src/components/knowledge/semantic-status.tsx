"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/lib/trpc";

/** How often the status is read again while a backfill runs (and once a minute otherwise). */
const RUNNING_MS = 3000;
const IDLE_MS = 60_000;

const count = (n: number) => n.toLocaleString("en-US");

function timeLeft(seconds: number | null): string {
  if (seconds === null) return "";
  return seconds < 90
    ? ` · about ${Math.max(1, Math.round(seconds))} s left`
    : ` · about ${Math.round(seconds / 60)} min left`;
}

/**
 * One line on the knowledge page: whether answers find knowledge by meaning as well as by words,
 * and, while existing knowledge is being embedded, how far that is (done of total, rate, time left).
 * CFBs not embedded yet are still found by their words.
 */
export function SemanticStatus() {
  const trpc = useTRPC();
  const query = useQuery(
    trpc.system.semantic.queryOptions(undefined, {
      refetchInterval: (q) =>
        q.state.data?.backfill.running || q.state.data?.state === "loading" ? RUNNING_MS : IDLE_MS,
    }),
  );
  const s = query.data;
  if (!s) return null;
  let text: string;
  if (s.state === "off") text = "Search by meaning is off (SOLSERVER_EMBEDDINGS=off): knowledge is found by its words.";
  else if (s.state === "loading") text = `Loading the sentence model (${s.model})…`;
  else if (s.state === "unavailable")
    text = `Search by meaning is unavailable (${s.reason}); knowledge is found by its words.`;
  else if (s.backfill.running)
    text =
      `Embedding knowledge for search by meaning: ${count(s.backfill.done)} of ${count(s.backfill.total)}` +
      `${s.backfill.perSecond ? ` · ${Math.round(s.backfill.perSecond)}/s` : ""}${timeLeft(s.backfill.secondsLeft)}. ` +
      "Until then those CFBs are found by their words.";
  else if (s.pending > 0) text = `Search by meaning: ${count(s.embedded)} CFBs embedded, ${count(s.pending)} waiting.`;
  else text = `Search by meaning is on (${s.model}): ${count(s.embedded)} CFBs embedded.`;
  return (
    <p className="muted" data-testid="semantic-status" role="status">
      {s.backfill.running ? (
        <progress max={Math.max(1, s.backfill.total)} value={s.backfill.done} aria-label="Embedding progress" />
      ) : null}{" "}
      {text}
    </p>
  );
}
