import { z } from "zod";

// Human-readable ids, as the seed shows them (CFB-0187, UP-771, R-009 ...).
// One helper so every id family validates the same way and names itself in errors.
function prefixedId(prefix: string, label: string) {
  return z
    .string()
    .trim()
    .regex(new RegExp(`^${prefix}-\\d{1,12}$`), { error: `must be a ${label} id like ${prefix}-0001` });
}

export const ZCfbId = prefixedId("CFB", "CFB");
export const ZProposalId = prefixedId("UP", "proposal");
export const ZPacketId = prefixedId("P", "packet");
export const ZTransmissionId = prefixedId("T", "transmission");
export const ZAttemptId = prefixedId("A", "attempt");
export const ZResponseId = prefixedId("R", "response");
export const ZPromotionId = prefixedId("PE", "promotion");

// Thread ids are opaque (clients may supply their own), but bounded and URL-safe.
export const ZThreadId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "must be 1-64 characters of A-Z, a-z, 0-9, _ or -" });

// Idempotency key for a chat turn: any client-chosen token, bounded.
export const ZRequestId = z
  .string()
  .trim()
  .min(1, { error: "must not be empty" })
  .max(128, { error: "must be at most 128 characters" })
  .regex(/^[\x21-\x7e]+$/, { error: "must be printable ASCII without spaces" });

export const ZIsoDate = z.iso.datetime({ offset: true });

const NUMBERED_ID = /^([A-Za-z]+)-(\d+)$/;

/**
 * Ids in numeric order: CFB-9999 before CFB-10000 (as text, "CFB-10000" < "CFB-9999"). Ids of one
 * family compare by their number (leading zeros ignored), anything else as plain text; a total
 * order, so sorting with it is deterministic.
 */
export function compareIds(a: string, b: string): number {
  const ma = NUMBERED_ID.exec(a);
  const mb = NUMBERED_ID.exec(b);
  if (ma && mb && ma[1] === mb[1]) {
    const na = (ma[2] as string).replace(/^0+(?=\d)/, "");
    const nb = (mb[2] as string).replace(/^0+(?=\d)/, "");
    if (na.length !== nb.length) return na.length - nb.length;
    if (na !== nb) return na < nb ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
