import { randomUUID } from "node:crypto";
import type { TRepetitionKind } from "@solserver/contracts";
import type { DbClient } from "../client";
import type { TSql, TSqlDriver } from "../sql";
import { rows, run, typed } from "../typed-sql";
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
  const [row] = await rows(
    sql,
    typed
      .selectFrom("Response as r")
      .innerJoin("Transmission as t", "t.id", "r.transmissionId")
      .select("t.routerDomain as routerDomain")
      .where("r.id", "=", responseId),
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
    const { responseId, cfbId, polarity, tag, comment } = w;
    await run(
      tx,
      typed.insertInto("HumanFeedback").values({ id, responseId, cfbId, polarity, tag, comment, createdAt: now }),
    );
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
