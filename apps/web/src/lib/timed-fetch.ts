/**
 * fetch that gives up after `timeoutMs` (and still honours the caller's own signal): a server
 * that never answers (paused, overloaded) ends a pending call with an error a page can say
 * (trpc-errors.ts isTimedOut), instead of a button that spins forever.
 */
export function timedFetch(timeoutMs: number): typeof fetch {
  return (input, init) =>
    fetch(input, {
      ...init,
      signal: AbortSignal.any([...(init?.signal ? [init.signal] : []), AbortSignal.timeout(timeoutMs)]),
    });
}
