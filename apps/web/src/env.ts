// The one place the web app reads process.env itself, for the code that runs before (or outside)
// the server's configuration: the proxy on every request and the start-up hook
// (instrumentation-node.ts). The server's variables are parsed once by the control plane's env.ts
// (server/server-env.ts holds the result). Next's NEXT_RUNTIME is read in instrumentation.ts: a
// build-time constant the edge bundle can drop code on only where it is written out.

/** `next dev`: the page CSP then allows what React's development build needs (set by Next at build). */
export function isDevelopment(): boolean {
  return process.env.NODE_ENV === "development";
}

/**
 * Whether the dashboard is served over https: SOLSERVER_BASE_URL's scheme. The proxy cannot load
 * the server's configuration on every request; the variable itself is validated (a URL) by the
 * control plane's env.ts at start-up, which stops the server on a bad value.
 */
export function servedOverHttps(): boolean {
  return (process.env.SOLSERVER_BASE_URL ?? "").toLowerCase().startsWith("https://");
}
