// A receiver for examples/webhook-step.yaml (docs/workflows-webhooks.md): it checks the server's
// signature, answers each idempotency key once (a retried delivery gets the same answer), and
// answers POST /check with `{ data: { findings } }`, which the triage checkpoint's condition reads
// (findings on a run's first check, none once it is checked again), POST /publish with
// `{ data: { published: true } }`, and logs POST /notify (a workflow's notify webhook).
//
//   SOLSERVER_WEBHOOK_SECRET_STYLE=some-long-random-key PORT=8787 node packages/checkpoint/examples/webhook-receiver.mjs
//
// and start the workflow with the variable service=http://127.0.0.1:8787 on a server that has the
// same SOLSERVER_WEBHOOK_SECRET_STYLE and SOLSERVER_WORKFLOW_WEBHOOKS_PRIVATE=1 (this receiver is on loopback).
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const KEY = process.env.SOLSERVER_WEBHOOK_SECRET_STYLE;
if (!KEY) {
  console.error("set SOLSERVER_WEBHOOK_SECRET_STYLE to the key the server signs with");
  process.exit(1);
}
const TOLERANCE_SECONDS = 300;
const answers = new Map(); // idempotency-key -> [status, body]: kept in memory, so this is a demo

/** Whether the request is signed with KEY and at most 5 minutes old. */
function verified(headers, raw) {
  const timestamp = Number(headers["x-solserver-timestamp"]);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(`sha256=${createHmac("sha256", KEY).update(`${timestamp}.${raw}`).digest("hex")}`);
  const given = Buffer.from(String(headers["x-solserver-signature"] ?? ""));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function answer(path, body) {
  if (path === "/check") return [200, { data: { findings: body.iteration === 1 ? 2 : 0 } }];
  if (path === "/publish") return [200, { data: { published: true } }];
  if (path === "/notify") {
    console.log(
      `${body.run_id} waits at ${body.phase_id}: ${body.prompt} (${body.options.join(" / ")}) ${body.url ?? ""}`,
    );
    return [204, null];
  }
  return [404, { error: `no ${path} here` }];
}

const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const raw = Buffer.concat(chunks).toString("utf8"); // verify the raw bytes, before parsing them
  if (req.method !== "POST" || !verified(req.headers, raw)) {
    res.writeHead(401, { "content-type": "application/json" }).end('{"error":"bad signature"}');
    return;
  }
  const key = String(req.headers["idempotency-key"]);
  if (!answers.has(key)) {
    try {
      answers.set(key, answer(new URL(req.url, "http://x").pathname, JSON.parse(raw)));
    } catch {
      answers.set(key, [400, { error: "the body is not the JSON this receiver expects" }]);
    }
  }
  const [status, body] = answers.get(key);
  res.writeHead(status, { "content-type": "application/json" }).end(body === null ? undefined : JSON.stringify(body));
});

server.listen(Number(process.env.PORT ?? 8787), process.env.HOST ?? "127.0.0.1", () => {
  const { address, port } = server.address();
  console.log(`webhook receiver listening on http://${address}:${port}`);
});
