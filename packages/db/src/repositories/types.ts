import type {
  TCfbCard,
  TCfbOp,
  TGateDecision,
  TOutputMeta,
  TProposalWarning,
  TProposedCfb,
  TRepetitionKind,
  TResolveOutcome,
  TStoredProposalPreview,
} from "@solserver/contracts";
import type { TContextWrite } from "./contexts";
import type { TMementoWrite } from "./mementos";

// Plain-data shapes the repositories take and give: no Prisma types cross this boundary.

export type TTraceEventInput = {
  actor: string;
  phase: string;
  status: "completed" | "failed" | "skipped";
  summary: string;
  metadata: Record<string, unknown>;
  at: Date;
};

export type TNewProposal = {
  suggestionIndex: number;
  op: TCfbOp;
  targetCfbId: string | null;
  title: string;
  deltaSummary: string;
  /** The content approving it writes (ZProposedCfb), apart from the change note. */
  proposedCfb: TProposedCfb;
  rationale: string | null;
  confidence: number;
  fingerprint: string;
  warnings: TProposalWarning[];
  /** Resolve's decision as the proposal is created (stored with it). */
  resolve?: Omit<TResolveDecisionWrite, "proposalId" | "stage" | "fingerprint">;
  /**
   * The pending lead this proposal is a twin of: a stored one, or an earlier proposal of the same
   * turn (its index in the turn's list). Stored only if that lead is still a pending lead when the
   * turn is written; otherwise the proposal leads its own group. `echo`: the lead is another
   * person's (a thread of another owner), grouped with it in the Jam queue only.
   */
  twinOf?: { proposalId: string; echo?: boolean } | { index: number } | null;
};

export type TTurnWrite = {
  /** The account that sent the turn: idempotency keys are unique per caller. */
  callerId: string;
  /** Owner of the thread when this turn creates it. */
  ownerId: string | null;
  /** Jam editors may add to any thread; anyone else only to a thread `ownerId` owns. */
  mayWriteAnyThread: boolean;
  requestId: string;
  requestHash: string;
  threadId: string;
  /** Title for the thread when this turn creates it; ignored when it exists. */
  threadTitle: string;
  /** Id of the user's message, chosen by the caller so the memento's affect point can name it. */
  userMessageId: string;
  message: string;
  historyMessageIds: string[];
  modeLabel: string;
  routerDomain: string;
  model: string;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number;
  assistantText: string;
  meta: TOutputMeta;
  proposals: TNewProposal[];
  /** CFB ids (existing ones only) the model used / was given but ignored. */
  usage: { used: string[]; ignored: string[]; injected?: string[]; hadUnknown?: boolean };
  trace: TTraceEventInput[];
  /** Every model attempt, in order (n = 1..N); the response belongs to the last one. */
  attempts: {
    n: number;
    model: string;
    tokensIn: number | null;
    tokensOut: number | null;
    latencyMs: number;
    outcome: string;
    reason: string | null;
  }[];
  /** Repetitions this turn observed, counted in the same transaction (seed 001 §5.2). */
  repetitions?: { hits: TRepetitionHit[]; thresholds: Record<TRepetitionKind, number> };
  /** The output gate's decision on each attempt (stored with the turn's transmission id). */
  gate: Omit<TGateEvaluationWrite, "transmissionId" | "source">[];
  /** The thread's memento after this turn (mementos.ts, TMementoWrite). */
  memento: TMementoWrite | null;
  /** The selector step's attempt (seed 001 §7.1): the deterministic router, stored with step "selector". */
  selector?: { model: string; latencyMs: number; outcome: string; reason: string | null };
  /** The delivered answer's claim-map check ({ strict, domain, findings }), stored with its meta. */
  claimCheck?: Record<string, unknown> | null;
  /** Procedure mode: the binding (when this turn binds the thread) and the context engine's state. */
  procedure?: TContextWrite | null;
};

export type TStoredTurn = {
  threadId: string;
  packetId: string;
  transmissionId: string;
  attemptId: string;
  responseId: string;
  assistantText: string;
  requestHash: string;
  proposals: TStoredProposalPreview[];
  /** Memento version after the turn (null when the turn wrote none). */
  mementoVersion?: number | null;
  /** The procedure state's version after the turn (absent when the turn wrote none). */
  procedureVersion?: { version: number; updatedAt: Date } | null;
};

export type THistoryMessage = { id: string; role: "user" | "assistant"; content: string };

/** What retrieval weighs besides the text (seed 001 §9.5): stats and staleness. */
export type TRetrievalSignals = {
  /** hotness in [0, 1) (cfb-stats.ts). */
  hotness: number;
  used30d: number;
  ignored30d: number;
  /** Past its TTL (last updated more than ttl_days ago). */
  stale: boolean;
  /** A stale CFB that is used must be flagged for review. */
  reviewOnUse: boolean;
};

export type TRetrievableCfb = TCfbCard & { signals?: TRetrievalSignals };

/** A BreakPoint gate decision to store (seed 002), from a turn's attempt or from gate.evaluate. */
export type TGateEvaluationWrite = {
  source: "turn" | "api";
  actorId: string | null;
  label: string | null;
  threadId: string | null;
  transmissionId: string | null;
  attemptN: number | null;
  delivered: boolean | null;
  decision: TGateDecision;
};

/** The latest delivered response of a thread: the output gate's baseline for the next turn. */
export type TPreviousResponse = {
  responseId: string;
  /** The message it answered. */
  message: string;
  assistantText: string;
  /** The stored meta under OutputEnvelope's keys; null when the response has none. */
  meta: Record<string, unknown> | null;
  model: string;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number | null;
};

/** A resolve decision to store (seed 001 §6), for a proposal at creation or at promotion. */
export type TResolveDecisionWrite = {
  proposalId: string;
  stage: "created" | "promotion";
  fingerprint: string;
  outcome: TResolveOutcome;
  modelOp: string;
  modelTargetCfbId: string | null;
  disagreement: string | null;
};

/** One observation of a repeated thing (seed 001 §5.2). */
export type TRepetitionHit = { kind: TRepetitionKind; routerDomain: string; key: string; label: string };

/** A proposal's origin as the proposal page shows it (the contract's ZProposalSource). */
export type TResponseSource = {
  thread_id: string;
  thread_title: string;
  response_id: string;
  user_message: string;
  assistant_text: string;
  created_ts: string;
};
