import { createHash } from "node:crypto";
import {
  DomainError,
  type TChatRespondRequest,
  type TChatRespondResponse,
  type TOutputMeta,
  ZOutputEnvelope,
} from "@solserver/contracts";
import type { TStoredTurn } from "@solserver/db";
import type { TModelInput, TModelOutput } from "../model/provider";
import { describeIssues } from "../parse";
import { deriveProposals } from "../proposals/derive";
import { rankCfbs } from "../retrieval";
import { assertCanSeeThread, requireSignedIn } from "./access";
import type { TActor, TServiceDeps } from "./deps";
import { chargeChatTurn } from "./rate-limits";
import { createTraceLog } from "./trace-log";

const HISTORY_WINDOW = 20;
const CANDIDATE_SCAN = 500;
const INJECTED_CFBS = 8;

function requestHash(input: TChatRespondRequest): string {
  return createHash("sha256")
    .update(JSON.stringify({ thread_id: input.thread_id ?? null, message: input.message }))
    .digest("hex");
}

function toResponse(turn: TStoredTurn, replayed: boolean): TChatRespondResponse {
  return {
    thread_id: turn.threadId,
    packet_id: turn.packetId,
    transmission_id: turn.transmissionId,
    attempt_id: turn.attemptId,
    response_id: turn.responseId,
    assistant_text: turn.assistantText,
    replayed,
    ui_hints: { has_proposals: turn.proposals.length > 0, proposal_previews: turn.proposals },
  };
}

/** A stored turn for this request_id, or CONFLICT when the key was used for another request. */
function replay(stored: TStoredTurn, input: TChatRespondRequest, hash: string): TChatRespondResponse {
  if (stored.requestHash !== hash) {
    throw new DomainError("CONFLICT", `request_id "${input.request_id}" was already used for a different request`, {
      field: "request_id",
    });
  }
  return toResponse(stored, true);
}

/**
 * Usage events for a turn: each CFB at most once, "used" winning over "ignored" when the model
 * lists it in both, and only CFBs that `counts` (exist and were injected).
 */
function usageOf(meta: TOutputMeta, counts: (cfbId: string) => boolean): { used: string[]; ignored: string[] } {
  const used = [...new Set(meta.used_cfb_ids)].filter(counts);
  const ignored = [...new Set(meta.ignored_cfb_ids)].filter((id) => counts(id) && !used.includes(id));
  return { used, ignored };
}

/**
 * Asks the model and validates its envelope. On failure the turn's trace so far is stored as a
 * failed run (nothing else is written) and the caller gets UPSTREAM.
 */
async function callModel(deps: TServiceDeps, trace: ReturnType<typeof createTraceLog>, modelInput: TModelInput) {
  const fail = async (summary: string, metadata: Record<string, unknown>, message: string, cause?: unknown) => {
    trace.add("model", summary, metadata, "failed");
    await deps.repos.traces.write({
      kind: "turn",
      status: "failed",
      threadId: null,
      packetId: null,
      transmissionId: null,
      events: trace.events,
    });
    return new DomainError("UPSTREAM", message, cause === undefined ? undefined : { cause });
  };
  const started = performance.now();
  let output: TModelOutput;
  try {
    output = await deps.model.generate(modelInput);
  } catch (error) {
    throw await fail(
      `Model ${deps.model.name} failed`,
      { error: error instanceof Error ? error.name : typeof error },
      `model ${deps.model.name} failed to answer`,
      error,
    );
  }
  const latencyMs = Math.round(performance.now() - started);
  const parsed = ZOutputEnvelope.safeParse(output.envelope);
  if (!parsed.success) {
    const problems = describeIssues(parsed.error.issues);
    throw await fail(
      "Model envelope rejected",
      { problems },
      `model ${deps.model.name} returned an invalid envelope: ${problems}`,
    );
  }
  return { envelope: parsed.data, output, latencyMs };
}

