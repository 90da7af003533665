import type { Config } from '../../config.ts';
import type { Logger } from '../../logger.ts';
import { createGitHubClient, type GitHubClient } from './client.ts';
import { type InstallationTokens, installationTokens } from './installation-token.ts';
import type { TokenPurpose } from './token-scope.ts';

/** How the product reaches GitHub on a repository's behalf, in either mode. */
export interface GitHubRepoAccess {
  /** `app` when calls authenticate with installation tokens, `token` otherwise. */
  mode: 'token' | 'app';
  /** The client for calls on `owner/name` (REST and GraphQL about that repository). */
  clientFor(repo: string): Promise<GitHubClient>;
  /**
   * What the host's git sends to the repository's host: `GITHUB_TOKEN`, or an installation token
   * for that repository with only what `purpose` needs (issue 13, R-H4).
   */
  tokenFor(repo: string, purpose: TokenPurpose): Promise<string | undefined>;
}

/** Installation tokens are shared by every consumer of one config: one mint per installation. */
const tokenCaches = new WeakMap<Config, InstallationTokens>();

/**
 * The one way to get "a GitHub client for this repository", shared by the outbox sender, the
 * executor and the permission look-up; each builds it once and keeps it, while the token cache is
 * one per process and config. Both modes keep one client per repository, whose writes are spaced
 * on their own (issue 18). Token mode: clients with `GITHUB_TOKEN`. App mode: clients whose
 * requests carry its installation token; a 401 mints a fresh token and sends the request once
 * more (GitHub processed nothing, so a write is not doubled). App-level calls (`/app`,
 * `/app/hook/deliveries`) keep using an App JWT and do not come through here.
 */
export function githubRepoAccess(config: Config, log?: Logger): GitHubRepoAccess {
  const baseUrl = config.GITHUB_API_URL;
  const { GITHUB_TOKEN: token, GITHUB_APP_ID: appId, GITHUB_PRIVATE_KEY: privateKey } = config;
  if (token || !appId || !privateKey) {
    // Issue 18: a client per repository, so each repository's writes are spaced on their own.
    const clients = new Map<string, GitHubClient>();
    const clientFor = async (repo: string) => {
      const key = repo.toLowerCase();
      let client = clients.get(key);
      if (!client) {
        client = createGitHubClient({
          baseUrl,
          auth: token,
          log,
          writeSpacingMs: config.GITHUB_WRITE_SPACING_MS,
          ...(key ? { throttleScope: key } : {}),
        });
        clients.set(key, client);
      }
      return client;
    };
    return { mode: 'token', clientFor, tokenFor: async () => token };
  }
  let shared = tokenCaches.get(config);
  if (!shared) {
    shared = installationTokens({ baseUrl, appId, privateKey, log });
    tokenCaches.set(config, shared);
  }
  const tokens = shared;
  const clients = new Map<string, GitHubClient>();
  return {
    mode: 'app',
    async clientFor(repo) {
      const key = repo.toLowerCase();
      let client = clients.get(key);
      if (!client) {
        client = installationClient(baseUrl, tokens, repo, log, config.GITHUB_WRITE_SPACING_MS);
        clients.set(key, client);
      }
      return client;
    },
    tokenFor: (repo, purpose) => tokens.tokenFor(repo, undefined, purpose),
  };
}

function installationClient(
  baseUrl: string,
  tokens: InstallationTokens,
  repo: string,
  log: Logger | undefined,
  writeSpacingMs: number,
): GitHubClient {
  const client = createGitHubClient({ baseUrl, log, throttleScope: repo, writeSpacingMs });
  client.hook.wrap('request', async (request, options) => {
    const used = await tokens.tokenFor(repo);
    options.headers.authorization = `token ${used}`;
    try {
      return await request(options);
    } catch (err) {
      if ((err as { status?: number }).status !== 401) throw err;
      log?.warn({ repo }, 'github refused the installation token; minting a new one');
      options.headers.authorization = `token ${await tokens.tokenFor(repo, used)}`;
      return request(options);
    }
  });
  return client;
}
