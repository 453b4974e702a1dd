// Loaded into the web server by bench/load.ts (NODE_OPTIONS=--import): how late the server's event
// loop runs a timer, the wait every probe and every queued request shares. Once a second, one JSON
// line per process is appended to $LOOP_LAG_FILE: the window's delay p50 / p99 / max in ms.
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const file = process.env.LOOP_LAG_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  setInterval(() => {
    const line = {
      pid: process.pid,
      at: Date.now(),
      p50: ms(delay.percentile(50)),
      p99: ms(delay.percentile(99)),
      max: ms(delay.max),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    delay.reset();
  }, 1000).unref();
}
