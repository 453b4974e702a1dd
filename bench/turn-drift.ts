// Study: how often the turn pipeline's output gate warns of drift on ordinary conversation, and
// whether it still warns when an answer to the same question collapses (issue 35, item 7).
//
// Data: LoCoMo's held-out conversations (../shared/benchmarks/locomo 44, 47, 48, 49, 50: two
// people talking over many sessions; nobody here wrote them). Each session is a thread: speaker
// A's lines are the messages, speaker B's reply to each is the model's answer (a scripted model
// returns it), so the gate compares each answer with the one before, as it does in production.
// Turns go through the real pipeline (breakpoint, gate, store) on a test database.
// - ordinary: every turn of the first `--turns` (default 200) pairs, counted WARN when any DRIFT
//   reason fired (what a reviewer sees as "length drift" on the trace).
// - asked again: after each of the first 50 ordinary turns, the same message is sent again and
//   the answer comes back cut to a fifth of its words (a regression of the model or its prompt):
//   counted when a DRIFT reason fires (what the drift policy is for).
// Run: `pnpm bench:turn-drift [--turns 200]`. Writes bench/results/turn-drift.json.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ZRoutingConfig } from "@solserver/contracts";
import { respondToTurn } from "@solserver/control-plane";
import { openTestControlPlane, testEnvelope } from "@solserver/control-plane/testing";

const { values } = parseArgs({ options: { turns: { type: "string", default: "200" } } });
const TURNS = Number(values.turns);
const HELD = ["44", "47", "48", "49", "50"];
const DATA = path.resolve(import.meta.dirname, "../../shared/benchmarks/locomo");

type TPair = { session: string; message: string; answer: string };

/** Speaker A's line and speaker B's reply to it, session by session, in order. */
function pairs(conversation: string): TPair[] {
  const d = JSON.parse(readFileSync(path.join(DATA, `${conversation}.json`), "utf8"));
  const out: TPair[] = [];
  for (let k = 1; d[`session_${k}`]; k++) {
    const turns = d[`session_${k}`] as { speaker: string; text: string }[];
    for (let i = 0; i + 1 < turns.length; i++) {
      const a = turns[i];
      const b = turns[i + 1];
      if (a && b && a.speaker === d.speaker_a && b.speaker === d.speaker_b) {
        out.push({ session: `${conversation}-${k}`, message: a.text, answer: b.text });
        i++;
      }
    }
  }
  return out;
}

const all = HELD.flatMap(pairs).slice(0, TURNS);
let next = "";
const opened = await openTestControlPlane({
  label: "turn-drift",
  model: {
    name: "scripted",
    async generate() {
      return { envelope: testEnvelope(next), tokensIn: 1, tokensOut: 1 };
    },
  },
  limits: { chatTurnsPerMinute: 1_000_000 },
  // Small talk, not a guided diagnosis: one open domain (a strict one would ask for claim maps).
  routing: ZRoutingConfig.parse({
    domains: [{ id: "general", label: "General", mode_label: "System", examples: ["anything at all"] }],
  }),
});
const user = await opened.account("user");
const threads = new Map<string, string>();

/** One turn; whether its delivered answer's gate decision carried a DRIFT reason, and its status. */
async function turn(session: string, message: string, answer: string) {
  next = answer;
  const threadId = threads.get(session);
  const res = await respondToTurn(opened.as(user), {
    request_id: `drift-${Math.random().toString(36).slice(2)}`,
    message,
    ...(threadId ? { thread_id: threadId } : {}),
  });
  threads.set(session, res.thread_id);
  const [gate] = await opened.db.gateEvaluation.findMany({
    where: { transmissionId: res.transmission_id, delivered: true },
  });
  const codes = (gate?.reasonCodes ?? []) as string[];
  return { drift: codes.some((c) => c.startsWith("DRIFT")), status: gate?.status ?? "none" };
}

let ordinaryWarns = 0;
let compared = 0;
let regressions = 0;
let caught = 0;
for (const [i, p] of all.entries()) {
  const first = threads.has(p.session);
  const r = await turn(p.session, p.message, p.answer);
  if (first) compared++;
  if (r.drift) ordinaryWarns++;
  if (i < 50 && p.answer.split(/\s+/).length >= 10) {
    const words = p.answer.split(/\s+/);
    const cut = words.slice(0, Math.max(1, Math.round(words.length / 5))).join(" ");
    regressions++;
    if ((await turn(p.session, p.message, cut)).drift) caught++;
    // The faithful answer again, so the next ordinary turn compares with a real answer.
    await turn(p.session, p.message, p.answer);
  }
}
await opened.close();

const result = {
  data: `LoCoMo held-out conversations ${HELD.join(", ")}, first ${all.length} A→B pairs`,
  ordinary: {
    turns: all.length,
    compared_with_a_previous_answer: compared,
    drift_warnings: ordinaryWarns,
    warn_rate_pct: Math.round((1000 * ordinaryWarns) / Math.max(1, all.length)) / 10,
  },
  asked_again_with_a_collapsed_answer: {
    turns: regressions,
    drift_warnings: caught,
    caught_pct: Math.round((1000 * caught) / Math.max(1, regressions)) / 10,
  },
};
console.log(JSON.stringify(result, null, 2));
writeFileSync(path.join(import.meta.dirname, "results/turn-drift.json"), `${JSON.stringify(result, null, 2)}\n`);
