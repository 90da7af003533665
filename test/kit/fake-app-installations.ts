import { randomBytes } from 'node:crypto';

/** One installation access token the fake minted. */
export interface FakeInstallationToken {
  token: string;
  installationId: number;
  expires_at: string;
  /** Revoked (or made to expire): repository routes answer it 401. */
  revoked: boolean;
}

export interface AppInstallations {
  tokens: FakeInstallationToken[];
  /** The installation on a repository (default: installation 1 holds every repository). */
  setInstallation(repo: string, id: number): void;
  installationOf(repo: string): number;
  /** `POST /app/installations/{id}/access_tokens`: a fresh token valid for `ttlMs` (an hour). */
  mint(installationId: number): FakeInstallationToken;
  /** Whether `Authorization` carries a live token of the repository's installation. */
  accepts(auth: string | undefined, repo: string | undefined): boolean;
  /** GitHub refuses the token from now on, as after its expiry or a revocation. */
  revoke(token: string): void;
  /** How long minted tokens live (tests shorten it to see an early refresh). */
  ttlMs: number;
}

/**
 * The fake GitHub's App installations: which installation holds a repository, and the tokens it
 * mints for them (`ghs_…`), which repository routes then accept in place of the fake's token.
 */
export function createAppInstallations(): AppInstallations {
  const byRepo = new Map<string, number>();
  const tokens: FakeInstallationToken[] = [];
  const self: AppInstallations = {
    tokens,
    ttlMs: 3600_000,
    setInstallation: (repo, id) => byRepo.set(repo.toLowerCase(), id),
    installationOf: (repo) => byRepo.get(repo.toLowerCase()) ?? 1,
    mint(installationId) {
      const t: FakeInstallationToken = {
        token: `ghs_${randomBytes(12).toString('hex')}`,
        installationId,
        expires_at: new Date(Date.now() + self.ttlMs).toISOString(),
        revoked: false,
      };
      tokens.push(t);
      return t;
    },
    accepts(auth, repo) {
      const value = auth?.replace(/^(token|bearer) /i, '');
      const t = tokens.find((x) => x.token === value);
      if (!t || t.revoked || Date.parse(t.expires_at) <= Date.now()) return false;
      return repo === undefined || self.installationOf(repo) === t.installationId;
    },
    revoke(token) {
      for (const t of tokens) if (t.token === token) t.revoked = true;
    },
  };
  return self;
}
