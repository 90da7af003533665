import type { Ctx } from '../context.ts';
import type { Senders } from '../outbox/worker.ts';
import { localSender } from './local/sender.ts';

/** The outbox's senders for every channel that is on. */
export async function createSenders(ctx: Ctx): Promise<Senders> {
  return { local: localSender(ctx) };
}
