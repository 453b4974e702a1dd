import "server-only";
import { DomainError, inputTextProblem } from "@solserver/contracts";

/**
 * Refuses request data holding a lone surrogate anywhere (a key or a value), or nested too deep,
 * naming where: checked once per transport (REST body, tRPC input) before any schema, so no
 * string field can store one as U+FFFD and no body can exhaust the stack.
 */
export function refuseBadInputText(data: unknown): void {
  const problem = inputTextProblem(data);
  if (problem) throw new DomainError("BAD_INPUT", `${problem.path}: ${problem.rule}`, { field: problem.path });
}
