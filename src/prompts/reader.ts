import type { PromptDeps } from './deps.ts';
import { defaultPolicy, PolicySettings } from './policy-settings.ts';
import { emptySettings, type PromptSettings, StoredPromptSettings } from './settings.ts';
import { type HeadRead, readHeads } from './version-store.ts';

/** The settings one model request runs under. */
export interface PromptSnapshot {
  prompts: { revision: number; config: PromptSettings };
  policy: { revision: number; config: PolicySettings };
}

export interface PromptReader {
  /**
   * The latest prompts and policy (R-F3), in one Redis round trip; with a session id the prompts
   * revision is also recorded as used by that session, in the same round trip.
   */
  read(sessionId?: string): Promise<PromptSnapshot>;
}

/**
 * A reader with an in-process cache keyed by revision number: sessions read the latest version
 * at every model request (R-F3) but parse a version only once per process. A save is noticed at
 * the next request; it never restarts, cancels or wakes a session.
 */
export function createPromptReader(deps: Pick<PromptDeps, 'redis' | 'keys'>): PromptReader {
  let snapshot: PromptSnapshot = {
    prompts: { revision: 0, config: emptySettings() },
    policy: { revision: 0, config: defaultPolicy() },
  };
  return {
    async read(sessionId) {
      // Compare against what was sent: a record is omitted exactly when the head equalled it.
      const sent = snapshot;
      const cached = { prompts: sent.prompts.revision, policy: sent.policy.revision };
      const heads = await readHeads(deps, SCHEMAS, cached, sessionId);
      const fresh = {
        prompts: next(sent.prompts, heads.prompts, emptySettings),
        policy: next(sent.policy, heads.policy, defaultPolicy),
      };
      // Concurrent reads may resolve in any order; the cache only moves forward.
      if (
        fresh.prompts.revision >= snapshot.prompts.revision &&
        fresh.policy.revision >= snapshot.policy.revision
      ) {
        snapshot = fresh;
      }
      return fresh;
    },
  };
}

function next<T>(cached: { revision: number; config: T }, head: HeadRead<T>, empty: () => T) {
  if (head.revision === cached.revision) return cached;
  if (head.revision === 0 || head.record === null) return { revision: 0, config: empty() };
  return { revision: head.revision, config: head.record.config };
}

const SCHEMAS = { prompts: StoredPromptSettings, policy: PolicySettings };
