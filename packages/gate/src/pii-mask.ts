// Masking for PII policy details. Decisions are stored and shown in the dashboard, so a matched
// value is never kept in full: enough is left to find it in the output, not to reuse it.

import type { TPiiType } from "@solserver/contracts";
import { digitsOf } from "./pii-allowlist";

export function maskPii(type: TPiiType, value: string): string {
  if (type === "EMAIL") {
    const at = value.lastIndexOf("@");
    return `${value.slice(0, 1)}***${value.slice(at)}`; // j***@example.com
  }
  const last4 = digitsOf(value).slice(-4);
  if (type === "PHONE") return `***-***-${last4}`;
  if (type === "SSN") return `***-**-${last4}`; // the form SSA letters use
  return `****-****-****-${last4}`;
}
