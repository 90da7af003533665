import type { Ctx } from '../../context.ts';
import { closeWorkspace } from './close-workspace.ts';
import { sweepCheckouts } from './sweep-checkouts.ts';

/**
 * Closes the workspace's folders to other users (issue 45, `closeWorkspace`), then runs the
 * workspace sweep in this worker process (issue 19): once at start-up — a worker back
 * from a crash finds what it left — and every `WORKSPACE_SWEEP_MS`. Not a queue job: BullMQ would
 * hand each tick to one worker, and each worker's disk is its own. A sweep still running when the
 * next is due is not doubled; `stop` waits for it.
 */
export function startCheckoutSweep(ctx: Ctx): { stop: () => Promise<void> } {
  // Issue 45: folders an older release left open to other users are closed before the first sweep.
  const closed = closeWorkspace(ctx).catch((err: unknown) =>
    ctx.log.warn({ err }, 'workspace folders could not be closed'),
  );
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= closed
      .then(() => sweepCheckouts(ctx))
      .then(() => {})
      .catch((err: unknown) => ctx.log.warn({ err }, 'workspace sweep failed'))
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, ctx.config.WORKSPACE_SWEEP_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
