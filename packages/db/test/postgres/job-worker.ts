// A process working jobs for job-kill.test.ts: `hang` starts the job and never finishes it (it is
// killed), `run` finishes it. Each writes what it does to the log file, one line per step.
import { appendFileSync } from "node:fs";
import { createJobQueue, createPrismaClient } from "../../src";
import { KILL_TEST_SPECS } from "./job-kill-specs";

const [url, mode, log] = process.argv.slice(2) as [string, "hang" | "run", string];
const db = await createPrismaClient(url);
const queue = await createJobQueue(db, url, { specs: KILL_TEST_SPECS });
await queue.work({
  "kill-test": async (job) => {
    appendFileSync(log, `${mode} start ${job.id}\n`);
    if (mode === "hang") await new Promise(() => {});
    appendFileSync(log, `${mode} done ${job.id}\n`);
  },
});
process.send?.("working");
setInterval(() => {}, 1 << 30);
