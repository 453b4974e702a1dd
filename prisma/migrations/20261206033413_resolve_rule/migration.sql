-- CreateTable
CREATE TABLE "ResolveRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rule" JSONB NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT false,
    "fittedOn" INTEGER NOT NULL,
    "checkedOn" INTEGER NOT NULL,
    "agreementBefore" REAL NOT NULL,
    "agreementAfter" REAL NOT NULL,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "ResolveRule_active_idx" ON "ResolveRule"("active");
