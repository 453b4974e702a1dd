// The subjects the turn benchmarks talk about (bench/turn.ts, bench/retention.ts): one per turn in
// rotation, so their CFBs, proposals and questions spread over a team's usual areas.
const TOPICS = [
  "billing",
  "search",
  "deploys",
  "alerts",
  "backups",
  "schemas",
  "queues",
  "caches",
  "tokens",
  "exports",
] as const;

/** The `i`-th turn's subject. */
export const pick = (i: number): string => TOPICS[i % TOPICS.length] as string;
