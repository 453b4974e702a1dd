import {
  OUTPUT_LIMITS,
  type TCfbSuggestion,
  type TClaimMapEntry,
  type TOutputEnvelope,
  type TUnknown,
} from "@solserver/contracts";
import { isAckOnlyMessage } from "@solserver/engine";
import { tokens as words } from "@solserver/text";
import { classifySentences, splitSentences, type TStatementContext } from "../services/claim-statements";
import { capitalize, clip, coverage, sentences, uniqueContentWords } from "../text";
import { detectStatement, isQuestion, properNouns, type TStatement, titleFromClause } from "./offline-heuristics";
import { procedureReply } from "./procedure-text";
import { procedureWording } from "./procedure-wording";
import {
  ModelAttemptsFailed,
  type TGenerateOptions,
  type TModelAttempt,
  type TModelCfb,
  type TModelInput,
  type TModelOutput,
  type TModelProvider,
  type TSummaryShape,
} from "./provider";

// The default model: a documented, deterministic heuristic that needs no network and no key
// (docs/offline-model.md). It reads the message sentence by sentence:
//  - a question is answered from the injected CFB that covers most of its content words
//    (>= ANSWER_COVERAGE); when none does, it becomes an `unknown` and a `missing_cfb_query`;
//  - a stated decision, rule or fact ("we decided ...", "from now on ...", "remember that ...")
//    becomes a `cfb_suggestion`: `update` of the CFB that already covers it (>= UPDATE_COVERAGE),
//    else `create`. Its content is the statement as a sentence, apart from the change note: a
//    restatement of the target's summary (>= RESTATE_COVERAGE of it) replaces that summary, any
//    other update adds the sentence to the target's full text;
//  - any other sentence cites a CFB only when one clearly covers it.
// CFBs it cites are `used_cfb_ids`; injected CFBs it did not cite are `ignored_cfb_ids`.
// In procedure mode it follows the context engine's directive instead (procedure-text.ts).

export const OFFLINE_MODEL_NAME = "offline-heuristic-v1";
const ANSWER_COVERAGE = 0.5;
const UPDATE_COVERAGE = 0.6;
const RESTATE_COVERAGE = 0.8;
const RELATED_COVERAGE = 0.5;
const BASE_CONFIDENCE = { decision: 0.8, rule: 0.75, fact: 0.7 } as const;
const HEDGE_PENALTY = 0.25;
const MAX_LABELS = 4;

type TBest = { cfb: TModelCfb; score: number } | null;

function bestCfb(text: string, cfbs: readonly TModelCfb[], vocab: Map<string, Set<string>>): TBest {
  const query = uniqueContentWords(text);
  let best: TBest = null;
  for (const cfb of cfbs) {
    const score = coverage(query, vocab.get(cfb.cfb_id) ?? new Set());
    // Strictly greater keeps the earlier (better-ranked) CFB on ties: deterministic.
    if (score > 0 && (best === null || score > best.score)) best = { cfb, score };
  }
  return best;
}

/** The pending proposal that would answer `text` (same coverage as a CFB answer), or null. */
function pendingAnswer(
  text: string,
  pending: NonNullable<TModelInput["pendingProposals"]>,
  vocab: Map<string, Set<string>>,
): NonNullable<TModelInput["pendingProposals"]>[number] | null {
  const query = uniqueContentWords(text);
  let best: { p: (typeof pending)[number]; score: number } | null = null;
  for (const p of pending) {
    const score = coverage(query, vocab.get(p.proposal_id) ?? new Set());
    if (score > 0 && (best === null || score > best.score)) best = { p, score };
  }
  return best && best.score >= ANSWER_COVERAGE ? best.p : null;
}

function labelsFor(statement: TStatement, cfbs: readonly TModelCfb[]) {
  const clauseWords = uniqueContentWords(statement.clause);
  const knownTags = new Map(cfbs.flatMap((c) => c.tags).map((t) => [t.toLowerCase(), t] as const));
  const knownEntities = new Map(cfbs.flatMap((c) => c.entities).map((e) => [e.toLowerCase(), e] as const));
  // Prefer the knowledge base's own vocabulary, then the clause's longest words.
  const fromKnown = clauseWords.flatMap((w) => (knownTags.has(w) ? [knownTags.get(w) as string] : []));
  const longest = clauseWords
    .filter((w) => w.length <= OUTPUT_LIMITS.label)
    .sort((a, b) => b.length - a.length || a.localeCompare(b));
  const tags = [...new Set([statement.kind, ...fromKnown, ...longest])].slice(0, MAX_LABELS);
  const entities = [
    ...new Set([
      ...properNouns(statement.clause),
      ...words(statement.clause).flatMap((w) => (knownEntities.has(w) ? [knownEntities.get(w) as string] : [])),
    ]),
  ].slice(0, MAX_LABELS);
  return { tags, entities };
}

