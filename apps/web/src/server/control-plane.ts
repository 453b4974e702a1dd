import "server-only";
import { openControlPlaneFromEnv, type TAuth, type TServiceDeps } from "@solserver/control-plane";
import { serverEnv } from "@/server/server-env";

export type TServer = { deps: TServiceDeps; auth: TAuth };

// One set of service dependencies, one auth instance and one SQLite connection per server process. Kept on
// globalThis so that dev-mode hot reloads do not open a new connection on every edit.
const holder = globalThis as unknown as { solserver?: Promise<TServer> };

export function getServer(): Promise<TServer> {
  holder.solserver ??= openControlPlaneFromEnv(serverEnv(), { jobs: true }).then(
    ({ deps, auth }) => {
      if (!auth) throw new Error("auth is not configured");
      return { deps, auth };
    },
    (error: unknown) => {
      // Do not cache a failed open (missing folder, unmigrated file): the next request retries.
      holder.solserver = undefined;
      throw error;
    },
  );
  return holder.solserver;
}
