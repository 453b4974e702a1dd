-- AlterTable
ALTER TABLE "User" ADD COLUMN     "disabledAt" TIMESTAMPTZ(3);
