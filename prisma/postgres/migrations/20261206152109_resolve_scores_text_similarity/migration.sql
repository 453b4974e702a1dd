-- Resolve decisions stored before the candidate index (2026-11) name their text score "bm25_norm"
-- and lack "semantic_similarity" and "new_share": rewritten here to today's shape, so that no
-- reader keeps a shim for them. The pattern is a key: in JSON a string value is never followed by ":".
UPDATE "UmbraResolveDecision"
SET "scores" = replace("scores"::text, '"bm25_norm":', '"semantic_similarity":null,"new_share":0,"text_similarity":')::jsonb
WHERE "scores"::text LIKE '%"bm25_norm":%';
