import { loadServerEnv, type TServerEnv } from "@solserver/control-plane";

let cached: TServerEnv | undefined;

/**
 * The server environment, parsed once per process by the control plane's zod schema (the same
 * one the scripts use). instrumentation-node.ts calls this at start-up, so a bad value stops the
 * server before it serves anything.
 */
export function serverEnv(): TServerEnv {
  cached ??= loadServerEnv();
  return cached;
}
