import type { TCfbCard } from "@solserver/contracts";

// The model provider port: everything the control plane needs from a model. One call per turn;
// the answer is an untrusted OutputEnvelope that the caller validates before storing anything.

export type TModelCfb = TCfbCard;

export type TModelInput = {
  message: string;
  history: { role: "user" | "assistant"; content: string }[];
  /** The CFBs injected into this turn, best first. */
  cfbs: TModelCfb[];
};

export type TModelOutput = {
  /** The raw envelope as the model produced it: validated by the caller. */
  envelope: unknown;
  tokensIn: number | null;
  tokensOut: number | null;
};

export type TModelProvider = {
  /** Recorded on every DeliveryAttempt, e.g. "offline-heuristic-v1". */
  readonly name: string;
  generate(input: TModelInput): Promise<TModelOutput>;
};
