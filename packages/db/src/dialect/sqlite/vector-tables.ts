// The tables of semantic matching's vector index, created at run time rather than by a migration
// (the dimension is the embeddings model's): the sqlite-vec vec0 table, its shadow tables, and
// the row saying which model and dimension it holds. Schema diffs must leave them alone
// (scripts/schema-engine.ts lists them as external).
export const VECTOR_TABLES = [
  "CfbVec",
  "CfbVec_info",
  "CfbVec_chunks",
  "CfbVec_rowids",
  "CfbVec_vector_chunks00",
  "CfbVecState",
] as const;
