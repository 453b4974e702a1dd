// Next calls register() once when the server starts, in each of its runtimes. All it does needs
// Node (the database, the job workers, the HTTP hooks): instrumentation-node.ts.
export async function register() {
  // The literal, not env.ts: Next replaces it per runtime at build time, so the edge bundle drops
  // the import (read through a function, the whole product was compiled for the edge too).
  // biome-ignore lint/style/noProcessEnv: a build-time constant of Next, not an operator's variable
  if (process.env.NEXT_RUNTIME === "nodejs") await (await import("./instrumentation-node")).registerNode();
}
