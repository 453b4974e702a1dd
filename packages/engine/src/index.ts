export type { BreakpointDecision, BreakpointSignalKind } from "./breakpoint";
export {
  decideBreakpointAction,
  isAckOnlyMessage,
  shouldFreezeSummaryAtPeak,
} from "./breakpoint";
export * from "./context";
export {
  affectRollup,
  boundShape,
  emptyMemento,
  intensityBucket,
  MAX_AFFECT_POINTS,
  messageIntensity,
  nextShape,
  recordUserAffect,
  type TAffectPhase,
  type TAffectPoint,
  type TIntensityBucket,
  type TMemento,
  type TMementoShape,
  type TMementoSignalItem,
} from "./memento";
export { type TDomainProbability, type TRouterExample, type TRouterModel, trainRouter } from "./router/classifier";
export { buildRouter, domainExamples, routeTurn, type TRoute, type TRouteInput, type TRouter } from "./router/route";
