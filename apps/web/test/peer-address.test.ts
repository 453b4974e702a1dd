// The peer-address stamp over a real socket: whatever a client sends under the header's name,
// the request reaches the handler carrying the socket's own address (instrumentation.ts installs
// the stamp in the server process before Next reads any request).
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { installPeerAddressStamp, PEER_ADDRESS_HEADER } from "@/server/peer-address";

let server: Server;
let port: number;

beforeAll(async () => {
  installPeerAddressStamp();
  installPeerAddressStamp(); // twice: still one subscriber
  server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ stamped: req.headers[PEER_ADDRESS_HEADER] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** GET / with these headers over a real connection; the address the handler saw. */
function stamped(headers: Record<string, string | string[]>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path: "/", headers }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => {
        text += chunk.toString();
      });
      res.on("end", () => resolve((JSON.parse(text) as { stamped: unknown }).stamped));
    });
    req.on("error", reject);
    req.end();
  });
}

it("carries the socket's address, replacing a forged header and ignoring X-Forwarded-For", async () => {
  expect(await stamped({})).toBe("127.0.0.1");
  expect(await stamped({ [PEER_ADDRESS_HEADER]: "203.0.113.9", "x-forwarded-for": "198.51.100.1" })).toBe("127.0.0.1");
  // Sent twice, in another case: replaced as a whole.
  expect(await stamped({ [PEER_ADDRESS_HEADER.toUpperCase()]: ["203.0.113.9", "203.0.113.10"] })).toBe("127.0.0.1");
});
