// Token pricing for the cost policy when a record has token counts instead of `cost_usd`.
// The table holds public list prices (USD per 1,000 tokens, standard tier, no caching or batch
// discounts) at the time of writing; prices change, so config.cost.pricing merges over it and
// is the place to correct or add a model.

import type { TGateRecord, TModelPrice } from "@solserver/contracts";

function price(inputPer1M: number, outputPer1M: number): TModelPrice {
  // Written per 1M tokens (how providers publish them) and stored per 1k (how the seed computes).
  return Object.freeze({ input_per_1k: inputPer1M / 1000, output_per_1k: outputPer1M / 1000 });
}

export const DEFAULT_PRICING: Record<string, TModelPrice> = Object.freeze({
  "gpt-4.1": price(2, 8),
  "gpt-4.1-mini": price(0.4, 1.6),
  "gpt-4.1-nano": price(0.1, 0.4),
  "gpt-4o": price(2.5, 10),
  "gpt-4o-mini": price(0.15, 0.6),
  "gpt-5": price(1.25, 10),
  "gpt-5-mini": price(0.25, 2),
  "gpt-5-nano": price(0.05, 0.4),
  o3: price(2, 8),
  "o3-mini": price(1.1, 4.4),
  "o4-mini": price(1.1, 4.4),
});

/** The built-in table with config overrides on top (an override replaces a model's entry). */
export function mergePricing(overrides: Record<string, TModelPrice> | undefined): Record<string, TModelPrice> {
  return { ...DEFAULT_PRICING, ...(overrides ?? {}) };
}

/**
 * Finds a model's price: the exact name, then lower-cased, then without an OpenAI-style snapshot
 * date suffix (`gpt-4.1-mini-2025-04-14` -> `gpt-4.1-mini`). Own properties only, so a model
 * named "constructor" or "__proto__" cannot pick up Object.prototype members.
 */
export function findPrice(pricing: Record<string, TModelPrice>, model: string): TModelPrice | null {
  const names = [model, model.toLowerCase()];
  const undated = stripSnapshotDate(model.toLowerCase());
  if (undated !== null) names.push(undated);
  for (const name of names) {
    if (Object.hasOwn(pricing, name)) return pricing[name] ?? null;
  }
  return null;
}

function stripSnapshotDate(model: string): string | null {
  // "-YYYY-MM-DD" is 11 characters; checked by hand to keep this regex-free.
  const cut = model.length - 11;
  if (cut < 1) return null;
  const suffix = model.slice(cut);
  for (let i = 0; i < 11; i++) {
    const c = suffix.charCodeAt(i);
    const dash = i === 0 || i === 5 || i === 8;
    if (dash ? c !== 45 : c < 48 || c > 57) return null;
  }
  return model.slice(0, cut);
}

/**
 * A record's cost in USD, or null when it cannot be known:
 * 1. `cost_usd` when present;
 * 2. else, with a priced `model`, `tokens_in / 1000 * input_per_1k + tokens_out / 1000 * output_per_1k`
 *    when either count is present (a missing one counts as 0);
 * 3. else `tokens_total / 1000 * per_1k`, where `per_1k` defaults to the mean of the input and
 *    output prices (a blended rate: without the split, the midpoint is the least-biased guess).
 */
export function resolveCost(record: TGateRecord, pricing: Record<string, TModelPrice>): number | null {
  if (record.cost_usd !== undefined) return record.cost_usd;
  if (record.model === undefined) return null;
  const modelPrice = findPrice(pricing, record.model);
  if (modelPrice === null) return null;
  if (record.tokens_in !== undefined || record.tokens_out !== undefined) {
    const tokensIn = record.tokens_in ?? 0;
    const tokensOut = record.tokens_out ?? 0;
    return (tokensIn / 1000) * modelPrice.input_per_1k + (tokensOut / 1000) * modelPrice.output_per_1k;
  }
  if (record.tokens_total !== undefined) {
    const per1k = modelPrice.per_1k ?? (modelPrice.input_per_1k + modelPrice.output_per_1k) / 2;
    return (record.tokens_total / 1000) * per1k;
  }
  return null;
}
