import type { Config } from '../../config.ts';
import type { Logger } from '../../logger.ts';
import { appJwt } from './app-auth.ts';
import { createGitHubClient } from './client.ts';

/** The bot's own login: its events are `self`, `@login` is a mention (R-A2). */
export interface BotIdentity {
  login(): Promise<string>;
}

/**
 * `GITHUB_BOT_LOGIN` when set; else asked once from the API — `GET /user` in token mode, `GET /app`
 * → `<slug>[bot]` in App mode — and cached for the process. A failed lookup is not cached, so
 * the next webhook asks again.
 */
export function botIdentity(config: Config, log?: Logger): BotIdentity {
  const fixed = config.GITHUB_BOT_LOGIN;
  if (fixed) return { login: async () => fixed };
  let pending: Promise<string> | undefined;
  return {
    login() {
      pending ??= lookupBotLogin(config, log).catch((err: unknown) => {
        pending = undefined;
        throw err;
      });
      return pending;
    },
  };
}

async function lookupBotLogin(config: Config, log?: Logger): Promise<string> {
  const baseUrl = config.GITHUB_API_URL;
  if (config.GITHUB_TOKEN) {
    const client = createGitHubClient({ baseUrl, auth: config.GITHUB_TOKEN, log });
    return (await client.rest.users.getAuthenticated()).data.login;
  }
  if (config.GITHUB_APP_ID && config.GITHUB_PRIVATE_KEY) {
    const auth = await appJwt(config.GITHUB_APP_ID, config.GITHUB_PRIVATE_KEY);
    const { data } = await createGitHubClient({ baseUrl, auth, log }).rest.apps.getAuthenticated();
    if (!data?.slug) throw new Error('GET /app returned no slug');
    return `${data.slug}[bot]`;
  }
  throw new Error('no GitHub credentials to look the bot login up with: set GITHUB_BOT_LOGIN');
}
