export {
  BASELINE_SUFFIX,
  CANDIDATE_SUFFIX,
  discoverPairs,
  pairsFromDirectory,
  pairsFromManifest,
  renderBatchText,
  runBatch,
  type TBatchPair,
  type TBatchReport,
  type TBatchResult,
  type TBatchStatus,
  topReasons,
} from "./batch";
export { evaluateFiles, type TEvaluateFilesInput } from "./evaluate-files";
export {
  describeExitCode,
  describeOutcome,
  EXIT,
  exitCodeForStatus,
  type TExitCode,
  type TFailOn,
  worseStatus,
} from "./exit-codes";
export { EXIT_CODES_HELP, main, processIo, type TIo, VERSION } from "./main";
export { formatForPath, InputError, readConfigFile, readDocument, readRecordFile, readTextFile } from "./read-input";
export { renderJson, type TJsonReport, toJsonReport } from "./report-json";
export { boxHeader, renderTextReport, STATUS_MARK, type TTextReportContext } from "./report-text";
