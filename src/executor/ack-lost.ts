import type { Ctx } from '../context.ts';
import { deliveryLost } from '../outbox/delivery-lost.ts';
import { ackCallOf } from '../tickets/acks.ts';

/** The outbox key of a `reply` call's message, by the call's idempotency key. */
export const replyKey = (callKey: string): string => `reply:${callKey}`;

type LostCtx = Pick<Ctx, 'redis' | 'keys' | 'queues'>;

/** Whether the acknowledgement a call queued was lost for good (R-C2: it no longer counts). */
export const ackLost = (ctx: LostCtx, callKey: string): Promise<boolean> =>
  deliveryLost(ctx, replyKey(callKey));

/** Whether the card was acknowledged by this ticket with a message that was not lost. */
export async function ackStands(ctx: LostCtx, ticketId: string, cardId: string): Promise<boolean> {
  const holder = await ackCallOf(ctx, ticketId, cardId);
  return holder !== undefined && !(await ackLost(ctx, holder));
}
