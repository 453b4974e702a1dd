// Validation of the two compared records (the seed's JSON files) against contracts' ZGateRecord.

import { type TGateRecord, ZGateRecord } from "@solserver/contracts";
import { GateInputError } from "./errors";

/** Parses one side; `side` is "baseline" or "candidate" and prefixes the field of any error. */
export function parseGateRecord(side: string, raw: unknown): TGateRecord {
  const parsed = ZGateRecord.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue ? issue.path.map(String).join(".") : "";
  throw new GateInputError(path ? `${side}.${path}` : side, issue?.message ?? "invalid record");
}
