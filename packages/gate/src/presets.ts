// Built-in presets: threshold sets for three common kinds of assistant, the same three the
// original BreakPoint library ships (its values, in this gate's keys). A preset sits between the
// defaults and a config file: any key the config sets wins. A compression threshold above 100%
// never fires (an answer cannot shrink by more than 100%): those presets leave shorter answers
// to the short-ratio check.

import type { TGateConfigInput, TGatePresetName } from "@solserver/contracts";

export type TGatePreset = { description: string; config: TGateConfigInput };

export const PRESETS: Readonly<Record<TGatePresetName, TGatePreset>> = {
  chatbot: {
    description: "free-form conversation: lengths vary a lot, cost and latency may rise somewhat",
    config: {
      cost: { warn_increase_pct: 30, block_increase_pct: 50 },
      latency: { warn_increase_pct: 50, block_increase_pct: 100 },
      drift: {
        warn_expansion_pct: 120,
        block_expansion_pct: 140,
        warn_compression_pct: 120,
        block_compression_pct: 140,
        warn_short_ratio: 0.25,
        warn_similarity: 0.1,
      },
    },
  },
  extraction: {
    description: "structured extraction: the output's size and content must stay close to the baseline",
    config: {
      cost: { warn_increase_pct: 20, block_increase_pct: 35 },
      latency: { warn_increase_pct: 30, block_increase_pct: 60 },
      drift: {
        warn_expansion_pct: 30,
        block_expansion_pct: 70,
        warn_compression_pct: 30,
        block_compression_pct: 70,
        warn_short_ratio: 0.6,
        warn_similarity: 0.3,
      },
    },
  },
  support: {
    description: "customer support: answers may grow or shrink moderately, costs are watched",
    config: {
      cost: { warn_increase_pct: 25, block_increase_pct: 45 },
      latency: { warn_increase_pct: 40, block_increase_pct: 80 },
      drift: {
        warn_expansion_pct: 90,
        block_expansion_pct: 110,
        warn_compression_pct: 90,
        block_compression_pct: 110,
        warn_short_ratio: 0.3,
        warn_similarity: 0.12,
      },
    },
  },
};
