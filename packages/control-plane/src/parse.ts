import { DomainError } from "@solserver/contracts";
import type { z } from "zod";

/** "message: must not be empty; request_id: ..." from a zod error, naming each field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(input)"}: ${issue.message}`)
    .join("; ");
}

/** Parses untrusted input for transports that do not validate themselves (REST). */
export function parseInput<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw new DomainError("BAD_INPUT", describeIssues(result.error), {
    field: first && first.path.length > 0 ? first.path.join(".") : undefined,
    cause: result.error,
  });
}
