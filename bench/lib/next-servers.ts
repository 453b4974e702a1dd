// `next start` processes for the benchmarks that drive the production build over HTTP: start one
// on a port and wait until GET /readyz answers, stop it (SIGTERM, then SIGKILL if it lingers),
// and a check that the build exists. Every started process is tracked, so a benchmark's
// Ctrl-C / error path can stop whatever is still running (`stopAllServers`). bench/load.ts
// starts its one server the same way and could use this.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const WEB = path.join(ROOT, "apps/web");
const nextBin = () => createRequire(path.join(WEB, "package.json")).resolve("next/dist/bin/next");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const running = new Set<ChildProcess>();

/** Throws with the command to run when the production build (apps/web/.next) is missing. */
export function requireWebBuild(): void {
  if (!existsSync(path.join(WEB, ".next", "BUILD_ID")))
    throw new Error(
      "no production build in apps/web/.next: run `pnpm --filter @solserver/web build` first, then this benchmark again",
    );
}

/**
 * Source files of the web app and the packages changed since the build (generated code aside):
 * the server runs the build, not the sources, so these changes are not in the figures.
 */
export function sourcesNewerThanBuild(): string[] {
  const built = statSync(path.join(WEB, ".next", "BUILD_ID")).mtimeMs;
  const newer: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "generated") continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && statSync(file).mtimeMs > built) newer.push(path.relative(ROOT, file));
    }
  };
  const packages = path.join(ROOT, "packages");
  for (const dir of [path.join(WEB, "src"), ...readdirSync(packages).map((p) => path.join(packages, p, "src"))])
    if (existsSync(dir)) walk(dir);
  return newer;
}

/** A `next start` on 127.0.0.1:`port` with `env`, once its GET /readyz answers 200 (5 minutes at most: ready waits for the warm-up). */
export async function startNextServer(port: number, env: Record<string, string>): Promise<ChildProcess> {
  // Else another server's /readyz on the port would pass for this one's.
  if (await listening(port)) throw new Error(`port ${port} is in use: stop what listens there or pass another --port`);
  const server = spawn(process.execPath, [nextBin(), "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: WEB,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  running.add(server);
  server.once("exit", () => running.delete(server));
  const deadline = Date.now() + 300_000;
  try {
    for (;;) {
      if (server.exitCode !== null || server.signalCode !== null)
        throw new Error(`next start on port ${port} exited with ${server.exitCode ?? server.signalCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return server;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`next start on port ${port} did not become ready within 5 minutes`);
      await sleep(200);
    }
  } catch (error) {
    await stopServer(server);
    throw error;
  }
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** SIGTERM, and SIGKILL when the process has not exited after `graceMs`. */
export async function stopServer(server: ChildProcess, graceMs = 10_000): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  const timer = setTimeout(() => server.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => stopServer(server)));
}

/** For process.on("exit"), which cannot wait: SIGKILL whatever is still running. */
export function killAllServersNow(): void {
  for (const server of running) server.kill("SIGKILL");
}
