// The peer-address stamp: every incoming request gets its socket's own address in
// `x-solserver-peer-address` before Next reads it, replacing whatever a client sent under that
// name (Node's `http.server.request.start` diagnostics channel fires before the server's
// 'request' event). Per-address limits believe only this header (src/server/request-actor.ts).
//
// `pnpm start` loads this file with `--import` (NODE_OPTIONS), before Next opens its port, so no
// request can arrive unstamped while the server starts; instrumentation-node.ts imports it too, for a
// server started any other way (next dev, a custom runner). Plain JavaScript for that reason.
import { subscribe } from "node:diagnostics_channel";

export const PEER_ADDRESS_HEADER = "x-solserver-peer-address";

/** Installs the stamp once per process; calling it again does nothing. */
export function installPeerAddressStamp() {
  if (globalThis.solserverPeerStamp) return;
  globalThis.solserverPeerStamp = true;
  subscribe("http.server.request.start", ({ request, socket }) => {
    request.headers[PEER_ADDRESS_HEADER] = socket.remoteAddress ?? "";
  });
}

installPeerAddressStamp();
