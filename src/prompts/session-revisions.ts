import { recordRevision as record, revisionsOf } from '../session/record-revision.ts';
import type { PromptDeps } from './deps.ts';

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
