import type { Ctx } from '../context.ts';
import type { StopReason } from '../session/turn-outcome.ts';
import { isPaused } from '../tickets/pause.ts';

/**
 * Issue 28 "pause means now": a signal aborted (reason `paused`, see `stopReasonOf`) as soon as the ticket is paused,
 * whichever process paused it — the pause key is read every `everyMs` while the turn runs, so a
 * command or model request under way stops within about that long instead of running to its end.
 * `stop` ends the watch when the turn does.
 */
export function watchPause(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'log'>,
  ticketId: string,
  everyMs: number,
): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController();
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    isPaused(ctx, ticketId)
      .then((paused) => {
        if (!paused) return;
        clearInterval(timer);
        controller.abort('paused' satisfies StopReason);
      })
      // The gates still check the pause before every step: a missed read only delays the stop.
      .catch((err: unknown) => ctx.log.warn({ err, ticketId }, 'could not read the pause'))
      .finally(() => {
        reading = false;
      });
  }, everyMs);
  timer.unref();
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}
