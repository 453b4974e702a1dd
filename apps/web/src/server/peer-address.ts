import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

/**
 * The header that carries the socket's address to the route handlers, which only see a fetch
 * Request. The stamp below writes it on every request before Next reads the headers, replacing
 * whatever a client sent under that name, so route code can believe it.
 */
export const PEER_ADDRESS_HEADER = "x-solserver-peer-address";

const holder = globalThis as unknown as { solserverPeerStamp?: boolean };

/**
 * Stamps each incoming request with its socket's address (Node's `http.server.request.start`
 * diagnostics channel fires before the server's 'request' event, i.e. before Next builds its
 * Request). Called once from instrumentation.ts; calling it again does nothing.
 */
export function installPeerAddressStamp(): void {
  if (holder.solserverPeerStamp) return;
  holder.solserverPeerStamp = true;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_ADDRESS_HEADER] = socket.remoteAddress ?? "";
  });
}
