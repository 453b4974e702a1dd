-- CreateTable
CREATE TABLE "ProposalCount" (
    "ownerKey" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "n" INTEGER NOT NULL,

    PRIMARY KEY ("ownerKey", "kind")
);

-- Backfill: the counts of the proposals already stored, by the owner of their thread ("" for a
-- thread without one) and kind (a pending twin apart from the pending leads), the same SQL as
-- recountProposals (packages/db/src/repositories/proposal-counts.ts). From here on every write
-- that changes a proposal's status keeps them, in its own transaction.
INSERT INTO "ProposalCount" ("ownerKey", "kind", "n")
SELECT COALESCE(t."ownerId", ''),
    CASE WHEN p."status" = 'pending' AND p."twinOfId" IS NOT NULL THEN 'twin' ELSE p."status" END,
    COUNT(*)
FROM "UmbraProposal" p JOIN "Thread" t ON t."id" = p."threadId"
GROUP BY COALESCE(t."ownerId", ''),
    CASE WHEN p."status" = 'pending' AND p."twinOfId" IS NOT NULL THEN 'twin' ELSE p."status" END;
