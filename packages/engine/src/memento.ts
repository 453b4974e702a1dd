// Thread memento v0.2 operations, pure: the empty memento, affect readings of user messages and
// their rollup, and the summary merge the breakpoint decision and the peak guardrail allow.

export type TMementoShape = { arc: string; active: string[]; parked: string[]; decisions: string[]; next: string[] };
export type TAffectPhase = "rising" | "peak" | "downshift" | "settled";
export type TIntensityBucket = "low" | "med" | "high";
export type TAffectPoint = { messageId: string; intensity: number; at: string };
export type TMementoSignalItem = {
  endMessageId: string;
  kind: string;
  confidence: "low" | "med" | "high";
  source: "server" | "model";
  summary?: string | undefined;
};
export type TMemento = {
  schemaVersion: "0.2";
  shape: TMementoShape;
  affect: { points: TAffectPoint[]; rollup: { phase: TAffectPhase; intensityBucket: TIntensityBucket } };
  signals: { updatedAt: string; items: TMementoSignalItem[] };
};

export const MAX_AFFECT_POINTS = 32;
const SHAPE_LIMITS = { arc: 500, active: 12, parked: 12, decisions: 24, next: 12, line: 200 } as const;

export function emptyMemento(now: string): TMemento {
  return {
    schemaVersion: "0.2",
    shape: { arc: "", active: [], parked: [], decisions: [], next: [] },
    affect: { points: [], rollup: { phase: "settled", intensityBucket: "low" } },
    signals: { updatedAt: now, items: [] },
  };
}

const INTENSE_WORDS = new Set([
  "urgent",
  "asap",
  "furious",
  "angry",
  "terrible",
  "awful",
  "panic",
  "broken",
  "disaster",
  "hate",
  "desperate",
  "critical",
  "emergency",
  "scared",
  "worried",
  "upset",
  "frustrated",
  "unacceptable",
]);

/**
 * How intense a user message reads, 0..1, from three cheap cues: exclamation marks, shouting
 * (share of upper-case letters in a long enough message) and intense words. One linear pass.
 */
export function messageIntensity(message: string): number {
  let bangs = 0;
  let letters = 0;
  let upper = 0;
  let word = "";
  let intenseWords = 0;
  const flush = () => {
    if (word.length > 0 && INTENSE_WORDS.has(word)) intenseWords++;
    word = "";
  };
  for (const ch of message) {
    if (ch === "!") bangs++;
    const lower = ch.toLowerCase();
    if (lower !== ch.toUpperCase()) {
      letters++;
      if (ch !== lower) upper++;
      word += lower;
    } else {
      flush();
    }
  }
  flush();
  const shouting = letters >= 12 ? upper / letters : 0;
  const score =
    Math.min(1, bangs * 0.15) * 0.35 + Math.min(1, shouting * 1.25) * 0.35 + Math.min(1, intenseWords * 0.5) * 0.3;
  return Math.round(Math.min(1, score) * 1000) / 1000;
}

export function intensityBucket(intensity: number): TIntensityBucket {
  return intensity >= 0.6 ? "high" : intensity >= 0.3 ? "med" : "low";
}

/**
 * The rollup of the last readings: bucket of the latest; phase from the latest against the
 * mean of the ones before it (peak when high and not falling, rising when climbing, downshift
 * when falling, settled otherwise).
 */
export function affectRollup(points: readonly TAffectPoint[]): TMemento["affect"]["rollup"] {
  const last = points.at(-1);
  if (!last) return { phase: "settled", intensityBucket: "low" };
  const bucket = intensityBucket(last.intensity);
  const before = points.slice(-4, -1);
  const mean = before.length > 0 ? before.reduce((s, p) => s + p.intensity, 0) / before.length : 0;
  const delta = last.intensity - mean;
  const phase: TAffectPhase =
    bucket === "high" && delta > -0.1 ? "peak" : delta >= 0.15 ? "rising" : delta <= -0.15 ? "downshift" : "settled";
  return { phase, intensityBucket: bucket };
}

/** Adds a reading of a user message (assistant messages never get one) and recomputes the rollup. */
export function recordUserAffect(memento: TMemento, point: TAffectPoint): TMemento {
  const points = [...memento.affect.points, point].slice(-MAX_AFFECT_POINTS);
  return { ...memento, affect: { points, rollup: affectRollup(points) } };
}

function clampLines(lines: readonly string[], max: number): string[] {
  return lines
    .map((l) => l.trim().slice(0, SHAPE_LIMITS.line))
    .filter((l) => l.length > 0)
    .slice(-max);
}

/** A proposed shape cut to the memento's bounds (oldest lines dropped first). */
export function boundShape(shape: TMementoShape): TMementoShape {
  return {
    arc: shape.arc.slice(0, SHAPE_LIMITS.arc),
    active: clampLines(shape.active, SHAPE_LIMITS.active),
    parked: clampLines(shape.parked, SHAPE_LIMITS.parked),
    decisions: clampLines(shape.decisions, SHAPE_LIMITS.decisions),
    next: clampLines(shape.next, SHAPE_LIMITS.next),
  };
}

/**
 * The summary after a turn (seed 000 "summary freeze"): the model's proposed shape when the
 * turn may update the summary, else the previous shape unchanged.
 */
export function nextShape(previous: TMementoShape, proposed: TMementoShape | null, mayUpdate: boolean): TMementoShape {
  return mayUpdate && proposed ? boundShape(proposed) : previous;
}
