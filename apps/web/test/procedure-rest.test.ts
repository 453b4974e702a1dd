// Procedure mode over the REST façade, through the Next route handlers with real Request and
// Response objects and an API token (as a service desk integration calls it): a short water-pump
// diagnosis over POST /chat/respond, GET /threads/:id/procedure with its version as the ETag,
// GET /procedures, and the errors (an unknown system, a thread not in procedure mode).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWebServer, rest, restError, type THeaders, type THttpResult, type TWebServer } from "./helpers";

let web: TWebServer;
/** The technician's service: an API token a Jam editor created for them. */
let asTech: THeaders;
let requests = 0;

beforeAll(async () => {
  web = await openWebServer("web-procedure");
  const jam = await web.account("jam", "jam");
  const tech = await web.account("user", "tech");
  asTech = await web.bearer(jam, tech, "service desk");
});

afterAll(async () => {
  await web?.close();
});

type TView = {
  system_id: string;
  mode: string;
  submode: string;
  active_step: { id: string; question: string; options: string[] } | null;
  completed_steps: { id: string; finding: string | null }[];
  report: { complaint: string; cause: string; authorized: boolean | null } | null;
  version: number;
  state_source: string;
};
type TTurn = { thread_id: string; assistant_text: string; replayed: boolean; procedure: TView | null };

/** POST /chat/respond with the technician's token; a fresh request_id. */
function respond(body: Record<string, unknown>, headers: THeaders = asTech): Promise<THttpResult> {
  return rest(web, "POST /chat/respond", {
    headers,
    body: { request_id: `rest-proc-${++requests}`, ...body },
  });
}

/** A successful turn's body. */
async function turn(body: Record<string, unknown>): Promise<TTurn> {
  const result = await respond(body);
  expect(result.status, result.text).toBe(200);
  return result.json as TTurn;
}

function getProcedure(threadId: string, headers: THeaders = asTech): Promise<THttpResult> {
  return rest(web, "GET /threads/[id]/procedure", { headers, query: threadId });
}

// The shipped catalog's text (the web app does not depend on @solserver/engine).
const FUSE_QUESTION = "Is the water pump fuse (or 12 V breaker) at the distribution panel intact?";
const WIRING_SHORT_CAUSE = "Short circuit in the pump wiring: the fuse blows even with the pump disconnected.";
const COMPLAINT = "The fresh water system stopped working this morning.";

describe("a short diagnosis over REST", () => {
  it("complaint → blown fuse → recheck → short test → authorization → final report, with the view and its ETag", async () => {
    const first = await turn({ message: COMPLAINT, procedure: "water_pump" });
    expect(first.procedure).toMatchObject({
      system_id: "water_pump",
      mode: "diagnostic",
      submode: "main",
      active_step: { id: "fuse", question: FUSE_QUESTION },
      version: 1,
      state_source: "stored",
    });
    expect(first.assistant_text).toContain(FUSE_QUESTION);
    const thread = first.thread_id;

    // a blown fuse is a signal, not the cause: a new fuse is tried, then the pump is unplugged
    const blown = await turn({ thread_id: thread, message: "the fuse is blown" });
    expect(blown.procedure).toMatchObject({ mode: "diagnostic", active_step: { id: "fuse_recheck" }, version: 2 });
    await turn({ thread_id: thread, message: "the new one blew again" });
    const short = await turn({ thread_id: thread, message: "still blows with the pump unplugged" });
    expect(short.procedure).toMatchObject({
      mode: "authorization",
      active_step: null,
      completed_steps: [
        { id: "fuse", finding: "fuse=blown" },
        { id: "fuse_recheck", finding: "fuse_recheck=blows" },
        { id: "short_check", finding: "short_check=wiring" },
      ],
      version: 4,
    });
    expect(short.assistant_text).toContain(`Cause: ${WIRING_SHORT_CAUSE}`);
    const blownView = short;

    const view = await getProcedure(thread);
    expect(view.status).toBe(200);
    expect(view.headers.get("ETag")).toBe('"4"');
    expect(view.json).toEqual(blownView.procedure);

    const final = await turn({ thread_id: thread, message: "yes, go ahead" });
    expect(final.procedure).toMatchObject({
      mode: "final_report",
      version: 5,
      report: { complaint: COMPLAINT, cause: WIRING_SHORT_CAUSE, authorized: true },
    });
    expect(final.assistant_text.startsWith("Final report")).toBe(true);

    const after = await getProcedure(thread);
    expect(after.status).toBe(200);
    expect(after.headers.get("ETag")).toBe('"5"');
    expect(after.json).toMatchObject({ mode: "final_report", version: 5, state_source: "stored" });
  });

  it("a retried request_id replays over REST without advancing the diagnosis", async () => {
    const first = await turn({ message: COMPLAINT, procedure: "water_pump" });
    const body = { request_id: `rest-proc-retry-${process.pid}`, thread_id: first.thread_id, message: "fuse is good" };
    const once = await rest(web, "POST /chat/respond", { headers: asTech, body });
    const twice = await rest(web, "POST /chat/respond", { headers: asTech, body });
    expect(once.status).toBe(200);
    expect(twice.status).toBe(200);
    expect(twice.headers.get("Idempotent-Replayed")).toBe("true");
    expect((twice.json as TTurn).assistant_text).toBe((once.json as TTurn).assistant_text);
    expect((twice.json as TTurn).procedure).toMatchObject({ version: 2, active_step: { id: "voltage_at_pump" } });
    expect((await getProcedure(first.thread_id)).headers.get("ETag")).toBe('"2"');
  });
});

describe("GET /procedures", () => {
  it("lists the four systems of the shipped catalog", async () => {
    const result = await rest(web, "GET /procedures", { headers: asTech });
    expect(result.status).toBe(200);
    const catalog = result.json as { systems: { system_id: string; steps: number; keywords: string[] }[] };
    expect(catalog.systems.map((s) => s.system_id).sort()).toEqual(["furnace", "roof_ac", "slide_out", "water_pump"]);
    for (const s of catalog.systems) {
      expect(s.steps).toBeGreaterThan(0);
      expect(s.keywords.length).toBeGreaterThan(0);
    }
  });

  it("needs an account", async () => {
    const result = await rest(web, "GET /procedures");
    expect(result.status).toBe(401);
  });
});

describe("errors", () => {
  it('an unknown system is 400 BAD_INPUT on "procedure", and no thread is created', async () => {
    const threads = await web.db.thread.count();
    const result = await respond({ message: "the awning won't extend", procedure: "awning" });
    expect(result.status).toBe(400);
    expect(restError(result)).toMatchObject({ code: "BAD_INPUT", field: "procedure" });
    expect(await web.db.thread.count()).toBe(threads);
  });

  it("a thread not in procedure mode is 404 on GET /threads/:id/procedure", async () => {
    const plain = await turn({ message: "We decided to service the pumps on Mondays." });
    expect(plain.procedure).toBeNull();
    const result = await getProcedure(plain.thread_id);
    expect(result.status).toBe(404);
    expect(restError(result)).toMatchObject({ code: "NOT_FOUND", field: "thread_id" });
    expect(result.headers.get("ETag")).toBeNull();
  });

  it("a thread that does not exist is 404 too", async () => {
    const result = await getProcedure("th-does-not-exist");
    expect(result.status).toBe(404);
    expect(restError(result).code).toBe("NOT_FOUND");
  });
});
