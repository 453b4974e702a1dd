export type { BreakpointDecision, BreakpointSignalKind } from "./breakpoint";
export {
  decideBreakpointAction,
  isAckOnlyMessage,
  MUST_SIGNAL_KINDS,
  SHOULD_SIGNAL_KINDS,
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
export {
  ROUTE_WEIGHTS,
  routeTurn,
  type TDomainScore,
  type TRoute,
  type TRouteInput,
  type TRoutingConfig,
  type TRoutingDomain,
} from "./router/route";
