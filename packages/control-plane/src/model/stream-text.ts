import { OUTPUT_LIMITS } from "@solserver/contracts";

// A streamed OutputEnvelope arrives as JSON text, piece by piece. This follows the pieces and
// reports `assistant_text` as it grows, piece by decoded piece, before the envelope is complete.
// The envelope itself is parsed and validated once it is whole, as for an answer that was not
// streamed, so this follower only has to find the string and decode it; it never judges.
//
// Linear in the text on purpose (a model server is untrusted and may send one character per
// chunk): every character is looked at once, a piece reports only what it added, and the
// follower stops at the closing quote or past OUTPUT_LIMITS.assistantText. A general incremental
// JSON parser that reports a partial string re-decodes the whole string on each chunk, which
// cost seconds on a long answer (issue 17).

export type TAssistantTextStream = { write(piece: string): void };

/** The key whose string value is followed. */
const KEY = "assistant_text";
/** A key's raw text longer than this cannot be KEY, however it is escaped (6 units per \uXXXX). */
const MAX_RAW_KEY = KEY.length * 6;

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

/** One-letter JSON escapes and what they stand for. */
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

type State =
  | "before" // before the envelope's "{" (a ``` fence some local models add)
  | "key?" // in the top-level object, where a key may start
  | "key" // inside a top-level key
  | "colon" // after a top-level key, before its ":"
  | "value?" // after the ":", before the value
  | "text" // inside the assistant_text string
  | "skip" // inside some other value (nested structure, another string, a number)
  | "done"; // assistant_text closed, the limit passed, or text that is not an envelope

/**
 * Feeds envelope JSON to `onPiece(piece)`: each call reports the characters of assistant_text that
 * the new JSON decoded (their concatenation is the text so far). JSON this follower cannot read
 * ends the stream quietly: the complete answer is judged on its own later, and a client then
 * simply sees it arrive at the end.
 */
export function assistantTextStream(onPiece: (piece: string) => void): TAssistantTextStream {
  let state: State = "before";
  /** Nesting depth inside the top-level object's values ("skip"), and whether inside a string. */
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** The raw text of the current top-level key (quotes excluded), while it could still be KEY. */
  let rawKey = "";
  let isTextKey = false;
  /** Inside assistant_text: a pending escape ("\\", "\\u", "\\u00", ...). */
  let pendingEscape = "";
  let length = 0;

  /** A top-level value ended at a "," or "}": the next key, or the end of the envelope. */
  const endValue = (c: number): void => {
    state = c === COMMA ? "key?" : "done";
  };

  return {
    write(chunk: string) {
      if (state === "done") return;
      let out = "";
      let runStart = -1; // start of a run of plain characters of assistant_text in this chunk
      const n = chunk.length;
      for (let i = 0; i < n && state !== "done"; i++) {
        const c = chunk.charCodeAt(i);
        switch (state) {
          case "before":
            if (c === OPEN_OBJECT) state = "key?";
            break;
          case "key?":
            if (c === QUOTE) {
              state = "key";
              rawKey = "";
              escaped = false;
            } else if (c === CLOSE_OBJECT) state = "done";
            else if (!isBlank(c) && c !== COMMA) state = "done";
            break;
          case "key":
            if (escaped) escaped = false;
            else if (c === BACKSLASH) escaped = true;
            else if (c === QUOTE) {
              isTextKey = rawKey.length <= MAX_RAW_KEY && decodedKey(rawKey) === KEY;
              state = "colon";
              break;
            }
            if (rawKey.length <= MAX_RAW_KEY) rawKey += chunk[i];
            break;
          case "colon":
            if (c === COLON) state = "value?";
            else if (!isBlank(c)) state = "done";
            break;
          case "value?":
            if (isBlank(c)) break;
            if (c === QUOTE && isTextKey) {
              state = "text";
              pendingEscape = "";
              runStart = i + 1;
              break;
            }
            // Another value (or assistant_text that is not a string): skip it whole.
            state = "skip";
            depth = 0;
            inString = false;
            escaped = false;
            i--; // look at this character again as part of the value
            break;
          case "skip":
            if (inString) {
              if (escaped) escaped = false;
              else if (c === BACKSLASH) escaped = true;
              else if (c === QUOTE) inString = false;
            } else if (c === QUOTE) inString = true;
            else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
            else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
              if (depth === 0) endValue(c);
              else depth--;
            } else if (c === COMMA && depth === 0) endValue(c);
            break;
          case "text": {
            if (pendingEscape === "" && c !== BACKSLASH && c !== QUOTE) {
              if (runStart === -1) runStart = i;
              break;
            }
            if (runStart !== -1) {
              out += chunk.slice(runStart, i);
              runStart = -1;
            }
            if (pendingEscape === "") {
              if (c === QUOTE) state = "done";
              else pendingEscape = "\\";
              break;
            }
            pendingEscape += chunk[i];
            if (pendingEscape.length === 2 && pendingEscape !== "\\u") {
              const decoded = ESCAPES[pendingEscape[1] as string];
              if (decoded === undefined)
                state = "done"; // not JSON: the final parse will say so
              else out += decoded;
              pendingEscape = "";
            } else if (pendingEscape.length === 6) {
              const code = Number.parseInt(pendingEscape.slice(2), 16);
              if (!/^[0-9a-fA-F]{4}$/.test(pendingEscape.slice(2))) state = "done";
              else out += String.fromCharCode(code);
              pendingEscape = "";
            }
            break;
          }
        }
      }
      if (state === "text" && runStart !== -1) out += chunk.slice(runStart);
      if (out === "") return;
      // Past the output limit the envelope is refused whatever follows: stop following (and
      // reporting) it, so a runaway answer costs no more than a long one.
      if (length + out.length > OUTPUT_LIMITS.assistantText) {
        state = "done";
        return;
      }
      length += out.length;
      onPiece(out);
    },
  };
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

/** A key's raw JSON text decoded ("assistant\\u005ftext" is assistant_text), or null if invalid. */
function decodedKey(raw: string): string | null {
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return null;
  }
}
