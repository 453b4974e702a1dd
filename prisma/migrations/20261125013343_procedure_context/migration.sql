-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "procedureBoundAt" DATETIME;
ALTER TABLE "Thread" ADD COLUMN "procedureSystemId" TEXT;

-- CreateTable
CREATE TABLE "ConversationContext" (
    "threadId" TEXT NOT NULL PRIMARY KEY,
    "systemId" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "state" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ConversationContext_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
