import type { Ctx } from '../context.ts';
import { refTakenAt } from '../tickets/refs.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * R-B2 "a recent change" (issue 30 and 50, P-66): whether each ticket took each commit or branch
 * within `ATTACH_RECENT_DAYS`, in the order asked. Code's attach and the main session's `attach`
 * check both ask here, so a weeks-old hash wakes a finished ticket on neither path. One never
 * stamped (taken before stamps existed) is not recent.
 */
export async function takenRecently(
  ctx: Pick<Ctx, 'redis' | 'keys' | 'config' | 'now'>,
  pairs: [ticketId: string, refKey: string][],
): Promise<boolean[]> {
  const since = ctx.now() - ctx.config.ATTACH_RECENT_DAYS * DAY_MS;
  return (await refTakenAt(ctx, pairs)).map((at) => at !== undefined && at >= since);
}
