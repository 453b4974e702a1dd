-- AlterTable
ALTER TABLE "UmbraProposal" ADD COLUMN     "echo" BOOLEAN NOT NULL DEFAULT false;
