// The peer-address stamp over a real socket: whatever a client sends under the header's name,
// the request reaches the handler carrying the socket's own address. `pnpm start` preloads it
// (`--import ./peer-stamp.mjs`) so it holds from the first request; instrumentation.ts installs it
// for a server started another way.
import { spawn } from "node:child_process";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
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
function stamped(headers: Record<string, string | string[]>, on = port): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port: on, path: "/", headers }, (res) => {
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

it("holds from a server's first request when preloaded as `pnpm start` does (--import)", async () => {
  // A bare Node server in its own process, started the way the start script starts Next.
  const script = `require("node:http").createServer((q, r) => r.end(JSON.stringify({ stamped: q.headers["${PEER_ADDRESS_HEADER}"] ?? null }))).listen(0, "127.0.0.1", function () { console.log(this.address().port); });`;
  const child = spawn(process.execPath, ["--import", "./peer-stamp.mjs", "-e", script], {
    cwd: path.resolve(__dirname, ".."),
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const childPort = await new Promise<number>((resolve, reject) => {
      child.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    });
    expect(await stamped({ [PEER_ADDRESS_HEADER]: "203.0.113.9" }, childPort)).toBe("127.0.0.1");
  } finally {
    child.kill();
  }
});
