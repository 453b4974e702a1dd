/**
 * Tables created by hand-written SQL in the PostgreSQL migrations (the CFB search side table) or at
 * run time (the vector index): the schema engine's diffs must leave them alone.
 */
export const POSTGRES_EXTERNAL_TABLES = ["public.CfbSearch"] as const;
