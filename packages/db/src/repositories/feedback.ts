import { randomUUID } from "node:crypto";
import type { TRepetitionKind } from "@solserver/contracts";
import type { DbClient } from "../client";
import { Prisma } from "../generated/prisma/client";
import type { TSql, TSqlDriver } from "../sql";
import { countFeedback } from "./cfb-stats";
import { countRepetitions } from "./repetitions";
import type { TStore } from "./store";

export type TFeedbackWrite = {
  responseId: string;
  cfbId: string | null;
  polarity: string;
  tag: string | null;
  comment: string | null;
  /** The router domain of the answer, for the (domain, tag) repetition counter. */
  routerDomain: string;
  thresholds: Record<TRepetitionKind, number>;
};

/** The router domain a response was routed to, or null when it does not exist. */
async function responseDomain(sql: TSql, responseId: string): Promise<string | null> {
  const [row] = await sql.query<{ routerDomain: string }>(
    Prisma.sql`SELECT t."routerDomain" AS "routerDomain" FROM "Response" r
      JOIN "Transmission" t ON t."id" = r."transmissionId" WHERE r."id" = ${responseId}`,
  );
  return row?.routerDomain ?? null;
}

/** Stores feedback and counts its tag, in one transaction; says whether a trigger was raised. */
async function recordFeedback(
  driver: TSqlDriver,
  w: TFeedbackWrite,
): Promise<{ feedbackId: string; triggerRaised: boolean }> {
  return driver.transaction(async (tx) => {
    const id = randomUUID();
    const now = new Date();
    await tx.execute(Prisma.sql`INSERT INTO "HumanFeedback" ("id", "responseId", "cfbId", "polarity", "tag", "comment", "createdAt")
      VALUES (${id}, ${w.responseId}, ${w.cfbId}, ${w.polarity}, ${w.tag}, ${w.comment}, ${now})`);
    if (w.cfbId) await countFeedback(tx, w.cfbId, w.polarity, now);
    const crossed = w.tag
      ? await countRepetitions(
          tx,
          [{ kind: "feedback_tag", routerDomain: w.routerDomain, key: w.tag.toLowerCase(), label: w.tag }],
          w.thresholds,
          now,
        )
      : [];
    return { feedbackId: id, triggerRaised: crossed.length > 0 };
  });
}

async function feedbackCount(db: DbClient, responseId: string): Promise<number> {
  return db.humanFeedback.count({ where: { responseId } });
}

export function feedbackRepository({ prisma, sql }: TStore) {
  return {
    record: (w: TFeedbackWrite) => recordFeedback(sql, w),
    responseDomain: (responseId: string) => responseDomain(sql, responseId),
    count: (responseId: string) => feedbackCount(prisma, responseId),
  };
}
