-- CreateIndex
CREATE INDEX "CfbEmbedding_model_dims_createdAt_cfbId_idx" ON "CfbEmbedding"("model", "dims", "createdAt", "cfbId");
