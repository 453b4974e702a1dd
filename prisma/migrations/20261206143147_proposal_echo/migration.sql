-- AlterTable (a column with a default: no table rewrite, instant at any size)
ALTER TABLE "UmbraProposal" ADD COLUMN "echo" BOOLEAN NOT NULL DEFAULT false;
