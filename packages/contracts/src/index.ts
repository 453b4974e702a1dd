export * from "./cfb";
export * from "./chat";
export * from "./errors";
export * from "./ids";
export * from "./output-envelope";
export * from "./promotion";
export * from "./proposals";
