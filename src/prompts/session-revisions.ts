import type { PromptDeps } from './deps.ts';
import { getVersion, type PromptVersion } from './prompt-versions.ts';

type Deps = Pick<PromptDeps, 'redis' | 'keys'>;

/** Records that a session ran under prompts revision `rev` (R-F3). Idempotent. */
export async function recordRevision(deps: Deps, sessionId: string, rev: number): Promise<void> {
  await deps.redis.sadd(deps.keys.sessionRevisions(sessionId), String(rev));
}

/** The prompts revisions a session ran under, ascending. */
export async function sessionRevisions(deps: Deps, sessionId: string): Promise<number[]> {
  const members = await deps.redis.smembers(deps.keys.sessionRevisions(sessionId));
  return members.map(Number).sort((a, b) => a - b);
}

/**
 * A version the session worked under, for an executor reading its own history (R-F3); null when
 * the session never ran under that revision, so a session cannot browse other settings this way.
 */
export async function readSessionRevision(deps: Deps, sessionId: string, rev: number) {
  const used = await deps.redis.sismember(deps.keys.sessionRevisions(sessionId), String(rev));
  return used ? getVersion(deps, rev) : (null satisfies PromptVersion | null);
}
