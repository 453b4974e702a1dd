// `pnpm db:copy` (scripts/copy.ts): one Solserver database into another, empty one.
export { COPY_USAGE, parseCopyArgs, type TCopyArgs } from "./args";
export { checkCopyUrls, copyDatabase, copyTable, type TCopyOptions, type TCopyResult } from "./copy";
export { copySupportFor, type TCopySupport, type TForeignKey, type TTableShape, tableShapes } from "./copy-support";
export { copyTables, DERIVED_MODELS, runtimeModels, type TColumnType, type TCopyTable } from "./models";
export { copyOrder, type TCopyStep } from "./plan";
export { CopyRefusal } from "./refusal";
export { boundValue, storedDate } from "./values";
