import { AsyncLocalStorage } from 'node:async_hooks';
import type { Ctx } from '../context.ts';
import { FencedError } from './fenced-error.ts';
import { type FencedBuild, fencedWriterOf } from './fenced-writer.ts';

/** Why a fence's signal aborts: its owner lost the turn to a newer one. */
export const SUPERSEDED = 'superseded';

/**
 * Issue 46: what an owner of a fenced lease (`takeFencedLease`) carries to every effect it has —
 * the epoch key and its token. A write through `exec` lands only while the epoch still is the
 * token, compared in the same flush as its MULTI, under WATCH (`fenced-writer.ts`); `check` is
 * for an effect outside Redis (a push, a GitHub write), just before it. A refusal aborts `signal`
 * (reason `superseded`), so whatever the owner has under way stops, and throws `FencedError`.
 */
export interface Fence {
  epochKey: string;
  token: string;
  signal: AbortSignal;
  exec(build: FencedBuild): Promise<[Error | null, unknown][]>;
  /** True while the token is current; false (and `signal` aborted) once it is stale. */
  holds(): Promise<boolean>;
  /** Throws `FencedError` when the token is stale. */
  check(): Promise<void>;
  /** This owner has lost (its lease could not be renewed): abort `signal`. */
  lose(): void;
}

type FenceCtx = Pick<Ctx, 'redis' | 'keys' | 'queues'>;

export function createFence(ctx: FenceCtx, epochKey: string, token: string): Fence {
  const lost = new AbortController();
  const lose = () => {
    if (!lost.signal.aborted) lost.abort(SUPERSEDED);
  };
  const writer = () => fencedWriterOf(ctx.queues.outbox, ctx.redis);
  const fence: Fence = {
    epochKey,
    token,
    signal: lost.signal,
    lose,
    async exec(build) {
      try {
        return await writer().exec(epochKey, token, build);
      } catch (err) {
        if (err instanceof FencedError) lose();
        throw err;
      }
    },
    async holds() {
      if (lost.signal.aborted) return false;
      if ((await ctx.redis.get(epochKey)) === token) return true;
      lose();
      return false;
    },
    async check() {
      if (!(await fence.holds())) throw new FencedError(epochKey, token, await ctx.redis.get(epochKey));
    },
  };
  return fence;
}

const current = new AsyncLocalStorage<Fence>();

/**
 * Runs `fn` with `fence` as the fence of everything it starts (its async context): the outbox's
 * `enqueueEffect`, the transcript and GitHub writes read it with `currentFence`, so no effect of a
 * fenced turn — of any tool, now or added later — can leave it out.
 */
export function withFence<T>(fence: Fence, fn: () => Promise<T>): Promise<T> {
  return current.run(fence, fn);
}

/** The fence of the turn this code runs in, if it runs in one. */
export function currentFence(): Fence | undefined {
  return current.getStore();
}
