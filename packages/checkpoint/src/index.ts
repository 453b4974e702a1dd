// @solserver/checkpoint: the checkpoint flow (seed 003) as a pure library. A workflow definition
// (YAML) lists phases; after a phase, a checkpoint may pause the run for a human decision
// (continue, repeat a phase, skip phases, abort). Conditions are a small safe expression
// language, never JavaScript. The runner is a state machine over JSON state: the host runs the
// steps, shows the checkpoints, stores the state and passes the clock in.

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
export { CHECKPOINT_ERROR_CODES, CheckpointError, type TCheckpointErrorCode } from "./errors";
export { APPROVAL_OPTIONS, APPROVAL_PROMPT } from "./flow";
export { loadWorkflow, loadWorkflowOrThrow, MAX_DEFINITION_CHARS, type TLoadResult } from "./load";
export { BLOCKED_KEYS, type TJsonObject, type TJsonValue, toPlainData } from "./plain-data";
export {
  decide,
  MAX_FEEDBACK_CHARS,
  phaseCompleted,
  startRun,
  type TDecisionInput,
  type TNow,
  type TPhaseCompletedInput,
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
  ZRunState,
} from "./state";
export { parseTemplate, substitute, type TTemplatePart, templateVariables } from "./template";
export { UMBRA_BEAT_YAML } from "./umbra-beat";
export type { TWorkflowIssue } from "./validate";
