import type { Context } from 'hono';
import type { Ctx } from '../src/context.ts';
import { HttpError } from '../src/errors/http-error.ts';

/** POST /webhooks/github — placeholder until the GitHub edge lands. */
export function githubWebhook(_ctx: Ctx): (c: Context) => Promise<Response> {
  return async () => {
    throw new HttpError(503, 'channel_off', 'GitHub channel is not built yet');
  };
}
