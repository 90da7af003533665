import type { Ctx } from '../context.ts';
import type { Senders } from '../outbox/worker.ts';
import { feishuSenderFor } from './feishu/sender.ts';
import { githubSenderFor } from './github/sender.ts';
import { localSender } from './local/sender.ts';

/** The outbox's senders for every channel that is on. */
export async function createSenders(ctx: Ctx): Promise<Senders> {
  return {
    local: localSender(ctx),
    ...(ctx.config.feishuEnabled ? { feishu: feishuSenderFor(ctx.config, ctx.log) } : {}),
    ...(ctx.config.githubEnabled ? { github: githubSenderFor(ctx.config, ctx.log) } : {}),
  };
}
