// First: how zod runs, before any schema below is built.
import "./zod-config";

export * from "./admin";
export * from "./cfb";
export * from "./cfb-activity";
export * from "./cfb-repair";
export * from "./chat";
export * from "./errors";
export * from "./feedback";
export * from "./gate";
export * from "./ids";
export * from "./memento";
export * from "./output-envelope";
export * from "./procedure";
export * from "./promotion";
export * from "./promotion-enums";
export * from "./proposal-actions";
export * from "./proposal-decided";
export * from "./proposals";
export * from "./request-limits";
export * from "./resolve";
export * from "./routing";
export * from "./schedules";
export * from "./system";
export * from "./tags";
export * from "./text";
export * from "./threads";
export * from "./workflows";
