import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { FEISHU_CALLBACKS, FEISHU_EVENTS, FEISHU_SCOPES } from '../../channels/feishu/app-needs.ts';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { accountsUrlOf } from '../../feishu-app/accounts-url.ts';
import { advanceRegistration } from '../../feishu-app/advance-registration.ts';
import { loadCreatedFeishuApp } from '../../feishu-app/created-app.ts';
import { startRegistration } from '../../feishu-app/start-registration.ts';
import { readBody } from '../api/read-body.ts';
import { panelSessionOf } from './panel-auth.ts';

const StartRequest = z.object({
  /** Pre-filled on Feishu's page, where the person may still change it. */
  name: z
    .string()
    .trim()
    .min(1)
    .max(30)
    .regex(/^[\p{L}\p{N} ._-]+$/u, 'letters, digits, spaces, . _ -')
    .optional(),
});

const REGISTRATION_ID = /^[\w-]{24}$/;

/** The scan is a browser's: it is bound to a panel session, which a bearer caller lacks. */
async function sessionIdOf(c: Context, ctx: Ctx): Promise<string> {
  const session = await panelSessionOf(c, ctx);
  if (!session)
    throw new HttpError(
      403,
      'panel_session_required',
      'creating a Feishu app needs a signed-in panel session',
    );
  return session.id;
}

const unreachable = (message: string, extra: Record<string, unknown> = {}) =>
  new HttpError(
    503,
    'feishu_unreachable',
    `Feishu's accounts service could not be reached (${message})`,
    extra,
  );

/**
 * Issue 33 item 6, a Feishu app in one scan, under `/panel/api` (signed in; writes need the CSRF
 * token): what the app gets and the app made here before; a registration begun with the bot's
 * needs preset, shown as a QR code; and its polls, until the person confirms in Feishu — then the
 * app's id and secret are shown once as `.env` lines and never stored, as the GitHub App's are.
 */
export function feishuAppRoutes(ctx: Ctx): (api: Hono) => void {
  return (api) => {
    api.get('/feishu-app', async (c) =>
      c.json({
        needs: { scopes: FEISHU_SCOPES, events: FEISHU_EVENTS, callbacks: FEISHU_CALLBACKS },
        accountsUrl: accountsUrlOf(ctx.config.FEISHU_DOMAIN),
        appId: ctx.config.feishuEnabled ? (ctx.config.FEISHU_APP_ID ?? null) : null,
        eventMode: ctx.config.feishuEventMode,
        created: await loadCreatedFeishuApp(ctx),
      }),
    );
    api.post('/feishu-app/registrations', async (c) => {
      const body = await readBody(c, StartRequest);
      const started = await startRegistration(ctx, await sessionIdOf(c, ctx), body.name ?? 'Switchyard');
      if (started.kind === 'unreachable') throw unreachable(started.message);
      if (started.kind === 'refused')
        throw new HttpError(
          422,
          'feishu_refused',
          `Feishu refused to start: ${started.error}${started.description ? ` (${started.description})` : ''}`,
          { feishuError: started.error },
        );
      const { kind: _, ...view } = started;
      return c.json(view);
    });
    api.post('/feishu-app/registrations/:id/poll', async (c) => {
      const id = c.req.param('id');
      const sessionId = await sessionIdOf(c, ctx);
      const state = REGISTRATION_ID.test(id)
        ? await advanceRegistration(ctx, id, sessionId)
        : ({ status: 'unknown' } as const);
      if (state.status === 'unknown')
        throw new HttpError(
          404,
          'registration_unknown',
          'no such scan in this panel session: it ended or expired; make a new QR code',
        );
      if (state.status === 'unreachable')
        throw unreachable(state.message, { retryAfterMs: state.retryAfterMs });
      c.header('cache-control', 'no-store');
      return c.json(state);
    });
  };
}
