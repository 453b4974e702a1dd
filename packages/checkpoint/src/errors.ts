// The one error the checkpoint package throws. Loading a definition never throws (it returns every
// problem), so this only reaches callers who misuse the runner or pass data that is not plain.

export const CHECKPOINT_ERROR_CODES = [
  "INVALID_DEFINITION", // loadWorkflowOrThrow: the YAML breaks a rule (issues lists every one)
  "INVALID_INPUT", // host input is not plain JSON data, names a reserved key, an unknown phase, …
  "INVALID_STATE", // the call does not fit the run's state (decide while running, wrong phase, …)
  "UNKNOWN_OPTION", // decide: no option with that label at the pending checkpoint
  "FEEDBACK_NOT_ALLOWED", // decide: feedback sent for an option without `with_feedback: true`
  "TEMPLATE", // substitute: malformed `{{…}}` or an unknown variable
] as const;
export type TCheckpointErrorCode = (typeof CHECKPOINT_ERROR_CODES)[number];

export class CheckpointError extends Error {
  readonly code: TCheckpointErrorCode;
  /** Every problem, `path: message`, for INVALID_DEFINITION; the message alone otherwise. */
  readonly issues: readonly string[];

  constructor(code: TCheckpointErrorCode, message: string, issues?: readonly string[]) {
    super(message);
    this.name = "CheckpointError";
    this.code = code;
    this.issues = issues ?? [message];
  }
}
