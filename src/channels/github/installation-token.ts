import type { Logger } from '../../logger.ts';
import { appJwt } from './app-jwt.ts';
import { createGitHubClient, splitRepo } from './client.ts';

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
   * A valid installation token for `owner/name`. `stale` names a token GitHub just refused
   * (401): if the cache still holds it, a new one is minted instead.
   */
  tokenFor(repo: string, stale?: string): Promise<string>;
}

export interface InstallationTokenOptions {
  baseUrl: string;
  appId: string;
  privateKey: string;
  log?: Logger | undefined;
  now?: () => number;
}

/**
 * GitHub App mode's credentials for repository calls: the repository's installation
 * (`GET /repos/{o}/{r}/installation`) and its access token (`POST /app/installations/{id}/access_tokens`),
 * both asked for with an App JWT and cached in-process per installation until shortly before the
 * token expires. Concurrent callers share one request; a failed one is not cached.
 */
export function installationTokens(o: InstallationTokenOptions): InstallationTokens {
  const now = o.now ?? Date.now;
  const installations = new Map<string, Promise<number>>();
  const tokens = new Map<number, Promise<Minted>>();
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

  const installationOf = (repo: string): Promise<number> => {
    const key = repo.toLowerCase();
    const known = installations.get(key);
    if (known) return known;
    return once(installations, key, async () => {
      const { data } = await jwtClient().rest.apps.getRepoInstallation(splitRepo(repo));
      return data.id;
    });
  };

  const mint = async (installationId: number): Promise<Minted> => {
    const { data } = await jwtClient().rest.apps.createInstallationAccessToken({
      installation_id: installationId,
    });
    o.log?.info({ installationId, expiresAt: data.expires_at }, 'github installation token minted');
    return { token: data.token, expiresAt: Date.parse(data.expires_at) };
  };

  return {
    async tokenFor(repo, stale) {
      const id = await installationOf(repo);
      for (;;) {
        const held = tokens.get(id);
        const t = held && (await held.catch(() => undefined));
        if (t && t.token !== stale && t.expiresAt - TOKEN_REFRESH_MARGIN_MS > now()) return t.token;
        // Replace it unless another caller already did meanwhile (then use theirs).
        if (tokens.get(id) === held) return (await once(tokens, id, () => mint(id))).token;
      }
    },
  };
}
