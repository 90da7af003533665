import type { PromptDeps } from './deps.ts';
import { getVersion, type PromptVersion } from './prompt-versions.ts';

type Deps = Pick<PromptDeps, 'redis' | 'keys'>;

/**
 * Records that a session ran under prompts revision `rev` (R-F3). Idempotent; a sorted set scored
 * by revision, shared with `src/session/record-revision.ts`.
 */
export async function recordRevision(deps: Deps, sessionId: string, rev: number): Promise<void> {
  await deps.redis.zadd(deps.keys.sessionRevisions(sessionId), 'NX', rev, String(rev));
}

/** The prompts revisions a session ran under, ascending. */
export async function sessionRevisions(deps: Deps, sessionId: string): Promise<number[]> {
  return (await deps.redis.zrange(deps.keys.sessionRevisions(sessionId), 0, -1)).map(Number);
}

/**
 * A version the session worked under, for an executor reading its own history (R-F3); null when
 * the session never ran under that revision, so a session cannot browse other settings this way.
 */
export async function readSessionRevision(
  deps: Deps,
  sessionId: string,
  rev: number,
): Promise<PromptVersion | null> {
  const used = await deps.redis.zscore(deps.keys.sessionRevisions(sessionId), String(rev));
  return used === null ? null : getVersion(deps, rev);
}
