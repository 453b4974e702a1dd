// A concurrency bound with a short FIFO queue, for load shedding (load-shedding.ts). Plain data
// and timers, no Next and no server: the unit tests drive it directly.

export type TLimiterOptions = {
  /** Holders at once; 0 means no bound (every acquire succeeds at once). */
  concurrency: number;
  /** Waiters at most; one more is refused at once. */
  queue: number;
  /** Longest a waiter waits for a slot before it is refused. */
  maxWaitMs: number;
  /**
   * How a freed slot reaches its waiter (default: setImmediate). Handing it over at once would run
   * the waiter's work in the same turn of the event loop as the work that just ended; SQLite work
   * is synchronous, so a busy queue would then keep new connections (health probes) waiting.
   */
  handOff?: (grant: () => void) => void;
};

/** Why an acquire was refused: the queue was full, or the wait ran out. */
export type TShedReason = "queue_full" | "wait_timeout";

export class ShedError extends Error {
  readonly reason: TShedReason;
  constructor(reason: TShedReason) {
    super(reason === "queue_full" ? "queue full" : "waited too long for a slot");
    this.name = "ShedError";
    this.reason = reason;
  }
}

/** Gives back a slot; calling it again does nothing. */
export type TRelease = () => void;

export type TLimiter = {
  /** A slot now, or once one is free (first come, first served); rejects with ShedError. */
  acquire(): Promise<TRelease>;
  /** Holders and waiters right now. */
  stats(): { active: number; queued: number; shed: number };
};

type TWaiter = { grant: (release: TRelease) => void; timer: ReturnType<typeof setTimeout> };

export function createLimiter(options: TLimiterOptions): TLimiter {
  let active = 0;
  let shed = 0;
  const waiters: TWaiter[] = [];
  const handOff = options.handOff ?? ((grant: () => void) => void setImmediate(grant));

  const slot = (): TRelease => {
    active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      active--;
      // The slot goes to the oldest waiter, reserved now so that no newcomer can overtake it,
      // granted once the event loop has seen to its pending I/O.
      const next = waiters.shift();
      if (next) {
        clearTimeout(next.timer);
        const release = slot();
        handOff(() => next.grant(release));
      }
    };
  };

  return {
    acquire() {
      if (options.concurrency === 0 || (active < options.concurrency && waiters.length === 0)) {
        return Promise.resolve(slot());
      }
      if (waiters.length >= options.queue) {
        shed++;
        return Promise.reject(new ShedError("queue_full"));
      }
      return new Promise<TRelease>((resolve, reject) => {
        const waiter: TWaiter = {
          grant: resolve,
          timer: setTimeout(() => {
            const at = waiters.indexOf(waiter);
            if (at >= 0) waiters.splice(at, 1);
            shed++;
            reject(new ShedError("wait_timeout"));
          }, options.maxWaitMs),
        };
        waiters.push(waiter);
      });
    },
    stats: () => ({ active, queued: waiters.length, shed }),
  };
}
