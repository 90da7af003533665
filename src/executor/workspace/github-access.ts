import { botIdentity } from '../../channels/github/bot-identity.ts';
import type { GitHubClient } from '../../channels/github/client.ts';
import { githubRepoAccess } from '../../channels/github/repo-client.ts';
import type { Ctx } from '../../context.ts';

interface Access {
  /** The client for calls on `owner/name`: `GITHUB_TOKEN`, or its App installation token. */
  client: (repo: string) => Promise<GitHubClient>;
  /** The token git sends to the repository's https host (`gitAuthConfig`). */
  token: (repo: string) => Promise<string | undefined>;
  login: () => Promise<string>;
}

const cache = new WeakMap<Ctx, Access>();

/** The executor's GitHub access (token or App mode) and the bot's login, built once per context. */
export function githubAccess(ctx: Ctx): Access {
  let a = cache.get(ctx);
  if (!a) {
    const identity = botIdentity(ctx.config, ctx.log);
    const repos = githubRepoAccess(ctx.config, ctx.log);
    a = {
      client: (repo) => repos.clientFor(repo),
      token: (repo) => repos.tokenFor(repo),
      login: () => identity.login().catch(() => 'switchyard-bot'),
    };
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
