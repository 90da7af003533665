import { recordRevision as record, revisionsOf, usedRevision } from '../session/record-revision.ts';
import type { PromptDeps } from './deps.ts';
import { getVersion, type PromptVersion } from './prompt-versions.ts';

type Deps = Pick<PromptDeps, 'redis' | 'keys'>;

/**
 * Records that a session ran under prompts revision `rev` (R-F3). Idempotent; the record's owner
 * is `src/session/record-revision.ts`.
 */
export const recordRevision = (deps: Deps, sessionId: string, rev: number): Promise<void> =>
  record(deps, sessionId, rev);

/** The prompts revisions a session ran under, ascending. */
export const sessionRevisions = (deps: Deps, sessionId: string): Promise<number[]> =>
  revisionsOf(deps, sessionId);

/**
 * A version the session worked under, for an executor reading its own history (R-F3); null when
 * the session never ran under that revision, so a session cannot browse other settings this way.
 */
export async function readSessionRevision(
  deps: Deps,
  sessionId: string,
  rev: number,
): Promise<PromptVersion | null> {
  return (await usedRevision(deps, sessionId, rev)) ? getVersion(deps, rev) : null;
}
