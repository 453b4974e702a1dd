import { randomUUID } from "node:crypto";
import {
  DomainError,
  type TChatRespondRequest,
  type TChatRespondResponse,
  type TOutputMeta,
  type TThreadMemento,
} from "@solserver/contracts";
import { decideBreakpointAction, shouldFreezeSummaryAtPeak } from "@solserver/engine";
import { checkProcedureChoice, plannedView, planProcedure } from "../procedures/procedure-turn";
import { deriveProposals } from "../proposals/derive";
import { retrieveCfbs } from "../retrieval";
import { assertCanSeeThread } from "./access";
import type { TCaller, TServiceContext } from "./context";
import type { TServiceDeps } from "./deps";
import { chargeChatTurn } from "./rate-limits";
import { resolveProposal, turnRepetitions } from "./resolve";
import { createTraceLog } from "./trace-log";
import { createClaimJudge, traceClaims } from "./turn-claims";
import { createAttemptGate } from "./turn-gate";
import { mementoAfterTurn, resolveBaseline } from "./turn-memento";
import { callModel, gateRows } from "./turn-model";
import { replay, requestHash, toResponse } from "./turn-response";
import { domainMismatch, selectRoute } from "./turn-selector";
import { createStreamGuard, type TStreamEvent } from "./turn-stream";

const HISTORY_WINDOW = 20;
const INJECTED_CFBS = 8;

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
 * The message's nearest CFBs by embedding, when semantic matching is on; none when it is off or
 * the embeddings server fails (the turn then retrieves lexically, and the log says why).
 */
async function semanticNeighbours(deps: TServiceDeps, message: string) {
  const semantic = await deps.semantic?.get();
  if (!semantic) return {};
  try {
    const neighbours = await semantic.search.nearest(await semantic.search.embed(message), INJECTED_CFBS);
    return { neighbours, semanticScale: semantic.search.scale() };
  } catch (error) {
    console.warn(`retrieval: semantic neighbours failed, lexical only: ${(error as Error).message}`);
    return {};
  }
}

const CLOSURE_SIGNALS = new Set(["decision_made", "open_loop_resolved", "answer_provided", "scope_changed"]);

/** Milliseconds since `start`, rounded to a tenth, for trace metadata. */
function since(start: number): number {
  return Math.round((performance.now() - start) * 10) / 10;
}

const STORE_TRIES = 3;

/** True for the CONFLICT a stale memento version raises (field "version"). */
function isMementoConflict(error: unknown): boolean {
  return error instanceof DomainError && error.code === "CONFLICT" && error.field === "version";
}

/** Stores the turn; on a memento version conflict recomputes the memento and tries again. */
async function storeWithRetry<T, W>(
  store: (write: W) => Promise<T>,
  first: W,
  recompute: () => Promise<W>,
): Promise<T> {
  let write = first;
  for (let attempt = 1; ; attempt++) {
    try {
      return await store(write);
    } catch (error) {
      if (!isMementoConflict(error) || attempt >= STORE_TRIES) throw error;
      write = await recompute();
    }
  }
}

/**
 * One chat turn, in the order seed 000's orchestrator gives and nowhere else: replay if this
 * request_id was seen; resolve the baseline memento; extract signal kinds; decide must / should
 * / skip; apply the peak guardrail; trace the decision; retrieve CFBs (not for skip); ask the
 * model; derive proposals (not for skip); update the summary (only when allowed) and the affect;
 * store everything in one transaction; respond.
 */
export async function respondToTurn(
  { deps, caller }: TServiceContext,
  input: TChatRespondRequest,
  stream?: { send: (event: TStreamEvent) => void },
): Promise<TChatRespondResponse> {
  const hash = requestHash(input);
  // A resend while the first is still running waits for it instead of asking the model again
  // (in this process; across processes the store's unique key decides, see "duplicate" below).
  const key = `${caller.userId}\u0000${input.request_id}`;
  const turns = inFlight(deps);
  for (let running = turns.get(key); running; running = turns.get(key)) await running.catch(() => undefined);
  // Registered before anything is awaited, so a resend arriving now finds it.
  const turn = (async () => {
    // Idempotency keys belong to the caller: another account's "1" is a different request.
    const stored = await deps.repos.turns.findByRequestId(caller.userId, input.request_id);
    if (stored) return replay(deps, stored, input, hash);
    return runTurn(deps, caller, input, hash, stream);
  })();
  turns.set(key, turn);
  try {
    return await turn;
  } finally {
    if (turns.get(key) === turn) turns.delete(key);
  }
}

