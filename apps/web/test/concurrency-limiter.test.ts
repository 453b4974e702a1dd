// The load shedder's bound (src/server/concurrency-limiter.ts) on its own: slots up to the bound,
// a FIFO queue behind it, refusals when the queue is full or a wait runs out, and a released slot
// handed straight to the oldest waiter. The HTTP side is in load-shedding.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLimiter, ShedError, type TRelease } from "@/server/concurrency-limiter";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `p` has settled (resolved or rejected) by now, without waiting for it. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

async function refusal(p: Promise<unknown>): Promise<ShedError> {
  const error = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ShedError);
  return error as ShedError;
}

describe("the concurrency limiter", () => {
  it("grants slots up to the bound at once; the next caller waits until one is released", async () => {
    const limiter = createLimiter({ concurrency: 2, queue: 4, maxWaitMs: 1000 });
    const a = await limiter.acquire();
    await limiter.acquire();
    const third = limiter.acquire();
    expect(await settled(third)).toBe(false);
    expect(limiter.stats()).toEqual({ active: 2, queued: 1, shed: 0 });
    a();
    expect(await settled(third)).toBe(true);
    expect(limiter.stats()).toEqual({ active: 2, queued: 0, shed: 0 });
  });

  it("serves waiters first come, first served", async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 3, maxWaitMs: 1000 });
    const first = await limiter.acquire();
    const order: number[] = [];
    const waiting = [1, 2, 3].map((n) =>
      limiter.acquire().then((release) => {
        order.push(n);
        return release;
      }),
    );
    first();
    for (const w of waiting) {
      await vi.advanceTimersByTimeAsync(0);
      (await w)();
    }
    expect(order).toEqual([1, 2, 3]);
    expect(limiter.stats()).toEqual({ active: 0, queued: 0, shed: 0 });
  });

  it("refuses at once when the queue is full", async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 1, maxWaitMs: 1000 });
    await limiter.acquire();
    const queued = limiter.acquire();
    const error = await refusal(limiter.acquire());
    expect(error.reason).toBe("queue_full");
    expect(await settled(queued)).toBe(false);
    expect(limiter.stats()).toEqual({ active: 1, queued: 1, shed: 1 });
  });

  it("refuses a waiter whose wait runs out, and never grants it a slot afterwards", async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 2, maxWaitMs: 500 });
    const held = await limiter.acquire();
    const late = limiter.acquire();
    const caught = refusal(late);
    await vi.advanceTimersByTimeAsync(499);
    expect(await settled(late)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await caught).reason).toBe("wait_timeout");
    expect(limiter.stats()).toEqual({ active: 1, queued: 0, shed: 1 });
    held();
    expect(limiter.stats()).toEqual({ active: 0, queued: 0, shed: 1 });
  });

  it("a slot released twice is given back once", async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 2, maxWaitMs: 1000 });
    const release = await limiter.acquire();
    const next = limiter.acquire();
    const after = limiter.acquire();
    release();
    release();
    expect(await settled(next)).toBe(true);
    expect(await settled(after)).toBe(false);
    expect(limiter.stats().active).toBe(1);
  });

  it("a newcomer does not overtake a waiter", async () => {
    const limiter = createLimiter({ concurrency: 1, queue: 2, maxWaitMs: 1000 });
    const first = await limiter.acquire();
    const waiter = limiter.acquire();
    first();
    const newcomer = limiter.acquire();
    expect(await settled(waiter)).toBe(true);
    expect(await settled(newcomer)).toBe(false);
    ((await waiter) as TRelease)();
    expect(await settled(newcomer)).toBe(true);
  });

  it("hands a freed slot over on a later turn of the event loop, reserved meanwhile", async () => {
    const handOffs: (() => void)[] = [];
    const limiter = createLimiter({ concurrency: 1, queue: 2, maxWaitMs: 1000, handOff: (g) => handOffs.push(g) });
    const first = await limiter.acquire();
    const waiter = limiter.acquire();
    first();
    expect(handOffs).toHaveLength(1);
    expect(await settled(waiter)).toBe(false);
    // Reserved for the waiter: a newcomer queues behind it instead of taking the slot.
    const newcomer = limiter.acquire();
    expect(limiter.stats()).toEqual({ active: 1, queued: 1, shed: 0 });
    handOffs[0]?.();
    expect(await settled(waiter)).toBe(true);
    expect(await settled(newcomer)).toBe(false);
  });

  it("a bound of 0 is no bound", async () => {
    const limiter = createLimiter({ concurrency: 0, queue: 0, maxWaitMs: 1 });
    const releases = await Promise.all(Array.from({ length: 50 }, () => limiter.acquire()));
    expect(limiter.stats()).toEqual({ active: 50, queued: 0, shed: 0 });
    for (const r of releases) r();
    expect(limiter.stats().active).toBe(0);
  });
});
