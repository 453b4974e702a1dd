import { z } from "zod";

// Thread memento v0.2 (seed 000): the thread's summary shape, its affect (points on user
// messages and a rollup) and the breakpoint signals the client or model attached.

export const ThreadMementoSignalKind = z.enum([
  "decision_made",
  "scope_changed",
  "pivot",
  "answer_provided",
  "ack_only",
  "open_loop_created",
  "open_loop_resolved",
  "risk_or_conflict",
]);
export type TThreadMementoSignalKind = z.infer<typeof ThreadMementoSignalKind>;

export const ThreadMementoSignalItem = z
  .object({
    endMessageId: z.string().min(1),
    kind: ThreadMementoSignalKind,
    confidence: z.enum(["low", "med", "high"]),
    source: z.enum(["server", "model"]),
    summary: z.string().max(180).optional(),
  })
  .strict();
export type TThreadMementoSignalItem = z.infer<typeof ThreadMementoSignalItem>;

export const ThreadMementoSignals = z
  .object({
    updatedAt: z.iso.datetime(),
    items: z.array(ThreadMementoSignalItem).max(8).default([]),
  })
  .strict();
export type TThreadMementoSignals = z.infer<typeof ThreadMementoSignals>;

const ZLine = z.string().trim().min(1).max(200);

/** The summary fields the breakpoint engine protects: arc, active, parked, decisions, next. */
export const ZThreadMementoShape = z
  .object({
    arc: z.string().max(500),
    active: z.array(ZLine).max(12),
    parked: z.array(ZLine).max(12),
    decisions: z.array(ZLine).max(24),
    next: z.array(ZLine).max(12),
  })
  .strict();
export type TThreadMementoShape = z.infer<typeof ZThreadMementoShape>;

export const ZAffectPhase = z.enum(["rising", "peak", "downshift", "settled"]);
export const ZIntensityBucket = z.enum(["low", "med", "high"]);

/** An affect reading, always of a user message (never of an assistant answer). */
export const ZAffectPoint = z
  .object({
    messageId: z.string().min(1),
    intensity: z.number().min(0).max(1),
    at: z.iso.datetime(),
  })
  .strict();
export type TAffectPoint = z.infer<typeof ZAffectPoint>;

export const ZAffect = z
  .object({
    points: z.array(ZAffectPoint).max(32),
    rollup: z.object({ phase: ZAffectPhase, intensityBucket: ZIntensityBucket }).strict(),
  })
  .strict();
export type TAffect = z.infer<typeof ZAffect>;

export const ZThreadMemento = z
  .object({
    schemaVersion: z.literal("0.2"),
    shape: ZThreadMementoShape,
    affect: ZAffect,
    signals: ThreadMementoSignals,
  })
  .strict();
export type TThreadMemento = z.infer<typeof ZThreadMemento>;

/** A stored memento with its concurrency token (served as an ETag). */
export const ZThreadMementoRecord = z.object({
  thread_id: z.string(),
  version: z.number().int().positive(),
  memento: ZThreadMemento,
  updated_ts: z.iso.datetime({ offset: true }),
});
export type TThreadMementoRecord = z.infer<typeof ZThreadMementoRecord>;

/** Writes carry the version they were based on: a stale one is CONFLICT and changes nothing. */
export const ZThreadMementoWrite = z
  .object({ thread_id: z.string().min(1).max(64), version: z.number().int().positive(), memento: ZThreadMemento })
  .strict();

// Parsed requests, as a service receives them (defaults applied).
export type TThreadMementoWrite = z.output<typeof ZThreadMementoWrite>;
