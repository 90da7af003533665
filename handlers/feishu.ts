import type { Context } from 'hono';
import type { Ctx } from '../src/context.ts';
import { HttpError } from '../src/errors/http-error.ts';

/** POST /webhooks/feishu — placeholder until the Feishu edge lands. */
export function feishuWebhook(_ctx: Ctx): (c: Context) => Promise<Response> {
  return async () => {
    throw new HttpError(503, 'channel_off', 'Feishu channel is not built yet');
  };
}
