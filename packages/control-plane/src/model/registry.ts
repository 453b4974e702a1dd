import type { TServerEnv } from "../env";
import { createOfflineModel } from "./offline-model";
import { createOpenAICompatibleModel } from "./openai-compatible";
import type { TModelProvider } from "./provider";

/** The provider settings of the environment (docs/model-providers.md). */
export type TModelConfig = Pick<
  TServerEnv,
  | "OPENAI_BASE_URL"
  | "OPENAI_API_KEY"
  | "SOLSERVER_OPENAI_MODEL"
  | "SOLSERVER_MODEL_TIMEOUT_MS"
  | "SOLSERVER_MODEL_MAX_ATTEMPTS"
  | "SOLSERVER_OFFLINE_STREAM_DELAY_MS"
>;

/** The provider named by SOLSERVER_MODEL; `config` is required for every provider but "offline". */
export function createModel(name: TServerEnv["SOLSERVER_MODEL"], config?: TModelConfig): TModelProvider {
  switch (name) {
    case "offline":
      return createOfflineModel({ streamChunkDelayMs: config?.SOLSERVER_OFFLINE_STREAM_DELAY_MS ?? 0 });
    case "openai": {
      // loadServerEnv already refuses openai without these; this guards direct callers.
      if (!config?.OPENAI_API_KEY || !config.SOLSERVER_OPENAI_MODEL) {
        throw new Error("SOLSERVER_MODEL=openai needs OPENAI_API_KEY and SOLSERVER_OPENAI_MODEL");
      }
      return createOpenAICompatibleModel({
        baseURL: config.OPENAI_BASE_URL,
        apiKey: config.OPENAI_API_KEY,
        model: config.SOLSERVER_OPENAI_MODEL,
        timeoutMs: config.SOLSERVER_MODEL_TIMEOUT_MS,
        maxAttempts: config.SOLSERVER_MODEL_MAX_ATTEMPTS,
      });
    }
  }
}
