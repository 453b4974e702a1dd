// The tag aliases every deployment starts with: each tag with the other names a team writes for
// it. Only names with one meaning in a software team's knowledge base: a wrong alias would merge
// tags that mean different things ("ts" stays, it is as often a timestamp as TypeScript).
// SOLSERVER_TAG_ALIASES adds to this table or replaces it (docs/tags.md).
export const SHIPPED_TAG_ALIASES: Readonly<Record<string, readonly string[]>> = {
  postgresql: ["postgres", "pg", "psql"],
  kubernetes: ["k8s", "kube"],
  sqlite: ["sqlite3"],
  mongodb: ["mongo"],
  javascript: ["js"],
  github: ["gh"],
  mfa: ["2fa"],
  database: ["db"],
  production: ["prod"],
  staging: ["stg"],
  repository: ["repo"],
  configuration: ["config"],
  infrastructure: ["infra"],
  credentials: ["creds"],
  documentation: ["docs"],
};
