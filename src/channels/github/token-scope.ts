import { APP_PERMISSIONS } from './app-needs.ts';

/** What a repository token is for; each gets only the permissions it needs (issue 13, R-H4). */
export type TokenPurpose = 'api' | 'fetch' | 'push' | 'push-workflows';

type Level = 'read' | 'write';
export type Permissions = Record<string, Level>;

/**
 * The permissions each purpose asks GitHub for. `api` covers what the product's REST and GraphQL
 * calls on a repository do: everything the App needs (`APP_NEEDS`: comments and reactions, PRs and
 * review threads, repository and collaborator look-ups, check results), with `contents` only
 * read — writing it is git's, below. Git needs `contents` alone; a push that changes
 * `.github/workflows/` also needs `workflows` (GitHub refuses it otherwise), asked for only when a
 * repository admin's request asked for that change (issue 31, `pushBranch`).
 */
const WANTED: Record<TokenPurpose, Permissions> = {
  api: { ...APP_PERMISSIONS, contents: 'read' },
  fetch: { metadata: 'read', contents: 'read' },
  push: { metadata: 'read', contents: 'write' },
  'push-workflows': { metadata: 'read', contents: 'write', workflows: 'write' },
};

/**
 * The request body's `permissions` for `purpose`: what it wants, cut to what the installation was
 * granted (asking for more makes GitHub answer 422, and the installation's owner decides that).
 * Unknown grants (an old GHES that does not list them) leave the wanted set as it is.
 */
export function scopedPermissions(purpose: TokenPurpose, granted?: Permissions): Permissions {
  const want = WANTED[purpose];
  if (!granted || !Object.keys(granted).length) return { ...want };
  const out: Permissions = {};
  for (const [name, level] of Object.entries(want)) {
    const has = granted[name];
    if (!has) continue;
    out[name] = level === 'write' && has === 'write' ? 'write' : 'read';
  }
  return out;
}
