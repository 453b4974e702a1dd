// The context engine's public API (ADR 004): the catalog schema, the registry (data only), the
// engine (the single flow authority) and its state / directive contracts.
export {
  CATALOG_ID_PATTERN,
  DEFAULT_STEP_MINUTES,
  FINDING_PATTERN,
  parseCatalog,
  REPORT,
  type TAnswer,
  type TCatalog,
  type TConstraint,
  type TStep,
  type TSystem,
  ZCatalog,
} from "./catalog-schema";
export { consentOf, isPlainYes } from "./consent";
export { withExamples } from "./conversations";
export { optionsOf } from "./directive";
export { contextTurn, startContext } from "./engine";
export { classifyMessage, type TClassification } from "./intent";
export { fillTemplate, parseLanguagePack, type TLanguagePack, ZLanguagePack } from "./language-pack";
export { trainSystemReader } from "./learned-answers";
export { MAX_MESSAGE_CHARS_READ } from "./limits";
export { catalogLanguages, localSystem, matchingSystem } from "./localize";
export { MAX_ANALYSED_CHARS } from "./message-read";
export {
  buildStepContext,
  detectSystem,
  getConstraints,
  getProcedure,
  getStep,
  getSystem,
  type TStepContext,
  type TSystemMatch,
} from "./registry";
export { recordedAnswer } from "./report";
export { RV_SERVICE_CATALOG } from "./rv-catalog";
export {
  AUTHORIZATION_KEY,
  CONTEXT_MODES,
  CONTEXT_STATE_VERSION,
  CONTEXT_SUBMODES,
  ContextEngineError,
  DIRECTIVE_KINDS,
  EVENT_TYPES,
  INTENTS,
  MAX_NON_ANSWERS,
  MAX_REASKS,
  NOT_CHECKED_REASONS,
  parseContextState,
  type TContextEvent,
  type TContextEventType,
  type TContextEventValue,
  type TContextMode,
  type TContextState,
  type TContextSubmode,
  type TContextTurn,
  type TDirective,
  type TDirectiveKind,
  type TDirectiveRegistry,
  type TIntent,
  type TLabor,
  type TNotCheckedReason,
  type TReport,
  type TTopicKind,
  ZContextState,
  ZReport,
  ZReportTranslation,
} from "./state";
export { DEFAULT_LANGUAGE, detectLanguage, LANGUAGE_PACKS } from "./vocabulary";
