import type { Logger } from '../../logger.ts';
import { type GitHubAppAuth, githubAppAuth } from './app-auth.ts';
import { createGitHubClient, splitRepo } from './client.ts';
import { type Permissions, scopedPermissions, type TokenPurpose } from './token-scope.ts';

/**
 * Installation tokens last an hour; one is replaced this long before its `expires_at`, so a
 * request that starts with it (or a clone that runs a while) does not outlive it.
 */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

export interface InstallationTokens {
  /**
   * A valid installation token for `owner/name` alone, with only the permissions `purpose` needs
   * (default `api`). `stale` names a token GitHub just refused (401): if the cache still holds
   * it, a new one is minted instead.
   */
  tokenFor(repo: string, stale?: string, purpose?: TokenPurpose): Promise<string>;
}

export interface InstallationTokenOptions {
  baseUrl: string;
  appId: string;
  privateKey: string;
  log?: Logger | undefined;
  now?: () => number;
}

interface Installation {
  id: number;
  /** What the installation's owner granted the App (`permissions` of the installation). */
  granted: Permissions | undefined;
}

/**
 * GitHub App mode's credentials for repository calls: the repository's installation
 * (`GET /repos/{o}/{r}/installation`, cached in-process) and an access token for that one
 * repository with only the permissions the purpose needs (`repositories: [name]` and
 * `permissions`, issue 13 / R-H4). `@octokit/auth-app` (issue 16) signs the JWTs, mints the
 * tokens, caches them per installation, repository and permissions, and shares one request
 * among concurrent callers; here a cached token is replaced `TOKEN_REFRESH_MARGIN_MS` before it
 * expires, or when GitHub refused it.
 */
export function installationTokens(o: InstallationTokenOptions): InstallationTokens {
  const now = o.now ?? Date.now;
  const auth: GitHubAppAuth = githubAppAuth(o);
  const installations = new Map<string, Promise<Installation>>();
  /** The token last handed out per installation, repository and purpose. */
  const seen = new Map<string, string>();

  const installationOf = (repo: string): Promise<Installation> => {
    const key = repo.toLowerCase();
    const known = installations.get(key);
    if (known) return known;
    const p = (async () => {
      const { token } = await auth({ type: 'app' });
      const client = createGitHubClient({ baseUrl: o.baseUrl, auth: token, log: o.log });
      const { data } = await client.rest.apps.getRepoInstallation(splitRepo(repo));
      return { id: data.id, granted: data.permissions as Permissions | undefined };
    })();
    installations.set(key, p);
    // A failed look-up is not kept: the next call asks again.
    p.catch(() => {
      if (installations.get(key) === p) installations.delete(key);
    });
    return p;
  };

  return {
    async tokenFor(repo, stale, purpose = 'api') {
      const inst = await installationOf(repo);
      const ask = {
        type: 'installation' as const,
        installationId: inst.id,
        repositoryNames: [splitRepo(repo).repo],
        permissions: scopedPermissions(purpose, inst.granted),
      };
      const key = `${inst.id}:${repo.toLowerCase()}:${purpose}`;
      const held = await auth(ask);
      // A token not handed out before was just minted: it is used as it is, however short its life.
      const known = seen.get(key) === held.token;
      seen.set(key, held.token);
      if (held.token !== stale && (!known || Date.parse(held.expiresAt) - TOKEN_REFRESH_MARGIN_MS > now()))
        return held.token;
      const fresh = await auth({ ...ask, refresh: true });
      seen.set(key, fresh.token);
      o.log?.info(
        { installationId: inst.id, repo, purpose, expiresAt: fresh.expiresAt },
        'github installation token replaced',
      );
      return fresh.token;
    },
  };
}
