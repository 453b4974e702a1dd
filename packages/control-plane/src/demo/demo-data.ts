import type { TCfbDraft } from "@solserver/contracts";

// Demo knowledge and conversations: enough for a newcomer's first screen to show answers drawn
// from CFBs, unknowns, and pending proposals produced by the real turn pipeline.

const base = { kind: "authoritative", confidence: 0.9, text: null, trust_tier: "repo_adr" } as const;

export const DEMO_CFBS: TCfbDraft[] = [
  {
    ...base,
    domain: "solserver",
    title: "CFB lookup pipeline v0",
    summary:
      "CFBs are injected into prompts manifest-only by default; retrieval ranks blocks by full-text match plus tags and entities.",
    tags: ["CFB", "retrieval", "offline-first"],
    entities: ["SolServer", "SolMobile", "Umbra"],
    source_refs: ["file:ADR-018-search-v0.1.md"],
  },
  {
    ...base,
    domain: "solserver",
    title: "Umbra promotion loop",
    summary:
      "Model answers carry meta with cfb_suggestions; the server turns them into Umbra proposals that a person approves, edits or rejects in the dashboard.",
    tags: ["Umbra", "promotion", "review"],
    entities: ["SolServer", "Umbra"],
    source_refs: ["file:ADR-021-umbra.md"],
  },
  {
    ...base,
    domain: "solserver",
    title: "Resolve thresholds (4B)",
    summary:
      "Resolve scores a proposal against existing CFBs: above 0.75 update, 0.55 to 0.75 review, below 0.55 create; two close top scores suggest a merge.",
    tags: ["resolve", "thresholds", "Umbra"],
    entities: ["Umbra"],
    source_refs: ["file:ADR-022-resolve.md"],
  },
  {
    ...base,
    domain: "ops",
    kind: "heuristic",
    confidence: 0.7,
    title: "Deployment shape",
    summary:
      "The control plane runs as one Node process with an embedded SQLite database; PostgreSQL is used only when scaling out.",
    tags: ["deploy", "sqlite", "postgres"],
    entities: ["SolServer", "SQLite", "PostgreSQL"],
    source_refs: ["thread:demo-ops"],
  },
  {
    ...base,
    domain: "solserver",
    title: "Peak guardrail",
    summary:
      "During peak emotional intensity the thread summary is frozen unless the breakpoint decision for the turn is must.",
    tags: ["breakpoint", "guardrail", "memento"],
    entities: ["SolServer"],
    source_refs: ["file:breakpoint-engine.md"],
  },
];

/** Conversations replayed through the real turn pipeline, one thread each. */
export const DEMO_THREADS: { threadId: string; messages: string[]; procedure?: string }[] = [
  {
    threadId: "demo-search",
    messages: [
      "How are CFBs injected into prompts?",
      "We decided to use SQLite FTS5 with bm25 ranking for CFB retrieval.",
    ],
  },
  {
    threadId: "demo-ops",
    messages: [
      "From now on, every model release needs a passing breakpoint gate in CI.",
      "What is the monthly hosting cost?",
    ],
  },
  {
    threadId: "demo-team",
    messages: ["Remember that Jam editors review pending proposals every Monday morning."],
  },
  {
    // A finished guided diagnosis (procedure mode, seed 004): open it at /threads/demo-water-pump.
    threadId: "demo-water-pump",
    procedure: "water_pump",
    messages: [
      "Customer reports the water pump runs but only sputters, hardly any water at the kitchen faucet",
      "fuse is fine",
      "where do I measure the voltage?",
      "12.6 volts at the connector",
      "it runs but no water comes out, just sputters",
      "the tank is full",
      "the strainer is clogged with debris",
      "yes",
    ],
  },
];