/**
 * One chat turn (seed 001 §3): replay if this request_id was seen, else retrieve CFBs, ask the
 * model, validate its envelope, derive proposals and store the whole turn in one transaction.
 */
export async function respondToTurn(
  deps: TServiceDeps,
  actor: TActor,
  input: TChatRespondRequest,
): Promise<TChatRespondResponse> {
  const caller = requireSignedIn(actor);
  const hash = requestHash(input);
  // Idempotency keys belong to the caller: another account's "1" is a different request.
  const stored = await deps.repos.turns.findByRequestId(caller.userId, input.request_id);
  if (stored) return replay(stored, input, hash);

  if (input.thread_id !== undefined) {
    const thread = await deps.repos.turns.threadOwner(input.thread_id);
    if (thread) assertCanSeeThread(caller, thread.ownerId, `thread ${input.thread_id}`);
  }
  // Retries above are free; only turns that reach the model count against the budget.
  await chargeChatTurn(deps, caller.userId);

  const trace = createTraceLog(deps.now);
  const threadId = input.thread_id ?? deps.newThreadId();
  trace.add("packet", "Turn received", {
    thread_id: threadId,
    request_id: input.request_id,
    chars: input.message.length,
  });

  const history = input.thread_id ? await deps.repos.turns.history(threadId, HISTORY_WINDOW) : [];
  const ranked = rankCfbs(input.message, await deps.repos.cfbs.retrievable(CANDIDATE_SCAN), INJECTED_CFBS);
  const routerDomain = ranked[0]?.cfb.domain ?? "general";
  trace.add("retrieval", `Injected ${ranked.length} CFB(s)`, {
    cfbs: ranked.map((r) => ({ cfb_id: r.cfb.cfb_id, score: Math.round(r.score * 1000) / 1000 })),
    router_domain: routerDomain,
  });

  const { envelope, output, latencyMs } = await callModel(deps, trace, {
    message: input.message,
    history: history.map(({ role, content }) => ({ role, content })),
    cfbs: ranked.map((r) => r.cfb),
  });
  trace.add("model", `Model ${deps.model.name} answered`, {
    latency_ms: latencyMs,
    tokens_in: output.tokensIn,
    tokens_out: output.tokensOut,
  });

  const meta = envelope.meta;
  const referenced = [
    ...meta.cfb_suggestions.flatMap((s) => (s.target_cfb_id ? [s.target_cfb_id] : [])),
    ...meta.used_cfb_ids,
    ...meta.ignored_cfb_ids,
  ];
  const existing = await deps.repos.cfbs.existingIds(referenced);
  const injected = new Set(ranked.map((r) => r.cfb.cfb_id));
  const proposals = deriveProposals(meta, existing, routerDomain);
  trace.add("proposals", `Derived ${proposals.length} proposal(s)`, {
    warnings: proposals.flatMap((p) => p.warnings.map((w) => `${p.suggestionIndex}:${w}`)),
  });

  const turn = await deps.repos.turns.record({
    callerId: caller.userId,
    ownerId: caller.userId,
    mayWriteAnyThread: caller.role === "jam",
    requestId: input.request_id,
    requestHash: hash,
    threadId,
    threadTitle: input.message.slice(0, 80),
    message: input.message,
    historyMessageIds: history.map((m) => m.id),
    modeLabel: meta.modeLabel,
    routerDomain,
    model: deps.model.name,
    tokensIn: output.tokensIn,
    tokensOut: output.tokensOut,
    latencyMs,
    assistantText: envelope.assistant_text,
    meta,
    proposals,
    // Usage counts only CFBs that exist and were actually injected into this turn.
    usage: usageOf(meta, (id) => existing.has(id) && injected.has(id)),
    trace: trace.events,
  });
  if (turn === "duplicate") {
    // A concurrent retry with the same request_id stored first: answer with its result.
    const winner = await deps.repos.turns.findByRequestId(caller.userId, input.request_id);
    if (!winner) throw new Error("request_id conflict without a stored turn");
    return replay(winner, input, hash);
  }
  return toResponse(turn, false);
}
