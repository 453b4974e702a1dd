// Limits on one HTTP request, shared by the server (which refuses past them, naming the rule)
// and the dashboard's tRPC client (which splits its batches to stay within them).

/** Most calls in one batched tRPC request. */
export const MAX_BATCH_CALLS = 20;
/** Most rows one batched tRPC request may ask for: the sum of its calls' page `limit`s. */
export const MAX_BATCH_ROWS = 1000;
/** Longest request target (path and query string), in bytes. */
export const MAX_URL_BYTES = 8 * 1024;
/** Largest request header block (names and values), in bytes. */
export const MAX_HEADER_BYTES = 16 * 1024;
