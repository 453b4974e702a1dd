import "server-only";
import { DomainError, MAX_BATCH_CALLS, MAX_BATCH_ROWS } from "@solserver/contracts";

// One tRPC request may batch several calls. Without a cap, one request of 300 list calls held
// the server for seconds, so a batch is bounded twice: by its number of calls, and by its work,
// the rows its calls may read (each call's page `limit`, or one row when it has none).

/** The page size a call asks for: its `limit`, when it is a number, else one row. */
function rowsOf(input: unknown): number {
  if (input && typeof input === "object" && "limit" in input && typeof input.limit === "number") {
    return Number.isFinite(input.limit) ? Math.max(1, Math.ceil(input.limit)) : MAX_BATCH_ROWS + 1;
  }
  return 1;
}

/** The inputs of a batch by index, from the query string (GET) or the body (POST); {} when unreadable (tRPC answers that). */
function batchInputs(url: URL, body: string | null): Record<string, unknown> {
  try {
    const text = body ?? url.searchParams.get("input");
    const parsed: unknown = text ? JSON.parse(text) : {};
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Refuses a tRPC request over the batch limits, naming the rule; a single call passes (its own
 * schema caps its `limit`). `body` is the POST body already read, null for a GET.
 */
export function checkBatchLimits(requestUrl: string, body: string | null): void {
  const url = new URL(requestUrl);
  if (url.searchParams.get("batch") !== "1") return;
  // The procedure paths, comma-separated (raw: a comma may arrive percent-encoded).
  const paths = (url.pathname.split("/").pop() ?? "").split(/,|%2C/i);
  if (paths.length > MAX_BATCH_CALLS) {
    throw new DomainError(
      "BAD_INPUT",
      `batch: at most ${MAX_BATCH_CALLS} calls per request, got ${paths.length}: send them in several requests`,
      { field: "batch" },
    );
  }
  const inputs = batchInputs(url, body);
  const rows = paths.reduce((sum, _path, i) => sum + rowsOf(inputs[String(i)]), 0);
  if (rows > MAX_BATCH_ROWS) {
    throw new DomainError(
      "BAD_INPUT",
      `batch: at most ${MAX_BATCH_ROWS} rows per request (the sum of the calls' page limits), got ${rows}: ask for smaller pages or send several requests`,
      { field: "batch" },
    );
  }
}
