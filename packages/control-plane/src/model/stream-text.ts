import { OUTPUT_LIMITS } from "@solserver/contracts";
import { JSONParser } from "@streamparser/json";

// A streamed OutputEnvelope arrives as JSON text, piece by piece. This follows the pieces with an
// incremental JSON parser (linear in the text, nothing parsed twice) and reports the value of
// `assistant_text` as it grows, before the envelope is complete. The envelope itself is parsed
// and validated once it is whole, as for an answer that was not streamed.

export type TAssistantTextStream = { write(piece: string): void };

/**
 * Feeds envelope JSON to `onText(textSoFar)`. Text before the JSON (a ``` fence some local models
 * add) is skipped; JSON the parser cannot read ends the stream quietly: the complete answer is
 * judged on its own later, and a client then simply sees it arrive at the end.
 */
export function assistantTextStream(onText: (text: string) => void): TAssistantTextStream {
  // Partial values need partial tokens too: without them a string is only reported once closed.
  const parser = new JSONParser({
    paths: ["$.assistant_text"],
    emitPartialTokens: true,
    emitPartialValues: true,
    keepStack: false,
  });
  let last = "";
  let broken = false;
  parser.onValue = ({ value }) => {
    if (typeof value !== "string" || value === last || broken) return;
    // Past the output limit the envelope is refused whatever follows: stop following (and
    // reporting) it, so a runaway answer costs no more than a long one.
    if (value.length > OUTPUT_LIMITS.assistantText) {
      broken = true;
      return;
    }
    last = value;
    onText(value);
  };
  parser.onError = () => {};
  let started = false;
  return {
    write(piece: string) {
      if (broken) return;
      let text = piece;
      if (!started) {
        // Hold the start until the first "{": a fence line (```json) or blank lines go before it.
        // Only the new piece is searched: a long reply with no JSON costs linear time.
        const at = piece.indexOf("{");
        if (at < 0) return;
        started = true;
        text = piece.slice(at);
      }
      try {
        parser.write(text);
      } catch {
        broken = true;
      }
    },
  };
}
