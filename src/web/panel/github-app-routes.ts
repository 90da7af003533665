import type { Context, Hono } from 'hono';
import { z } from 'zod';
import { APP_NEEDS } from '../../channels/github/app-needs.ts';
import type { Ctx } from '../../context.ts';
import { HttpError } from '../../errors/http-error.ts';
import { convertManifest, envBlock } from '../../github-app/convert-manifest.ts';
import { loadCreatedApp, saveCreatedApp } from '../../github-app/created-app.ts';
import { buildManifest, githubWebUrl, newAppUrl } from '../../github-app/manifest.ts';
import { issueManifestState, redeemManifestState } from '../../github-app/manifest-state.ts';
import { readBody } from '../api/read-body.ts';
import { panelSessionOf } from './panel-auth.ts';

const PublicUrl = z
  .string()
  .max(200)
  .refine((v) => {
    if (!URL.canParse(v)) return false;
    const u = new URL(v);
    return /^https?:$/.test(u.protocol) && !u.username && !u.password && !u.search && !u.hash;
  }, 'an http(s) URL without credentials, query or fragment');

const ManifestRequest = z.object({
  publicUrl: PublicUrl,
  /** GitHub App names: at most 34 characters. */
  name: z
    .string()
    .trim()
    .min(1)
    .max(34)
    .regex(/^[\w .-]+$/, 'letters, digits, spaces, . _ -'),
  /** An organization login to create the App under; empty: the person's own account. */
  org: z
    .string()
    .regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, 'a GitHub organization login')
    .optional()
    .or(z.literal('')),
});

const ConversionRequest = z.object({
  code: z.string().regex(/^[\w-]{1,100}$/, 'the code GitHub sent back'),
  state: z.string().max(100),
});

/** The manifest flow is a browser's: its state is bound to a panel session, which a bearer caller lacks. */
async function sessionIdOf(c: Context, ctx: Ctx): Promise<string> {
  const session = await panelSessionOf(c, ctx);
  if (!session)
    throw new HttpError(
      403,
      'panel_session_required',
      'creating a GitHub App needs a signed-in panel session',
    );
  return session.id;
}

/**
 * Issue 16, the GitHub App manifest flow, under `/panel/api` (signed in; writes need the CSRF
 * token): what the bot needs and the App made here before; a manifest and GitHub's address to
 * post it to, with a `state` bound to this session; and the exchange of GitHub's `code` for the
 * App's credentials, shown once as `.env` lines and never stored.
 */
export function githubAppRoutes(ctx: Ctx): (api: Hono) => void {
  const webUrl = githubWebUrl(ctx.config.GITHUB_API_URL);
  return (api) => {
    api.get('/github-app', async (c) => {
      const { GITHUB_TOKEN: token, GITHUB_APP_ID: appId } = ctx.config;
      return c.json({
        needs: APP_NEEDS,
        webUrl,
        mode: token ? 'token' : appId ? 'app' : 'off',
        appId: appId ?? null,
        /** `PUBLIC_URL`, when the deployment names its public address: the form's default. */
        publicUrl: ctx.config.PUBLIC_URL ?? null,
        created: await loadCreatedApp(ctx),
        /** Issue 49: the demo's local GitHub cannot create an App; the page says so. */
        demo: ctx.config.DEMO,
      });
    });
    api.post('/github-app/manifest', async (c) => {
      const body = await readBody(c, ManifestRequest);
      if (ctx.config.DEMO)
        throw new HttpError(
          409,
          'demo_no_app',
          "the demo's GitHub is a local stand-in and cannot create a GitHub App",
        );
      const state = await issueManifestState(ctx, await sessionIdOf(c, ctx));
      return c.json({
        action: newAppUrl(webUrl, state, body.org || undefined),
        manifest: buildManifest(body.publicUrl, body.name),
      });
    });
    api.post('/github-app/conversions', async (c) => {
      const body = await readBody(c, ConversionRequest);
      const check = await redeemManifestState(ctx, body.state, await sessionIdOf(c, ctx));
      if (check !== 'ok')
        throw new HttpError(
          403,
          `state_${check}`,
          'this GitHub redirect was not started from this panel session',
        );
      const result = await convertManifest(ctx, body.code);
      if (!result.ok)
        throw new HttpError(
          result.status === 404 ? 404 : 422,
          'code_refused',
          `GitHub refused the code (${result.status}): it is spent or older than an hour; create the App again`,
        );
      await saveCreatedApp(ctx, result.value.app);
      ctx.log.info(
        { appId: result.value.app.id, slug: result.value.app.slug },
        'github app created from the panel',
      );
      c.header('cache-control', 'no-store');
      return c.json({ app: result.value.app, env: envBlock(result.value) });
    });
  };
}
