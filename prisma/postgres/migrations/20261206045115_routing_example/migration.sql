-- CreateTable
CREATE TABLE "RoutingExample" (
    "id" TEXT NOT NULL,
    "domain" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sourceRef" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RoutingExample_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "RoutingExample_createdAt_idx" ON "RoutingExample"("createdAt");
