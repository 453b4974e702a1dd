/**
 * fetch that gives up after `timeoutMs` (and still honours the caller's own signal): a server
 * that never answers (paused, overloaded) ends a pending call with an error a page can say
 * (trpc-errors.ts isTimedOut), instead of a button that spins forever.
 */
export function timedFetch(timeoutMs: number): typeof fetch {
  return async (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      return await fetch(input, {
        ...init,
        signal: AbortSignal.any([...(init?.signal ? [init.signal] : []), timeout]),
      });
    } finally {
      // AbortSignal.any holds its sources weakly, and the timer its signal too: without this
      // reference a garbage collection during the call (a busy server) dropped the timeout and
      // the call never ended.
      void timeout;
    }
  };
}
