import type { Keys } from '../store/keys.ts';
import type { RedisConnection } from '../store/redis.ts';
import type { Builtins } from './load-builtins.ts';
import type { VersionKeys } from './version-store.ts';

/** What the prompt functions need: Redis, key names, this release's built-in texts, the size cap. */
export interface PromptDeps {
  redis: RedisConnection;
  keys: Keys;
  builtins: Builtins;
  /** PROMPT_SIZE_CAP: total characters of team-written settings (R-F4). */
  sizeCap: number;
  /** Injectable clock for version timestamps. */
  now?: () => number;
}

export const promptVersionKeys = (keys: Keys): VersionKeys => ({
  head: keys.promptsHead(),
  versions: keys.promptsVersions(),
  version: (rev) => keys.promptsVersion(rev),
});

export const policyVersionKeys = (keys: Keys): VersionKeys => ({
  head: keys.policyHead(),
  versions: keys.policyVersions(),
  version: (rev) => keys.policyVersion(rev),
});
