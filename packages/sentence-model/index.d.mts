/** The model's id as stored with each vector (a new model re-embeds every CFB). */
export const MODEL: string;
/** The vectors' dimension. */
export const DIMS: number;
/** Texts longer than this many characters are cut at the last space before it: stored knowledge, and a turn's text. */
export const MAX_CHARS: { readonly background: number; readonly interactive: number };

/** The text as the model reads it: cut to `max` (interactive by default) at a word boundary, lone surrogates replaced. */
export function modelText(text: string, max?: number): string;

export type TSentenceModel = {
  readonly model: string;
  readonly dims: number;
  /** Settles when the weights are loaded (rejects with the reason when they cannot be). */
  readonly ready: Promise<void>;
  /**
   * One unit vector per text, in order. `background` work (backfills) yields to interactive work
   * (a turn's message): it goes to the worker in slices of 4 texts, the worker takes the next
   * interactive request first, and after one waits 250 ms (at most 1 s) for the turn's next text.
   */
  embed(texts: readonly string[], opts?: { background?: boolean }): Promise<Float32Array[]>;
  close(): Promise<void>;
};

/** Starts the worker thread and loads the weights from the installed package (never the network). */
export function openSentenceModel(): TSentenceModel;
