import { DomainError } from "@solserver/contracts";
import type { z } from "zod";

/** The parts of a zod (or Standard Schema) issue that error messages use. */
export type TIssueLike = {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  keys?: readonly string[];
};

/** One problem per field: an unknown key is reported under its own name, not the parent's. */
function flatten(issue: TIssueLike): { field: string; rule: string }[] {
  const base = issue.path.map(String);
  if (issue.code === "unrecognized_keys" && issue.keys && issue.keys.length > 0) {
    return issue.keys.map((key) => ({ field: [...base, key].join("."), rule: "is not a known field" }));
  }
  return [{ field: base.length > 0 ? base.join(".") : "(input)", rule: issue.message }];
}

/** "message: must not be empty; extra: is not a known field": each field with its rule. */
export function describeIssues(issues: readonly TIssueLike[]): string {
  return issues
    .flatMap(flatten)
    .map((p) => `${p.field}: ${p.rule}`)
    .join("; ");
}

/** The first field a list of issues is about, or null when it is about the input as a whole. */
export function firstIssueField(issues: readonly TIssueLike[]): string | null {
  const first = issues[0] ? flatten(issues[0])[0] : undefined;
  return first && first.field !== "(input)" ? first.field : null;
}

/** Parses untrusted input for transports that do not validate themselves (REST). */
export function parseInput<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw new DomainError("BAD_INPUT", describeIssues(result.error.issues), {
    field: firstIssueField(result.error.issues) ?? undefined,
    cause: result.error,
  });
}
