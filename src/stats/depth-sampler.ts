import type { Ctx } from '../context.ts';
import { currentDepth, recordDepthSample } from './queue-depth.ts';

/**
 * Samples every queue's depth once a minute into the rolling history the queue-depth chart shows
 * (issue 17). Web processes run it; the history keeps one sample a minute however many do.
 */
export function startDepthSampler(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'queues' | 'now' | 'log'>,
  everyMs = 60_000,
): { stop: () => Promise<void> } {
  const sample = async () => {
    try {
      await recordDepthSample(ctx, await currentDepth(ctx));
    } catch (err) {
      ctx.log.warn({ err }, 'queue depth sample failed');
    }
  };
  void sample();
  const timer = setInterval(() => void sample(), everyMs);
  timer.unref();
  return { stop: async () => clearInterval(timer) };
}
