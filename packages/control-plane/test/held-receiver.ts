// A webhook receiver on 127.0.0.1 that holds each request until the test answers it, and a
// workflow whose first phase calls it: for the tests of webhook phases run beside requests.
import { createServer } from "node:http";

export async function heldReceiver(name: string) {
  const held: { key: string; answer: () => void }[] = [];
  let arrived: () => void = () => undefined;
  let next = new Promise<void>((r) => {
    arrived = r;
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      held.push({
        key: String(req.headers["idempotency-key"]),
        answer: () => res.writeHead(200, { "content-type": "application/json" }).end('{"data":{"findings":1}}'),
      });
      arrived();
      next = new Promise<void>((r) => {
        arrived = r;
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const definition = `name: ${name}
phases:
  - id: check
    run: { webhook: "http://127.0.0.1:${port}/check", retries: 0 }
  - id: triage
    checkpoint:
      prompt: "Publish?"
      options:
        - label: Publish
          on_select: { action: continue }
`;
  return {
    definition,
    held,
    /** Resolves when the next request arrives (ask before what sends it). */
    request: () => next,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
