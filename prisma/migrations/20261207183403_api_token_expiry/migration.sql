-- AlterTable
ALTER TABLE "ApiToken" ADD COLUMN "expiresAt" DATETIME;
