// `pnpm db:copy` (scripts/copy.ts): one Solserver database into another, empty one.
export { COPY_USAGE, parseCopyArgs } from "./args";
export { checkCopyUrls, copyDatabase, copyTable, type TCopyResult } from "./copy";
export { copySupportFor, tableShapes } from "./copy-support";
export { runtimeModels, type TCopyTable } from "./models";
export { copyOrder } from "./plan";
export { CopyRefusal } from "./refusal";
export { storedDate } from "./values";
