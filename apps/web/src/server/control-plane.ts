import "server-only";
import { openControlPlaneFromEnv, type TControlPlane } from "@solserver/control-plane";
import { serverEnv } from "@/env";

// One control plane (and one SQLite connection) per server process. Kept on globalThis so that
// dev-mode hot reloads do not open a new connection on every edit.
const holder = globalThis as unknown as { solserverControlPlane?: Promise<TControlPlane> };

export function getControlPlane(): Promise<TControlPlane> {
  holder.solserverControlPlane ??= openControlPlaneFromEnv(serverEnv()).then(
    (opened) => opened.controlPlane,
    (error: unknown) => {
      // Do not cache a failed open (missing folder, unmigrated file): the next request retries.
      holder.solserverControlPlane = undefined;
      throw error;
    },
  );
  return holder.solserverControlPlane;
}
