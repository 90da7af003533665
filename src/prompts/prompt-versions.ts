import type { PromptDeps } from './deps.ts';
import { emptySettings, type PromptSettings, StoredPromptSettings } from './settings.ts';
import { readVersion, readVersions, type VersionRecord } from './version-store.ts';

type Deps = Pick<PromptDeps, 'redis' | 'keys'>;

export type PromptVersion = VersionRecord<PromptSettings>;

/** `GET /api/prompts/versions`: the immutable versions, newest first (R-F1). */
export function listVersions(deps: Deps, limit = 50): Promise<PromptVersion[]> {
  return readVersions(deps, 'prompts', StoredPromptSettings, limit);
}

/**
 * `GET /api/prompts/versions/:rev`: one whole version, or null. Revision 0 is the defaults
 * before any save; sessions that ran then recorded it, so it must be readable too (R-F3).
 */
export async function getVersion(deps: Deps, rev: number): Promise<PromptVersion | null> {
  if (rev === 0) return defaultsVersion();
  return readVersion(deps, 'prompts', StoredPromptSettings, rev);
}

/** The implicit revision 0: no team text, no overrides, no skills. */
export const defaultsVersion = (): PromptVersion => ({
  revision: 0,
  predecessor: null,
  createdAt: new Date(0).toISOString(),
  source: 'api',
  who: null,
  restoredFrom: 'defaults',
  config: emptySettings(),
});
