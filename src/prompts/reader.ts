import { type PromptDeps, policyVersionKeys, promptVersionKeys } from './deps.ts';
import { defaultPolicy, type PolicySettings } from './policy-settings.ts';
import { runScript, script } from './run-script.ts';
import { emptySettings, type PromptSettings } from './settings.ts';
import type { VersionRecord } from './version-store.ts';

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
 * Returns both head revisions, and a head's record only when it differs from the revision the
 * caller has cached, so a warm request moves a few bytes. KEYS[3], when given, is the session's
 * sorted set of used revisions (R-F3), the
 * same ZADD NX the session loop uses, so recording twice is harmless.
 */
const READ = script(`
local p = redis.call('HGET', KEYS[1], 'rev') or '0'
local q = redis.call('HGET', KEYS[2], 'rev') or '0'
local out = {p, false, q, false}
if p ~= ARGV[1] and p ~= '0' then out[2] = redis.call('HGET', KEYS[1], 'record') end
if q ~= ARGV[2] and q ~= '0' then out[4] = redis.call('HGET', KEYS[2], 'record') end
if KEYS[3] then redis.call('ZADD', KEYS[3], 'NX', p, p) end
return out
`);

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
  const pKeys = promptVersionKeys(deps.keys);
  const qKeys = policyVersionKeys(deps.keys);
  return {
    async read(sessionId) {
      const keys = [pKeys.head, qKeys.head];
      if (sessionId !== undefined) keys.push(deps.keys.sessionRevisions(sessionId));
      // Compare against what was sent: a record is omitted exactly when the head equalled it.
      const sent = snapshot;
      const args = [sent.prompts.revision, sent.policy.revision];
      const [p, pJson, q, qJson] = (await runScript(deps.redis, READ, keys, args)) as (string | null)[];
      const fresh = {
        prompts: next(sent.prompts, Number(p), pJson ?? null, emptySettings),
        policy: next(sent.policy, Number(q), qJson ?? null, defaultPolicy),
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

function next<T>(cached: { revision: number; config: T }, rev: number, json: string | null, empty: () => T) {
  if (rev === cached.revision) return cached;
  if (rev === 0 || json === null) return { revision: 0, config: empty() };
  return { revision: rev, config: (JSON.parse(json) as VersionRecord<T>).config };
}
