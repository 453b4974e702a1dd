-- CreateTable
CREATE TABLE "ResolveRule" (
    "id" TEXT NOT NULL,
    "rule" JSONB NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT false,
    "fittedOn" INTEGER NOT NULL,
    "checkedOn" INTEGER NOT NULL,
    "agreementBefore" DOUBLE PRECISION NOT NULL,
    "agreementAfter" DOUBLE PRECISION NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ResolveRule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ResolveRule_active_idx" ON "ResolveRule"("active");
