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
