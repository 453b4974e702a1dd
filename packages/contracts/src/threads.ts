import { z } from "zod";
import { ZIsoDate, ZThreadId } from "./ids";
import { ZClaimMapEntry } from "./output-envelope";

/** A delivered answer's claim-map check: in a strict domain it passed; elsewhere findings are warnings. */
export const ZClaimCheck = z.object({
  strict: z.boolean(),
  domain: z.string(),
  findings: z.array(z.object({ code: z.string(), claim_id: z.string().nullable(), detail: z.string() })),
});
export type TClaimCheckView = z.infer<typeof ZClaimCheck>;

export const ZThreadSummary = z.object({
  thread_id: ZThreadId,
  title: z.string(),
  owner_email: z.string().nullable(),
  updated_ts: ZIsoDate,
  /** The catalog system a procedure thread is bound to (seed 004); null for a plain chat. */
  procedure_system_id: z.string().nullable(),
});
export const ZThreadListRequest = z
  .object({
    limit: z.number().int().min(1).max(100).default(50),
    /** The last thread id of the previous page. */
    cursor: ZThreadId.optional(),
    /** Only threads whose title or owner's email holds this (any case), or whose id it is. */
    query: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export const ZThreadList = z.object({ items: z.array(ZThreadSummary), next_cursor: ZThreadId.nullable() });

export const ZTraceEvent = z.object({
  seq: z.number().int(),
  actor: z.string(),
  phase: z.string(),
  status: z.string(),
  summary: z.string(),
  metadata: z.unknown(),
  created_ts: ZIsoDate,
});

export const ZThreadDetail = ZThreadSummary.extend({
  messages: z.array(
    z.object({ id: z.string(), role: z.enum(["user", "assistant"]), content: z.string(), created_ts: ZIsoDate }),
  ),
  turns: z.array(
    z.object({
      packet_id: z.string(),
      transmission_id: z.string().nullable(),
      /** The selector step's route for this turn (seed 001 §7.1). */
      router_domain: z.string().nullable(),
      mode_label: z.string().nullable(),
      /** The user's message that started the turn. */
      message: z.string(),
      /**
       * The context window: the CFBs retrieval injected into the turn, best first, why each was
       * (the message's words it holds, the cosine similarity of its meaning; null in turns from
       * before either was recorded), and whether the answer says it used each (its meta's
       * used_cfb_ids). A title is null for a CFB gone since.
       */
      context_window: z.array(
        z.object({
          cfb_id: z.string(),
          title: z.string().nullable(),
          score: z.number().nullable(),
          matched: z.array(z.string()).nullable(),
          similarity: z.number().nullable(),
          used: z.boolean(),
        }),
      ),
      /** The delivered answer with its claim map and the claim-map check (seed 001 §4). */
      answer: z
        .object({
          response_id: z.string(),
          assistant_text: z.string(),
          claim_map: z.array(ZClaimMapEntry).nullable(),
          claim_check: ZClaimCheck.nullable(),
        })
        .nullable(),
      trace: z.array(ZTraceEvent),
      /** When the turn's packet was stored. */
      created_ts: ZIsoDate,
      /**
       * Set when the trace was pruned by retention (docs/operations.md): the days traces are kept.
       * The messages and the answer stay; `trace` is then empty.
       */
      trace_pruned_after_days: z.number().int().nullable(),
    }),
  ),
});
export type TThreadDetail = z.infer<typeof ZThreadDetail>;
export const ZThreadGetRequest = z.object({ thread_id: ZThreadId }).strict();

// Parsed requests, as a service receives them (defaults applied).
export type TThreadGetRequest = z.output<typeof ZThreadGetRequest>;
export type TThreadListRequest = z.output<typeof ZThreadListRequest>;