function suggestionFor(
  statement: TStatement,
  cfbs: readonly TModelCfb[],
  vocab: Map<string, Set<string>>,
): TCfbSuggestion {
  const { tags, entities } = labelsFor(statement, cfbs);
  const match = bestCfb(statement.clause, cfbs, vocab);
  const confidence = Math.max(0, BASE_CONFIDENCE[statement.kind] - (statement.hedged ? HEDGE_PENALTY : 0));
  const base = {
    title: titleFromClause(statement.clause),
    tags,
    entities,
    confidence: Math.round(confidence * 100) / 100,
  };
  // The knowledge itself, as a sentence: what a CFB holds (the change note only describes it).
  const fact = clip(`${capitalize(statement.clause)}.`, OUTPUT_LIMITS.text);
  if (match && match.score >= UPDATE_COVERAGE) {
    const restates = coverage(uniqueContentWords(match.cfb.summary), new Set(uniqueContentWords(statement.clause)));
    return {
      ...base,
      op: "update",
      target_cfb_id: match.cfb.cfb_id,
      delta_summary: clip(`Add ${statement.kind}: ${statement.clause}.`, OUTPUT_LIMITS.text),
      // A restatement ("… every Tuesday at noon" of "… every Tuesday") is the summary now; anything
      // else is one more fact, which joins the full text and leaves the curated summary alone.
      ...(restates >= RESTATE_COVERAGE ? { summary: fact } : { text: fact }),
      rationale: `User stated a ${statement.kind} ("${statement.trigger}"); ${match.cfb.cfb_id} already covers ${Math.round(match.score * 100)}% of its words.`,
    };
  }
  return {
    ...base,
    op: "create",
    delta_summary: fact,
    summary: fact,
    rationale: `User stated a ${statement.kind} ("${statement.trigger}") that no injected CFB covers.`,
  };
}

const L = OUTPUT_LIMITS;

/**
 * The claims' spans, so that the claim map covers every statement of the answer (strict domains
 * refuse one that does not: services/claim-statements.ts). A claim's `span.sentence` is the line
 * of assistant_text it supports; when that number alone does not name exactly the line's
 * statements (an earlier line holds two sentences, or a CFB summary has several), the line's
 * character range is added, which the check reads instead.
 */
function spanClaims(
  text: string,
  lines: readonly string[],
  claims: readonly TClaimMapEntry[],
  ctx: TStatementContext,
): TClaimMapEntry[] {
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  const statements = classifySentences(text, ctx).filter((s) => s.kind === "statement");
  return claims.map((claim) => {
    const line = claim.span.sentence ?? -1;
    const start = starts[line];
    if (start === undefined || start >= text.length) return claim;
    const end = Math.min(start + (lines[line] ?? "").length, text.length);
    const inLine = statements.filter((s) => s.start >= start && s.end <= end);
    if (inLine.every((s) => s.index === line)) return claim;
    return { ...claim, span: { sentence: line, start_char: start, end_char: end } };
  });
}

