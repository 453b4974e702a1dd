// Whether an error means the database could not be reached (stopped, restarting, the network
// gone), as opposed to a query that failed: transports then answer 503 with Retry-After instead
// of a masked 500 (issue 38). Read from Prisma's connection error codes, the driver adapter's
// kind, and the socket and PostgreSQL codes along the cause chain.

/** Prisma: can't reach, timed out, closed the connection, pool timeout. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);
/** Sockets, and PostgreSQL's connection and shutdown classes (08xxx, 57P0x). */
const DRIVER_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"]);
const PG_CODE = /^(08\d{3}|57P0[1-3])$/;

export function isDatabaseUnreachable(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = error; e && typeof e === "object" && !seen.has(e); ) {
    seen.add(e);
    const { code, meta, cause } = e as {
      code?: unknown;
      meta?: { driverAdapterError?: { cause?: { kind?: unknown } } };
      cause?: unknown;
    };
    if (typeof code === "string" && (PRISMA_CODES.has(code) || DRIVER_CODES.has(code) || PG_CODE.test(code)))
      return true;
    if (meta?.driverAdapterError?.cause?.kind === "DatabaseNotReachable") return true;
    if (/Connection terminated|connect ECONNREFUSED|Can't reach database server/i.test(String((e as Error).message)))
      return true;
    e = cause;
  }
  return false;
}
