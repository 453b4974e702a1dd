import "server-only";
import { openControlPlane, type TControlPlane } from "@solserver/control-plane";
import { serverEnv } from "@/env";

// One control plane (and one SQLite connection) per server process. Kept on globalThis so that
// dev-mode hot reloads do not open a new connection on every edit.
const holder = globalThis as unknown as { solserverControlPlane?: Promise<TControlPlane> };

export function getControlPlane(): Promise<TControlPlane> {
  holder.solserverControlPlane ??= openControlPlane({ databaseUrl: serverEnv().DATABASE_URL }).then(
    (o) => o.controlPlane,
  );
  return holder.solserverControlPlane;
}
