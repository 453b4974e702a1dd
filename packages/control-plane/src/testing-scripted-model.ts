// Test support: a model provider that answers from a script and judges each attempt the way a
// real provider does (the turn's output gate and claim check decide; a refused attempt is
// recorded as blocked and the next one tried). For the pipeline's claim and routing tests.

import { type DomainError, isDomainError, type TOutputMeta } from "@solserver/contracts";
import { ModelAttemptsFailed, type TModelAttempt, type TModelInput, type TModelProvider } from "./model/provider";
import { testEnvelope } from "./testing";

/** What an attempt answers: the meta it sets (claim_map [] unless given) and its text. */
export type TScriptedMeta = Partial<TOutputMeta> & { text?: string };
/** What attempt `n` answers to `input`. */
export type TScript = (input: TModelInput, n: number) => TScriptedMeta;

/** The envelope of a scripted answer; `claim_map: undefined` in it means "no claim map at all". */
export function scriptedEnvelope(answer: TScriptedMeta = {}) {
  const { text = "Here is what I know.", ...meta } = answer;
  const envelope = testEnvelope(text, { claim_map: [], ...meta });
  if ("claim_map" in answer && answer.claim_map === undefined) delete (envelope.meta as Partial<TOutputMeta>).claim_map;
  return envelope;
}

/** A provider answering the script set by `answer()`, up to `maxAttempts` attempts a turn. */
export function scriptedProvider(name: string, maxAttempts = 3) {
  let script: TScript = () => ({});
  const inputs: TModelInput[] = [];
  const model: TModelProvider = {
    name,
    async generate(input, options = {}) {
      inputs.push(input);
      const tried: TModelAttempt[] = [];
      for (let n = 1; n <= maxAttempts; n++) {
        const output = { envelope: scriptedEnvelope(script(input, n)), tokensIn: 10, tokensOut: 5 };
        const attempt: TModelAttempt = {
          n,
          model: name,
          tokensIn: 10,
          tokensOut: 5,
          latencyMs: 1,
          outcome: "ok",
          reason: null,
        };
        const verdict = (await options.judge?.({ output, attempt })) ?? { deliver: true };
        if (verdict.deliver) return { ...output, attempts: [...tried, attempt] };
        tried.push({ ...attempt, outcome: "blocked", reason: verdict.reason });
      }
      throw new ModelAttemptsFailed("every attempt was refused", tried);
    },
  };
  return {
    model,
    /** The CFB ids injected into the latest turn. */
    lastInjected: () => (inputs.at(-1)?.cfbs ?? []).map((c) => c.cfb_id),
    answer(next: TScript | TScriptedMeta) {
      script = typeof next === "function" ? next : () => next;
    },
  };
}

/** The DomainError a turn fails with; throws (failing the test) when the turn answers instead. */
export async function turnFailure(turn: Promise<{ assistant_text: string }>): Promise<DomainError> {
  const error = await turn.then(
    (res) => {
      throw new Error(`expected the turn to fail, it answered ${res.assistant_text}`);
    },
    (e: unknown) => e,
  );
  if (!isDomainError(error)) throw error;
  return error;
}
