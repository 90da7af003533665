import { botIdentity } from '../../channels/github/bot-identity.ts';
import { createGitHubClient, type GitHubClient } from '../../channels/github/client.ts';
import type { Ctx } from '../../context.ts';

interface Access {
  client: GitHubClient;
  login: () => Promise<string>;
}

const cache = new WeakMap<Ctx, Access>();

/** The executor's GitHub client (token mode) and the bot's login, built once per context. */
export function githubAccess(ctx: Ctx): Access {
  let a = cache.get(ctx);
  if (!a) {
    const { config } = ctx;
    const identity = botIdentity(config, ctx.log);
    const client = createGitHubClient({
      baseUrl: config.GITHUB_API_URL,
      auth: config.GITHUB_TOKEN,
      log: ctx.log,
    });
    a = { client, login: () => identity.login().catch(() => 'switchyard-bot') };
    cache.set(ctx, a);
  }
  return a;
}

/**
 * The git setting, for our own network git processes only, that sends the token to the
 * repository's https host: never written into the remote URL or any file on disk, never in a
 * command the model runs, and never sent to another host (a submodule elsewhere). `file://` and
 * ssh URLs need none.
 */
export function gitAuthConfig(cloneUrl: string, token: string | undefined): [string, string][] {
  if (!token || !/^https:\/\//i.test(cloneUrl)) return [];
  const origin = new URL(cloneUrl).origin;
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return [[`http.${origin}/.extraheader`, `AUTHORIZATION: basic ${basic}`]];
}