/** The offline heuristic as a pure function: same input, same envelope, always within OUTPUT_LIMITS. */
export function offlineEnvelope(input: TModelInput): TOutputEnvelope {
  const cfbs = input.cfbs;
  const vocab = new Map(
    cfbs.map(
      (c) => [c.cfb_id, new Set(uniqueContentWords([c.title, c.summary, ...c.tags, ...c.entities].join(" ")))] as const,
    ),
  );
  const pending = input.pendingProposals ?? [];
  const pendingVocab = new Map(
    pending.map((p) => [p.proposal_id, new Set(uniqueContentWords(`${p.title} ${p.summary}`))] as const),
  );
  const lines: string[] = [];
  const claims: TClaimMapEntry[] = [];
  const unknowns: TUnknown[] = [];
  const missing = new Set<string>();
  const suggestions: TCfbSuggestion[] = [];
  const assumptions: TOutputEnvelope["meta"]["assumptions"] = [];
  const used: string[] = [];
  const overflow = new Set<string>();
  const claim = (text: string, support: TClaimMapEntry["support"]) => {
    if (claims.length >= L.claims) return;
    claims.push({
      claim_id: `c${claims.length + 1}`,
      span: { sentence: lines.length },
      text: clip(text, L.text),
      support,
    });
  };
  const cite = (cfb: TModelCfb, line: string) => {
    if (!used.includes(cfb.cfb_id)) used.push(cfb.cfb_id);
    claim(cfb.summary, { cfb_ids: [cfb.cfb_id] });
    lines.push(line);
  };
  let onlyAcks = true;
  // Procedure mode: the context engine's directive is the answer (procedure-text.ts); the message
  // is read only for knowledge the technician states, never to answer questions from CFBs.
  const procedure = input.procedure ?? null;

  // The message's sentences, each cut again where the claim check would cut it ("…", "。", "؟" end
  // a sentence there), so that a title or question quoted in the answer is one sentence of it.
  // A piece with no letter or digit ("???") is kept as it was read.
  const messageSentences = sentences(input.message).flatMap((s) => {
    const pieces = splitSentences(s);
    return pieces.length > 0 ? pieces.map((p) => p.text) : [s];
  });
  for (const sentence of messageSentences) {
    // The breakpoint engine's own definition of an acknowledgement (seed 000).
    if (isAckOnlyMessage(sentence)) continue;
    onlyAcks = false;
    const statement = detectStatement(sentence);
    if (statement) {
      if (suggestions.length >= L.suggestions) {
        overflow.add(
          `I can propose at most ${L.suggestions} pieces of knowledge per message; send the rest separately.`,
        );
        continue;
      }
      const suggestion = suggestionFor(statement, cfbs, vocab);
      suggestions.push(suggestion);
      if (statement.hedged && assumptions.length < L.assumptions) {
        const text = clip(`Treating "${statement.clause}" as tentative: it was hedged.`, L.text);
        assumptions.push({ id: `A${assumptions.length + 1}`, text, severity: "low" });
      }
      lines.push(
        suggestion.op === "update"
          ? `Noted. I proposed adding this to ${suggestion.target_cfb_id} for review: "${suggestion.title}".`
          : `Noted. I proposed saving this as new knowledge for review: "${suggestion.title}".`,
      );
      continue;
    }
    if (procedure !== null) continue;
    const match = bestCfb(sentence, cfbs, vocab);
    if (isQuestion(sentence)) {
      if (match && match.score >= ANSWER_COVERAGE) {
        cite(match.cfb, `According to ${match.cfb.cfb_id} (${match.cfb.title}): ${match.cfb.summary}`);
        continue;
      }
      if (unknowns.length >= L.unknowns) {
        overflow.add(`I can track at most ${L.unknowns} open questions per message; ask the rest separately.`);
        continue;
      }
      const id = `U${unknowns.length + 1}`;
      unknowns.push({ id, text: clip(`No knowledge block answers: ${sentence}`, L.text), needs_user_input: true });
      if (missing.size < L.queries)
        missing.add(clip(uniqueContentWords(sentence).join(" ") || sentence.toLowerCase(), L.query));
      claim(sentence, { unknown_id: id });
      // Said in this thread and waiting for review: not knowledge yet, but the user should know
      // it was heard, and where it is.
      const waiting = pendingAnswer(sentence, pending, pendingVocab);
      lines.push(
        waiting
          ? `I can't answer "${clip(sentence, 300)}" from approved knowledge yet: "${clip(waiting.title, 200)}" (proposal ${waiting.proposal_id}) is waiting for review.`
          : `I don't have knowledge that answers "${clip(sentence, 300)}". If you know, tell me and I will propose saving it.`,
      );
      continue;
    }
    if (match && match.score >= RELATED_COVERAGE) {
      cite(match.cfb, `This relates to ${match.cfb.cfb_id} (${match.cfb.title}): ${match.cfb.summary}`);
    }
  }
  lines.push(...overflow);
  if (procedure !== null) lines.unshift(procedureReply(procedure));

  if (lines.length === 0) {
    lines.push(
      onlyAcks
        ? "Got it."
        : 'I have no stored knowledge about this yet. Tell me what you decided or want remembered ("we decided ...", "remember that ...") and I will propose it for review.',
    );
  }
  const domains = [...new Set(cfbs.filter((c) => used.includes(c.cfb_id)).map((c) => c.domain))].sort();
  const text = clip(lines.join("\n"), L.assistantText);
  const ctx: TStatementContext = {
    proposals: suggestions,
    procedure: procedure === null ? null : procedureWording(procedure),
  };
  return {
    assistant_text: text,
    meta: {
      modeLabel: procedure === null ? "Offline" : "Procedure",
      domainHints: domains.length > 0 ? domains : ["general"],
      used_cfb_ids: used.slice(0, L.cfbIds),
      ignored_cfb_ids: cfbs
        .map((c) => c.cfb_id)
        .filter((id) => !used.includes(id))
        .slice(0, L.cfbIds),
      assumptions,
      unknowns,
      missing_cfb_queries: [...missing],
      cfb_suggestions: suggestions,
      claim_map: spanClaims(text, lines, claims, ctx),
    },
  };
}

