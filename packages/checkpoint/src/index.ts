// @solserver/checkpoint: the checkpoint flow (seed 003) as a pure library. A workflow definition
// (YAML) lists phases; after a phase, a checkpoint may pause the run for a human decision
// (continue, repeat a phase, skip phases, abort). Conditions are a small safe expression
// language, never JavaScript. The runner is a state machine over JSON state: the host runs the
// steps, shows the checkpoints, stores the state and passes the clock in.

export {
  ASSIGNEE_ROLES,
  canDecide,
  type TAssigneeRole,
  type TAssignees,
  type TDecider,
} from "./assignees";
export { cancelRun, type TCancelInput } from "./cancel";
export type { TNow } from "./clock";
export {
  compileCondition,
  type TCompiledCondition,
  type TCompileResult,
  type TConditionError,
} from "./condition/compile";
export {
  evaluateCondition,
  type TConditionResult,
  type TConditionScope,
  type TEvaluateOptions,
} from "./condition/evaluate";
export {
  DEFAULT_MAX_STEPS,
  MAX_CONDITION_DEPTH,
  MAX_CONDITION_LENGTH,
  METHODS as CONDITION_METHODS,
  ROOTS as CONDITION_ROOTS,
  type TConditionNode,
} from "./condition/rules";
export { durationProblem, MAX_DURATION_MS, MIN_DURATION_MS, parseDuration } from "./duration";
export { CHECKPOINT_ERROR_CODES, CheckpointError, type TCheckpointErrorCode } from "./errors";
export {
  EXECUTOR_DEFAULTS,
  EXECUTOR_KINDS,
  executorKinds,
  MAX_WEBHOOK_RETRIES,
  QUEUE_NAME_PATTERN,
  secretEnvProblems,
  type TCommandExecutor,
  type TExecutor,
  type TExecutorKind,
  type TWebhookExecutor,
  type TWorkerExecutor,
  unsupportedExecutors,
  WEBHOOK_SECRET_PREFIX,
  ZExecutor,
} from "./executors";
export { expireDecision, type TExpireInput } from "./expire";
export { APPROVAL_OPTIONS, APPROVAL_PROMPT } from "./flow";
export { loadWorkflow, loadWorkflowOrThrow, MAX_DEFINITION_CHARS, type TLoadResult } from "./load";
export type { TNotify } from "./notify";
export { artifactPatternProblem, matchesArtifact, relativePathProblem } from "./paths";
export { BLOCKED_KEYS, type TJsonObject, type TJsonValue, toPlainData } from "./plain-data";
export {
  decide,
  MAX_ERROR_CHARS,
  MAX_FEEDBACK_CHARS,
  phaseCompleted,
  phaseFailed,
  startRun,
  type TDecisionInput,
  type TPhaseCompletedInput,
  type TPhaseFailedInput,
  type TStartOptions,
} from "./runner";
export {
  describeSchedule,
  nextOccurrence,
  SCHEDULE_CADENCES,
  scheduleProblems,
  TIME_OF_DAY_PATTERN,
  type TScheduleCadence,
  type TScheduleSpec,
  WEEKDAY_NAMES,
} from "./schedule";
export {
  CHECKPOINT_ACTIONS,
  DEFAULT_GAP_RETRIES,
  DEFAULT_MAX_ITERATIONS,
  PHASE_ID_PATTERN,
  type TCheckpoint,
  type TCheckpointAction,
  type TCheckpointOption,
  type TGapCheck,
  type TOnSelect,
  type TPhase,
  type TWorkflow,
  ZWorkflow,
} from "./schema";
export {
  parseRunState,
  RESERVED_CONTEXT_KEYS,
  RUN_STATE_VERSION,
  type TCheckpointRecord,
  type TLogEntry,
  type TNextStep,
  type TPendingCheckpoint,
  type TRunContext,
  type TRunState,
  type TRunStatus,
  type TStoredRunState,
  ZRunState,
} from "./state";
export { parseTemplate, substitute, type TTemplatePart, templateVariables } from "./template";
export { type TCheckpointTimeout, ZCheckpointTimeout } from "./timeouts";
export { UMBRA_BEAT_YAML } from "./umbra-beat";
export { webhookUrlProblem } from "./urls";
export type { TWorkflowIssue } from "./validate";
