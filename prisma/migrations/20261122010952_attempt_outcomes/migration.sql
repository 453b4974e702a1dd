-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_DeliveryAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "transmissionId" TEXT NOT NULL,
    "step" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "tokensIn" INTEGER,
    "tokensOut" INTEGER,
    "latencyMs" INTEGER,
    "outcome" TEXT NOT NULL DEFAULT 'ok',
    "reason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DeliveryAttempt_transmissionId_fkey" FOREIGN KEY ("transmissionId") REFERENCES "Transmission" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_DeliveryAttempt" ("createdAt", "id", "latencyMs", "model", "n", "step", "tokensIn", "tokensOut", "transmissionId") SELECT "createdAt", "id", "latencyMs", "model", "n", "step", "tokensIn", "tokensOut", "transmissionId" FROM "DeliveryAttempt";
DROP TABLE "DeliveryAttempt";
ALTER TABLE "new_DeliveryAttempt" RENAME TO "DeliveryAttempt";
CREATE UNIQUE INDEX "DeliveryAttempt_transmissionId_step_n_key" ON "DeliveryAttempt"("transmissionId", "step", "n");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
