import { randomBytes } from 'node:crypto';

export type Level = 'read' | 'write';
export type Permissions = Record<string, Level>;

/** One installation access token the fake minted. */
export interface FakeInstallationToken {
  token: string;
  installationId: number;
  expires_at: string;
  /** Revoked (or made to expire): repository routes answer it 401. */
  revoked: boolean;
  /** The repositories (names, as the request gave them) it reaches; undefined: all of the installation's. */
  repositories?: string[];
  /** What it may do: the request's `permissions`, else everything the installation was granted. */
  permissions: Permissions;
}

/** What a token may do on a repository: GitHub's 401 / 404 / 403 distinctions. */
export type TokenVerdict = 'ok' | 'bad' | 'no-repo' | 'denied';

export type MintResult =
  | { ok: true; token: FakeInstallationToken }
  | { ok: false; status: 422; message: string };

export interface AppInstallations {
  tokens: FakeInstallationToken[];
  /** The installation on a repository (default: installation 1 holds every repository). */
  setInstallation(repo: string, id: number): void;
  installationOf(repo: string): number;
  /** What an installation's owner granted the App (default: `DEFAULT_GRANTS`). */
  setGrants(installationId: number, grants: Permissions): void;
  grantsOf(installationId: number): Permissions;
  /**
   * `POST /app/installations/{id}/access_tokens` with its body: `repositories` (names without
   * the owner) must all be the installation's, `permissions` within its grants — else 422 as
   * GitHub answers. A fresh token valid for `ttlMs` (an hour).
   */
  mint(installationId: number, body?: { repositories?: unknown; permissions?: unknown }): MintResult;
  /** Whether `Authorization` carries a live token of the repository's installation. */
  accepts(auth: string | undefined, repo: string | undefined): boolean;
  /** What `token` may do on `repo` for `need` (a permission and level), as GitHub would decide. */
  verdict(token: string | undefined, repo: string | undefined, need?: [string, Level]): TokenVerdict;
  /** GitHub refuses the token from now on, as after its expiry or a revocation. */
  revoke(token: string): void;
  /** How long minted tokens live (tests shorten it to see an early refresh). */
  ttlMs: number;
}

/** What an installation grants unless a test says otherwise: all the product could ask for. */
export const DEFAULT_GRANTS: Permissions = {
  metadata: 'read',
  contents: 'write',
  issues: 'write',
  pull_requests: 'write',
  checks: 'read',
  workflows: 'write',
};

const nameOf = (repo: string) => repo.split('/')[1]?.toLowerCase() ?? '';
const allows = (has: Level | undefined, want: Level) =>
  has === 'write' || (has === 'read' && want === 'read');

/**
 * The fake GitHub's App installations: which installation holds a repository, what its owner
 * granted, and the tokens it mints (`ghs_…`) — scoped to the repositories and permissions the
 * request named — which repository routes and git then accept in place of the fake's token.
 * `known` lists the repositories the fake knows, for checking `repositories` by name.
 */
export function createAppInstallations(known: () => string[] = () => []): AppInstallations {
  const byRepo = new Map<string, number>();
  const grants = new Map<number, Permissions>();
  const tokens: FakeInstallationToken[] = [];
  const live = (token: string | undefined) => {
    const t = tokens.find((x) => x.token === token);
    return t && !t.revoked && Date.parse(t.expires_at) > Date.now() ? t : undefined;
  };
  const self: AppInstallations = {
    tokens,
    ttlMs: 3600_000,
    setInstallation: (repo, id) => byRepo.set(repo.toLowerCase(), id),
    installationOf: (repo) => byRepo.get(repo.toLowerCase()) ?? 1,
    setGrants: (id, g) => grants.set(id, g),
    grantsOf: (id) => grants.get(id) ?? DEFAULT_GRANTS,
    mint(installationId, body = {}) {
      const granted = self.grantsOf(installationId);
      const names = body.repositories;
      if (names !== undefined) {
        // Installation 1 holds every repository not set to another one (the default above).
        const elsewhere = new Set(
          [...byRepo].filter(([, id]) => id !== installationId).map(([r]) => nameOf(r)),
        );
        const mine = new Set(
          [...known(), ...byRepo.keys()].filter((r) => self.installationOf(r) === installationId).map(nameOf),
        );
        const holds = (n: string) => mine.has(n) || (installationId === 1 && !elsewhere.has(n));
        if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || !holds(n.toLowerCase())))
          return {
            ok: false,
            status: 422,
            message:
              'There is at least one repository that does not exist or is not accessible to the parent installation.',
          };
      }
      const asked = body.permissions as Record<string, unknown> | undefined;
      if (asked !== undefined) {
        const bad = Object.entries(asked).some(
          ([k, v]) => (v !== 'read' && v !== 'write') || !allows(granted[k], v),
        );
        if (bad)
          return {
            ok: false,
            status: 422,
            message: 'The permissions requested are not granted to this installation.',
          };
      }
      const t: FakeInstallationToken = {
        token: `ghs_${randomBytes(12).toString('hex')}`,
        installationId,
        expires_at: new Date(Date.now() + self.ttlMs).toISOString(),
        revoked: false,
        ...(Array.isArray(names) ? { repositories: names.map((n) => String(n).toLowerCase()) } : {}),
        permissions: (asked as Permissions | undefined) ?? { ...granted },
      };
      tokens.push(t);
      return { ok: true, token: t };
    },
    accepts(auth, repo) {
      return self.verdict(auth?.replace(/^(token|bearer) /i, ''), repo) === 'ok';
    },
    verdict(token, repo, need) {
      const t = live(token);
      if (!t) return 'bad';
      if (repo === undefined) return 'ok';
      if (self.installationOf(repo) !== t.installationId) return 'no-repo';
      if (t.repositories && !t.repositories.includes(nameOf(repo))) return 'no-repo';
      if (need && !allows(t.permissions[need[0]], need[1])) return 'denied';
      return 'ok';
    },
    revoke(token) {
      for (const t of tokens) if (t.token === token) t.revoked = true;
    },
  };
  return self;
}
