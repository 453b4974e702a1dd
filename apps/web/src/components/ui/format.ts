/** A timestamp as the reader's local date and time; "—" when absent. */
export function formatTs(ts: string | null | undefined): string {
  if (!ts) return "—";
  const date = new Date(ts);
  return Number.isNaN(date.getTime()) ? ts : date.toLocaleString();
}
