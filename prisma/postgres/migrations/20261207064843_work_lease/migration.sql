-- CreateTable
CREATE TABLE "WorkLease" (
    "name" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WorkLease_pkey" PRIMARY KEY ("name")
);
