import type { Logger } from '../../logger.ts';
import { appJwt } from './app-jwt.ts';
import { createGitHubClient, splitRepo } from './client.ts';
import { type Permissions, scopedPermissions, type TokenPurpose } from './token-scope.ts';

/**
 * Installation tokens last an hour; one is replaced this long before its `expires_at`, so a
 * request that starts with it (or a clone that runs a while) does not outlive it.
 */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

interface Minted {
  token: string;
  expiresAt: number;
}

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
 * (`GET /repos/{o}/{r}/installation`) and an access token for that one repository with only the
 * permissions the purpose needs (`POST /app/installations/{id}/access_tokens` with
 * `repositories: [name]` and `permissions`, issue 13 / R-H4), both asked for with an App JWT and
 * cached in-process per repository and purpose until shortly before the token expires.
 * Concurrent callers share one request; a failed one is not cached.
 */
export function installationTokens(o: InstallationTokenOptions): InstallationTokens {
  const now = o.now ?? Date.now;
  const installations = new Map<string, Promise<Installation>>();
  const tokens = new Map<string, Promise<Minted>>();
  const jwtClient = () =>
    createGitHubClient({ baseUrl: o.baseUrl, auth: appJwt(o.appId, o.privateKey, now()), log: o.log });

  const once = <K, V>(map: Map<K, Promise<V>>, key: K, make: () => Promise<V>): Promise<V> => {
    const p = make();
    map.set(key, p);
    p.catch(() => {
      if (map.get(key) === p) map.delete(key);
    });
    return p;
  };

  const installationOf = (repo: string): Promise<Installation> => {
    const key = repo.toLowerCase();
    const known = installations.get(key);
    if (known) return known;
    return once(installations, key, async () => {
      const { data } = await jwtClient().rest.apps.getRepoInstallation(splitRepo(repo));
      return { id: data.id, granted: data.permissions as Permissions | undefined };
    });
  };

  const mint = async (inst: Installation, repo: string, purpose: TokenPurpose): Promise<Minted> => {
    const permissions = scopedPermissions(purpose, inst.granted);
    const { data } = await jwtClient().rest.apps.createInstallationAccessToken({
      installation_id: inst.id,
      repositories: [splitRepo(repo).repo],
      permissions,
    });
    o.log?.info(
      { installationId: inst.id, repo, purpose, permissions, expiresAt: data.expires_at },
      'github installation token minted',
    );
    return { token: data.token, expiresAt: Date.parse(data.expires_at) };
  };

  return {
    async tokenFor(repo, stale, purpose = 'api') {
      const inst = await installationOf(repo);
      const key = `${inst.id}:${repo.toLowerCase()}:${purpose}`;
      for (;;) {
        const held = tokens.get(key);
        const t = held && (await held.catch(() => undefined));
        if (t && t.token !== stale && t.expiresAt - TOKEN_REFRESH_MARGIN_MS > now()) return t.token;
        // Replace it unless another caller already did meanwhile (then use theirs).
        if (tokens.get(key) === held) return (await once(tokens, key, () => mint(inst, repo, purpose))).token;
      }
    },
  };
}
