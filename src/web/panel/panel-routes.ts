import { Hono } from 'hono';
import type { Ctx } from '../../context.ts';
import { CALLBACK_PATH, githubWebUrl } from '../../github-app/manifest.ts';
import { type Builtins, loadBuiltins } from '../../prompts/index.ts';
import { mainEnvironment } from '../../router/main/environment.ts';
import type { Runtime } from '../../runtime.ts';
import { storeHandle } from '../../store/store-handle.ts';
import { MAX_API_BYTES, readRawBody } from '../raw-body.ts';
import { feishuAppRoutes } from './feishu-app-routes.ts';
import { githubAppRoutes } from './github-app-routes.ts';
import { panelSessionOf, requireAdminOrPanel } from './panel-auth.ts';
import { previewDraft } from './panel-preview.ts';
import { csrfTokenOf } from './panel-session.ts';
import { queueBoardRoutes } from './queue-board/board-routes.ts';
import { signIn, signOut, signOutEverywhere } from './sign-in.ts';
import { serveAsset } from './static-assets.ts';

/**
 * The panel at `/panel` (issue 6): the one-page app as static files, sign-in and sign-out, and
 * the panel's own small API (its session's CSRF token, the prompt preview). Everything else the
 * page shows comes from `/api`, which accepts the panel's cookie (see `requireAdminOrPanel`).
 */
export function panelRoutes(ctx: Ctx): (app: Hono) => void {
  let builtins: Promise<Builtins> | undefined;
  const loaded = () => {
    builtins ??= loadBuiltins();
    return builtins;
  };
  const deps = async () => ({
    ...storeHandle(ctx),
    builtins: await loaded(),
    sizeCap: ctx.config.PROMPT_SIZE_CAP,
    now: ctx.now,
  });
  return (app) => {
    app.get('/panel', (c) => c.redirect('/panel/', 301));
    // The page may post the App manifest to GitHub (issue 16); GitHub sends the browser back to
    // the callback, which is the same page (it redeems the code with the session's cookie).
    const github = [githubWebUrl(ctx.config.GITHUB_API_URL)];
    app.get('/panel/', (c) => serveAsset(c, 'index.html', github));
    app.get(CALLBACK_PATH, (c) => serveAsset(c, 'index.html', github));
    app.get('/panel/assets/*', (c) => serveAsset(c, c.req.path.slice('/panel/assets/'.length)));
    app.post('/panel/sign-in', signIn(ctx));
    app.post('/panel/sign-out', signOut(ctx));
    app.post('/panel/sign-out-everywhere', signOutEverywhere(ctx));

    const api = new Hono();
    api.use('*', requireAdminOrPanel(ctx));
    api.get('/session', async (c) => {
      const token = ctx.config.ADMIN_TOKEN ?? '';
      const session = await panelSessionOf(c, ctx);
      // A bearer caller has no session and needs no CSRF token.
      return c.json(session ? { csrf: csrfTokenOf(token, session), expiresAt: session.expiresAt } : {});
    });
    api.post('/preview', async (c) => {
      // Capped before parsing (issue 14); a draft that is not JSON previews as empty.
      const raw = (await readRawBody(c, MAX_API_BYTES, 413)).toString('utf8');
      let body: unknown = {};
      try {
        body = JSON.parse(raw);
      } catch {}
      // mainEnvironment reads only the deployment's config (R-E8).
      const env = mainEnvironment({ ctx } as Runtime);
      return c.json(await previewDraft(await deps(), body, env));
    });
    githubAppRoutes(ctx)(api);
    feishuAppRoutes(ctx)(api);
    app.route('/panel/api', api);
    queueBoardRoutes(ctx)(app);
  };
}