/** Turns under way in this process, by caller and request_id (see respondToTurn). */
const IN_FLIGHT = new WeakMap<TServiceDeps, Map<string, Promise<TChatRespondResponse>>>();
function inFlight(deps: TServiceDeps): Map<string, Promise<TChatRespondResponse>> {
  let map = IN_FLIGHT.get(deps);
  if (!map) {
    map = new Map();
    IN_FLIGHT.set(deps, map);
  }
  return map;
}

async function runTurn(
  deps: TServiceDeps,
  caller: TCaller,
  input: TChatRespondRequest,
  hash: string,
  stream?: { send: (event: TStreamEvent) => void },
): Promise<TChatRespondResponse> {
  if (input.thread_id !== undefined) {
    const thread = await deps.repos.turns.threadOwner(input.thread_id);
    if (thread) assertCanSeeThread(caller, thread.ownerId, `thread ${input.thread_id}`);
  }
  checkProcedureChoice(deps.catalog, input.procedure);
  // Retries above are free; only turns that reach the model count against the budget.
  await chargeChatTurn(deps, caller.userId);

  const trace = createTraceLog(deps.now);
  const threadId = input.thread_id ?? deps.newThreadId();
  const userMessageId = randomUUID();
  trace.add("packet", "Turn received", {
    thread_id: threadId,
    request_id: input.request_id,
    chars: input.message.length,
  });

  // Baseline, signals, decision, guardrail (seed 000 steps 1-5).
  let t = performance.now();
  const baseline = await resolveBaseline(deps, input.thread_id, input.context?.thread_memento);
  // Signals describe the turn the client is sending (seed 000 extracts them from the request's
  // memento only): a stored memento's old signals must not decide every later turn.
  const signalKinds = (input.context?.thread_memento?.signals.items ?? []).map((i) => i.kind);
  const decision = decideBreakpointAction({ message: input.message, signalKinds });
  const peakGuardrailActive = shouldFreezeSummaryAtPeak({
    phase: baseline.memento.affect.rollup.phase,
    intensityBucket: baseline.memento.affect.rollup.intensityBucket,
    decision,
  });
  trace.add("breakpoint", `Breakpoint decision: ${decision.toUpperCase()}`, {
    kind: "breakpoint_engine",
    decision,
    peakGuardrailActive,
    source: baseline.source,
    duration_ms: since(t),
  });
  const skip = decision === "skip";
  const mayUpdateSummary = !skip && !peakGuardrailActive;

  // Procedure mode (seed 004): the context engine decides the flow before the model answers; a
  // bound thread runs it on every turn, acknowledgements included ("yes" answers a step).
  const procedure = await planProcedure(deps, trace, {
    threadId,
    existing: input.thread_id !== undefined,
    choice: input.procedure,
    message: input.message,
  });

  // The selector step (seed 001 §7.1): router_domain and modeLabel for this turn.
  const selection = await selectRoute(deps, trace, {
    threadId,
    existing: input.thread_id !== undefined,
    message: input.message,
    procedureSystem: procedure.kind === "engine" ? procedure.turn.state.system_id : null,
  });
  const route = selection.route;
  const routerDomain = route.domain;

  // Retrieval, scoped and boosted by the route, over every live CFB (the candidate index): a
  // skip turn injects no CFBs.
  t = performance.now();
  const history = input.thread_id ? await deps.repos.turns.history(threadId, HISTORY_WINDOW) : [];
  // The output gate's baseline: the thread's previous delivered answer (seed 002).
  const previous = input.thread_id ? await deps.repos.turns.lastResponse(threadId) : null;
  const ranked = skip
    ? []
    : await retrieveCfbs(
        { search: deps.repos.cfbs.index.search, retrievable: deps.repos.cfbs.retrievable },
        input.message,
        { limit: INJECTED_CFBS, route, now: deps.now(), ...(await semanticNeighbours(deps, input.message)) },
      );
  trace.add(
    "retrieval",
    skip ? "Skipped: acknowledgement turn" : `Injected ${ranked.length} CFB(s)`,
    {
      cfbs: ranked.map((r) => ({
        cfb_id: r.cfb.cfb_id,
        domain: r.cfb.domain,
        score: Math.round(r.score * 1000) / 1000,
      })),
      router_domain: routerDomain,
      scope: route.scope,
      duration_ms: since(t),
    },
    skip ? "skipped" : "completed",
  );

  // The model, told about the thread's closure signals and (when it may change it) the summary.
  t = performance.now();
  const closureSignals = baseline.memento.signals.items
    .filter((i) => CLOSURE_SIGNALS.has(i.kind))
    .map((i) => ({ kind: i.kind, summary: i.summary }));
  const gate = createAttemptGate(deps.gate, previous);
  const party = { actorId: caller.userId, threadId };
  // Streaming: the model's text goes out as it is written, through the PII hold-back guard. Not
  // in a strict domain: there the claim check may still refuse the whole answer, and a refused
  // answer's words must never reach a screen, so the answer arrives whole, in the final event.
  const guard = stream && !route.strict ? createStreamGuard(stream.send, deps.gate.pii) : null;
  // Claim-map enforcement after the gate (seed 001 §4): refuses attempts in strict domains.
  // The procedure's own directive wording may be repeated without a claim (claim-statements.ts).
  const claims = createClaimJudge(
    deps,
    route,
    new Set(ranked.map((r) => r.cfb.cfb_id)),
    procedure.kind === "none" ? null : procedure.model,
  );
  const answer = await callModel(
    deps,
    trace,
    {
      message: input.message,
      history: history.map(({ role, content }) => ({ role, content })),
      cfbs: ranked.map((r) => r.cfb),
      closureSignals,
      summary: mayUpdateSummary ? baseline.memento.shape : null,
      procedure: procedure.kind === "none" ? null : procedure.model,
    },
    gate,
    party,
    { ...(guard ? { onText: guard.onText } : {}), judge: claims.judge },
  ).catch((error: unknown) => {
    // Every attempt refused: what was shown of them is not an answer (the stream's error follows).
    guard?.settle(null, "this attempt was not delivered");
    throw error;
  });
  const { envelope, output, attempts, latencyMs } = answer;
  const deliveredN = attempts.at(-1)?.n;
  guard?.settle(deliveredN ?? null, "this attempt was not delivered");
  const claimCheck = deliveredN === undefined ? undefined : claims.checks.get(deliveredN);
  trace.add("model", `Model ${deps.model.name} answered`, {
    latency_ms: latencyMs,
    attempts: attempts.length,
    tokens_in: output.tokensIn,
    tokens_out: output.tokensOut,
    duration_ms: since(t),
  });
  traceClaims(trace, claims.checks);

  // Proposals: none from a skip turn.
  const meta = envelope.meta;
  const referenced = [
    ...meta.cfb_suggestions.flatMap((s) => (s.target_cfb_id ? [s.target_cfb_id] : [])),
    ...meta.used_cfb_ids,
    ...meta.ignored_cfb_ids,
  ];
  const existing = await deps.repos.cfbs.existingIds(referenced);
  const injected = new Set(ranked.map((r) => r.cfb.cfb_id));
  const proposals = skip ? [] : deriveProposals(meta, existing, routerDomain);
  trace.add(
    "proposals",
    skip ? "Skipped: acknowledgement turn" : `Derived ${proposals.length} proposal(s)`,
    {
      warnings: proposals.flatMap((p) => p.warnings.map((w) => `${p.suggestionIndex}:${w}`)),
    },
    skip ? "skipped" : "completed",
  );

  // Resolve (seed 001 §6): each new proposal against the knowledge base, stored with it.
  t = performance.now();
  for (const p of proposals) p.resolve = await resolveProposal(deps, p);
  trace.add(
    "resolve",
    proposals.length === 0 ? "Nothing to resolve" : `Resolved ${proposals.length} proposal(s)`,
    {
      decisions: proposals.map((p) => ({
        suggestion: p.suggestionIndex,
        decision: p.resolve?.outcome.decision,
        target_cfb_id: p.resolve?.outcome.target_cfb_id ?? null,
        top_score: p.resolve?.outcome.scores[0]?.score ?? null,
        reason_codes: p.resolve?.outcome.reason_codes,
        disagreement: p.resolve?.disagreement ?? null,
      })),
      duration_ms: since(t),
    },
    proposals.length === 0 ? "skipped" : "completed",
  );

  // Usage counts only CFBs that exist and were actually injected into this turn.
  const usage = skip
    ? { used: [], ignored: [], injected: [], hadUnknown: false }
    : {
        ...usageOf(meta, (id) => existing.has(id) && injected.has(id)),
        injected: [...injected],
        hadUnknown: meta.unknowns.length > 0,
      };
  const cfbTitles = new Map(ranked.map((r) => [r.cfb.cfb_id, r.cfb.title] as const));
  // Stale CFBs that asked for review on use, and were used (seed 001 §9.5).
  const staleUsed = ranked
    .filter((r) => r.cfb.signals?.stale && r.cfb.signals.reviewOnUse && usage.used.includes(r.cfb.cfb_id))
    .map((r) => r.cfb.cfb_id);

  // The answer's domainHints against the route: repeated mismatches suggest a routing rule.
  const mismatch = domainMismatch(route, meta, input.message);
  if (mismatch)
    trace.add("selector", `Domain mismatch: ${mismatch.label}`, { router_domain: routerDomain, hinted: mismatch.key });

  // Summary and affect (seed 000 step 8; affect on the user's message only).
  const memento = mementoAfterTurn({
    baseline: baseline.memento,
    proposed: output.summary,
    mayUpdateSummary,
    userMessageId,
    userMessage: input.message,
    now: deps.now(),
  });
  trace.add(
    "memento",
    mayUpdateSummary ? "Summary updated" : peakGuardrailActive ? "Summary frozen at peak" : "Summary unchanged (skip)",
    {
      summary_updated: mayUpdateSummary && Boolean(output.summary),
      peakGuardrailActive,
      affect: memento.affect.rollup,
      base_version: baseline.storedVersion,
    },
  );
  trace.add("store", "Turn stored", { attempts: attempts.length, proposals: proposals.length });

  // The memento write is conditional on the version read at the start. Another turn (or a
  // memento PUT) may land on the thread while the model answers: then this turn's changes are
  // applied again to the memento as it is now (re-read, unless the client sent its own
  // baseline) instead of throwing the whole turn away.
  const record = (write: { expectedVersion: number | null; payload: TThreadMemento }) =>
    deps.repos.turns.record({
      callerId: caller.userId,
      ownerId: caller.userId,
      mayWriteAnyThread: caller.role === "jam",
      requestId: input.request_id,
      requestHash: hash,
      threadId,
      threadTitle: input.message.slice(0, 80),
      userMessageId,
      message: input.message,
      historyMessageIds: history.map((m) => m.id),
      modeLabel: route.mode_label,
      routerDomain,
      selector: selection.attempt,
      claimCheck: claimCheck ?? null,
      model: deps.model.name,
      tokensIn: output.tokensIn,
      tokensOut: output.tokensOut,
      latencyMs,
      attempts,
      assistantText: envelope.assistant_text,
      meta,
      proposals,
      usage,
      // Repetitions (seed 001 §5.2) are counted for turns that did the work, not for acks.
      repetitions: skip
        ? undefined
        : {
            hits: [
              ...turnRepetitions({ routerDomain, meta, usage, titles: cfbTitles, proposals, staleUsed }),
              ...(mismatch ? [mismatch] : []),
            ],
            thresholds: deps.repetitionThresholds,
          },
      memento: write,
      procedure: procedure.kind === "engine" ? procedure.write : null,
      gate: gateRows(gate, party, (n) => n === deliveredN),
      trace: trace.events,
    });
  const turn = await storeWithRetry(record, { expectedVersion: baseline.storedVersion, payload: memento }, async () => {
    const fresh = await resolveBaseline(deps, threadId, input.context?.thread_memento);
    return {
      expectedVersion: fresh.storedVersion,
      payload: mementoAfterTurn({
        baseline: fresh.memento,
        proposed: output.summary,
        mayUpdateSummary,
        userMessageId,
        userMessage: input.message,
        now: deps.now(),
      }),
    };
  });
  if (turn === "duplicate") {
    // A concurrent retry with the same request_id stored first (another process): answer with
    // its result, and take back what this one showed while it ran.
    guard?.settle(null, "the same request was answered by another turn");
    const winner = await deps.repos.turns.findByRequestId(caller.userId, input.request_id);
    if (!winner) throw new Error("request_id conflict without a stored turn");
    return replay(deps, winner, input, hash);
  }
  return toResponse(
    turn,
    false,
    { decision, peak_guardrail_active: peakGuardrailActive, signal_kinds: signalKinds },
    plannedView(deps, procedure, turn.procedureVersion),
  );
}
