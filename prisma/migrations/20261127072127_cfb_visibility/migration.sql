-- Visibility (issue 19): null is shared knowledge (every CFB written before this migration stays
-- shared); a user id makes the CFB private to that user's threads until a Jam editor endorses it.
-- Added in place (no table rewrite), so the FTS and change-log triggers on "Cfb" stay as they are:
-- a visibility change is written as a new version, which "Cfb_change_update" already logs.

-- AlterTable
ALTER TABLE "Cfb" ADD COLUMN "privateToId" TEXT;

-- CreateIndex
CREATE INDEX "Cfb_privateToId_idx" ON "Cfb"("privateToId");