/** Rough token counts (words), so traces and budgets have a number for the offline model too. */
function countWords(input: TModelInput): number {
  return words([input.message, ...input.cfbs.map((c) => `${c.title} ${c.summary}`)].join(" ")).length;
}

/**
 * The summary the offline model proposes when the turn may update it: decisions gain the titles
 * of stated decisions, next steps gain the open questions, the arc starts from the first
 * decision (or the message) when the thread has none; active and parked stay as they are.
 */
function offlineSummary(input: TModelInput, envelope: TOutputEnvelope): TSummaryShape | null {
  const previous = input.summary;
  if (!previous) return null;
  const decided = envelope.meta.cfb_suggestions.filter((s) => s.tags[0] === "decision").map((s) => s.title);
  const questions = envelope.meta.unknowns.map((u) => u.text.replace(/^No knowledge block answers: /, ""));
  const arc = previous.arc || decided[0] || clip(input.message.replace(/\s+/g, " ").trim(), 120);
  return {
    arc,
    active: previous.active,
    parked: previous.parked,
    decisions: [...new Set([...previous.decisions, ...decided])],
    next: [...new Set([...previous.next, ...questions])],
  };
}

/** Cuts text into pieces of a few words each (whitespace kept), the offline model's stream chunks. */
export function streamChunks(text: string, wordsPerChunk = 3): string[] {
  // Each chunk ends after its last word; the whitespace before a word goes with it.
  const ends = [...text.matchAll(/\S+/g)].map((m) => m.index + m[0].length);
  const chunks: string[] = [];
  let from = 0;
  for (let i = 0; i < ends.length; i += wordsPerChunk) {
    const end = ends[Math.min(i + wordsPerChunk, ends.length) - 1] as number;
    chunks.push(text.slice(from, end));
    from = end;
  }
  if (from < text.length) chunks.push(text.slice(from));
  return chunks;
}

export type TOfflineModelOptions = {
  /**
   * Pause between streamed chunks when the caller streams (`onText`): the answer is computed at
   * once, so without a pause a client would see it arrive in one piece. 0 streams without waiting.
   */
  streamChunkDelayMs?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createOfflineModel(opts: TOfflineModelOptions = {}): TModelProvider {
  const delayMs = opts.streamChunkDelayMs ?? 0;
  return {
    name: OFFLINE_MODEL_NAME,
    async generate(input: TModelInput, options: TGenerateOptions = {}): Promise<TModelOutput> {
      const started = performance.now();
      const envelope = offlineEnvelope(input);
      if (options.onText) {
        for (const piece of streamChunks(envelope.assistant_text)) {
          if (delayMs > 0) await sleep(delayMs);
          options.onText({ n: 1, piece });
        }
      }
      const output: TModelOutput = {
        envelope,
        tokensIn: countWords(input),
        tokensOut: words(envelope.assistant_text).length,
        summary: offlineSummary(input, envelope),
      };
      const attempt: TModelAttempt = {
        n: 1,
        model: OFFLINE_MODEL_NAME,
        tokensIn: output.tokensIn,
        tokensOut: output.tokensOut,
        latencyMs: Math.round(performance.now() - started),
        outcome: "ok",
        reason: null,
      };
      const verdict = (await options.judge?.({ output, attempt })) ?? { deliver: true };
      // Deterministic: asking again would give the same answer, so one refused attempt ends it.
      if (!verdict.deliver) {
        throw new ModelAttemptsFailed(`the output gate blocked ${OFFLINE_MODEL_NAME}'s answer: ${verdict.reason}`, [
          { ...attempt, outcome: "blocked", reason: verdict.reason },
        ]);
      }
      // The output itself stays deterministic: the caller records the attempt with its own timing.
      return output;
    },
  };
}
