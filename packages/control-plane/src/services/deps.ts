import type { TRepositories } from "@solserver/db";
import type { TModelProvider } from "../model/provider";

/** What every service is handed: no globals, so tests wire their own. */
export type TServiceDeps = {
  repos: TRepositories;
  model: TModelProvider;
  /** Wall clock for trace timestamps. */
  now: () => Date;
  /** Id for a thread a turn creates. */
  newThreadId: () => string;
};

/**
 * Who is acting. Until accounts land (issue 3) a request is either the local operator (the
 * server binds to 127.0.0.1) or anonymous; accounts add signed-in users and Jam editors.
 */
export type TActor = { kind: "local"; editor: "user" | "jam" } | { kind: "anonymous" };
