import { botIdentity } from '../../channels/github/bot-identity.ts';
import type { GitHubClient } from '../../channels/github/client.ts';
import { githubRepoAccess } from '../../channels/github/repo-client.ts';
import type { TokenPurpose } from '../../channels/github/token-scope.ts';
import type { Ctx } from '../../context.ts';

interface Access {
  /** The client for calls on `owner/name`: `GITHUB_TOKEN`, or its App installation token. */
  client: (repo: string) => Promise<GitHubClient>;
  /**
   * The token the host's git sends to the repository's host (`gitAuthConfig`): in App mode one
   * minted for that repository alone with only what `purpose` needs (issue 13, R-H4).
   */
  token: (repo: string, purpose: TokenPurpose) => Promise<string | undefined>;
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
      token: (repo, purpose) => repos.tokenFor(repo, purpose),
      login: () => identity.login().catch(() => 'switchyard-bot'),
    };
    cache.set(ctx, a);
  }
  return a;
}
