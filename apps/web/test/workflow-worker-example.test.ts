// The worker example (packages/checkpoint/examples/worker.ts) against the real tRPC route handler,
// authenticated with an API token: it claims the worker-step example's phase, completes it with its
// draft, and the run moves on to the editor's checkpoint with the draft as an artifact.
import { readFileSync } from "node:fs";
import path from "node:path";
import { getWorkflowRun, startWorkflow } from "@solserver/control-plane";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workOnce } from "../../../packages/checkpoint/examples/worker";
import { openWebServer } from "./helpers";

let web: Awaited<ReturnType<typeof openWebServer>>;
beforeAll(async () => {
  web = await openWebServer("worker-example");
});
afterAll(async () => web?.close());

describe("the worker example over HTTP", () => {
  it("claims the drafting phase, completes it once, and the run waits for review", async () => {
    const jam = await web.account("jam", "editor");
    const headers = await web.bearer(jam, jam, "drafting worker");
    const token = String(headers.authorization).replace(/^Bearer /, "");
    const yaml = readFileSync(
      path.resolve(import.meta.dirname, "../../../packages/checkpoint/examples/worker-step.yaml"),
      "utf8",
    ).replace("agent.file_draft", "umbra.recompute_stats");
    const run = await startWorkflow(web.as(jam.actor), { definition: yaml });
    expect(run.status).toBe("awaiting_worker");
    // The route handler stands in for the network: the request is a real Request through tRPC's
    // HTTP adapter, with the token in its Authorization header.
    const viaRoute: typeof fetch = async (url, init) => web.routes.trpc.POST(new Request(String(url), init) as never);
    const seen: string[] = [];
    const worked = await workOnce(
      {
        baseUrl: "http://localhost",
        token,
        queue: "agents.drafting",
        worker: "example",
        fetch: viaRoute,
        handle: async (claim) => {
          seen.push(`${claim.run_id}:${claim.phase_id}:${claim.attempt}`);
          return { data: { draft_ready: true }, artifacts: [{ path: "out/draft.md", content: "# Draft" }] };
        },
      },
      0,
    );
    expect(worked).toBe(true);
    expect(seen).toEqual([`${run.run_id}:draft:1`]);
    const after = await getWorkflowRun(web.as(jam.actor), { run_id: run.run_id });
    expect(after.status).toBe("awaiting_decision");
    expect(after.checkpoint?.prompt).toBe("Continue with next phase?");
    // Nothing else waits in the queue now.
    expect(
      await workOnce(
        {
          baseUrl: "http://localhost",
          token,
          queue: "agents.drafting",
          worker: "example",
          fetch: viaRoute,
          handle: async () => ({}),
        },
        0,
      ),
    ).toBe(false);
  });
});
