import PgBoss from "pg-boss";
import type { TJobQueue, TJobQueueOptions } from "../../jobs/job-queue";
import type { TJobState, TJobView } from "../../repositories/jobs";

// The job queue on PostgreSQL: pg-boss (docs/operations.md says why this one), in its own schema
// `pgboss` that it creates and migrates on start. Each kind of job is a pg-boss queue of the
// `short` policy (one waiting job per key); a try is fetched with SKIP LOCKED, so one process
// runs it; pg-boss's maintenance fails a try past its expiry (its process died) and retries it.

const SCHEMA = "pgboss";
/** How often a worker looks for due jobs; a send from the same process is picked up then too. */
const POLL_SECONDS = 1;
/** How long finished jobs are kept, on both engines. */
const KEEP_DAYS = 14;
/** pg-boss's maintenance (expiry, archiving): one process at a time runs it, this often. */
const MAINTENANCE_SECONDS = 5;

type TRow = {
  id: string;
  name: string;
  state: TJobState;
  data: unknown;
  retry_count: number;
  retry_limit: number;
  output: { message?: string; value?: { message?: string } } | null;
  created_on: Date;
  start_after: Date;
  started_on: Date | null;
  completed_on: Date | null;
};

function viewOf(row: TRow): TJobView {
  const failed = row.state === "failed" || row.state === "retry" || (row.state === "active" && row.retry_count > 0);
  return {
    id: row.id,
    name: row.name,
    state: row.state,
    data: row.data,
    retryCount: row.retry_count,
    retryLimit: row.retry_limit,
    error: failed ? (row.output?.message ?? row.output?.value?.message ?? null) : null,
    output: row.state === "completed" ? row.output : null,
    createdAt: row.created_on,
    startAfter: row.start_after,
    startedAt: row.started_on,
    finishedAt: row.completed_on,
  };
}

/** pg-boss's ids are uuids: anything else names no job (and would be a type error in SQL). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const COLUMNS =
  "id, name, state::text AS state, data, retry_count, retry_limit, output, created_on, start_after, started_on, completed_on";

/** One pg-boss queue per kind of job, with its retry rules (updated when they changed). */
async function createQueues(boss: PgBoss, specs: TJobQueueOptions["specs"]): Promise<void> {
  for (const [name, spec] of Object.entries(specs)) {
    const queue = {
      name,
      policy: "short" as const,
      retryLimit: spec.retryLimit,
      retryDelay: Math.max(1, Math.round(spec.retryDelayMs / 1000)),
      retryBackoff: true,
      expireInSeconds: Math.max(1, Math.round(spec.expireMs / 1000)),
    };
    if (await boss.getQueue(name)) await boss.updateQueue(name, queue);
    else await boss.createQueue(name, queue);
  }
}

export async function pgBossQueue(databaseUrl: string, options: TJobQueueOptions): Promise<TJobQueue> {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: SCHEMA,
    application_name: "solserver-jobs",
    max: 4,
    maintenanceIntervalSeconds: MAINTENANCE_SECONDS,
    // (a failed job stays retryable, and every job listed, as long as on SQLite: 14 days)
    archiveFailedAfterSeconds: KEEP_DAYS * 86_400,
    deleteAfterDays: KEEP_DAYS,
    // (recurring jobs queue their next run themselves: control-plane jobs/jobs.ts)
    schedule: false,
  });
  boss.on("error", (error: Error) => options.onError?.(`jobs: ${error.message}`));
  try {
    await boss.start();
    await createQueues(boss, options.specs);
  } catch (error) {
    // (a failed start leaves pg-boss's pool open: a retried open would leak one per try)
    await boss.stop({ graceful: false, wait: true }).catch(() => {});
    throw error;
  }
  const db = boss.getDb();
  let stopped = false;

  return {
    engine: "pg-boss",
    async send(name, data, opts = {}) {
      if (stopped) throw new Error("the job queue is stopped");
      if (!options.specs[name]) throw new Error(`no job kind "${name}"`);
      return boss.send(name, data, {
        ...(opts.key ? { singletonKey: opts.key } : {}),
        ...(opts.startAfter ? { startAfter: opts.startAfter } : {}),
      });
    },
    async work(handlers) {
      for (const [name, handler] of Object.entries(handlers)) {
        if (!options.specs[name]) throw new Error(`no job kind "${name}"`);
        await boss.work(name, { pollingIntervalSeconds: POLL_SECONDS, batchSize: 1 }, async ([job]) => {
          // (pg-boss keeps what the handler returns as the job's output)
          return job ? handler({ id: job.id, data: job.data }) : undefined;
        });
      }
    },
    async list(filter) {
      const where = filter.state ? "WHERE jobs.state = $2" : "";
      const { rows } = await db.executeSql(
        `SELECT * FROM (SELECT ${COLUMNS} FROM ${SCHEMA}.job UNION ALL SELECT ${COLUMNS} FROM ${SCHEMA}.archive) AS jobs ${where} ORDER BY created_on DESC, id DESC LIMIT $1`,
        filter.state ? [filter.limit, filter.state] : [filter.limit],
      );
      return (rows as TRow[]).map(viewOf);
    },
    async get(id) {
      if (!UUID.test(id)) return null;
      const { rows } = await db.executeSql(
        `SELECT ${COLUMNS} FROM ${SCHEMA}.job WHERE id = $1 UNION ALL SELECT ${COLUMNS} FROM ${SCHEMA}.archive WHERE id = $1`,
        [id],
      );
      const row = rows[0] as TRow | undefined;
      return row ? viewOf(row) : null;
    },
    async retry(id) {
      if (!UUID.test(id)) return false;
      const { rows } = await db.executeSql(`SELECT name FROM ${SCHEMA}.job WHERE id = $1 AND state = 'failed'`, [id]);
      const name = (rows[0] as { name?: string } | undefined)?.name;
      if (!name) return false;
      await boss.retry(name, id);
      return true;
    },
    async stop() {
      stopped = true;
      await boss.stop({ graceful: true, wait: true });
    },
  };
}
