import type { RedisConnection } from '../store/redis.ts';
import { runScript, script } from './run-script.ts';
import type { SaveMeta, SaveSource } from './settings.ts';

/** An immutable version (R-F1): the full configuration and where it came from. */
export interface VersionRecord<T> {
  revision: number;
  /** The revision this one replaced; null for the first. */
  predecessor: number | null;
  /** ISO timestamp. */
  createdAt: string;
  source: SaveSource;
  who: string | null;
  /** Set when this version was made by restoring an older one or the defaults. */
  restoredFrom?: number | 'defaults';
  config: T;
}

/** The key names of one versioned setting (prompts or policy). */
export interface VersionKeys {
  /** Hash `{ rev, record }`: the current revision and its whole record, read in one go. */
  head: string;
  /** Sorted set of every revision. */
  versions: string;
  version: (rev: number) => string;
}

export type CommitResult = { ok: true; revision: number } | { ok: false; currentRevision: number };

/**
 * R-F2: a save commits only if the head is still at its base revision. Checking the head and
 * writing the version, the head and the index in one script means two concurrent saves on the
 * same base cannot both pass the check: exactly one wins, the loser writes nothing.
 */
const COMMIT = script(`
local cur = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if cur ~= tonumber(ARGV[1]) then return {0, cur} end
local rev = cur + 1
redis.call('SET', KEYS[3], ARGV[2])
redis.call('HSET', KEYS[1], 'rev', rev, 'record', ARGV[2])
redis.call('ZADD', KEYS[2], rev, rev)
return {1, rev}
`);

export interface CommitInput<T> {
  baseRevision: number;
  config: T;
  meta: SaveMeta;
  restoredFrom?: number | 'defaults';
  now?: () => number;
}

/** Writes a new version on top of `baseRevision`, or reports the revision that got there first. */
export async function commitVersion<T>(redis: RedisConnection, keys: VersionKeys, input: CommitInput<T>) {
  const { baseRevision, meta } = input;
  const record: VersionRecord<T> = {
    revision: baseRevision + 1,
    predecessor: baseRevision === 0 ? null : baseRevision,
    createdAt: new Date((input.now ?? Date.now)()).toISOString(),
    source: meta.source,
    who: meta.who,
    ...(input.restoredFrom === undefined ? {} : { restoredFrom: input.restoredFrom }),
    config: input.config,
  };
  const args = [baseRevision, JSON.stringify(record)];
  const keyList = [keys.head, keys.versions, keys.version(baseRevision + 1)];
  const [won, rev] = (await runScript(redis, COMMIT, keyList, args)) as [number, number];
  return (
    won === 1 ? { ok: true, revision: rev } : { ok: false, currentRevision: rev }
  ) satisfies CommitResult;
}

/** The current revision; 0 while nothing was ever saved. */
export async function headRevision(redis: RedisConnection, keys: VersionKeys): Promise<number> {
  return Number((await redis.hget(keys.head, 'rev')) ?? 0);
}

/** The current record, or null while nothing was ever saved. */
export async function headRecord<T>(
  redis: RedisConnection,
  keys: VersionKeys,
): Promise<VersionRecord<T> | null> {
  const json = await redis.hget(keys.head, 'record');
  return json ? (JSON.parse(json) as VersionRecord<T>) : null;
}

/** One whole version, or null when there is no such revision. */
export async function readVersion<T>(redis: RedisConnection, keys: VersionKeys, rev: number) {
  const json = await redis.get(keys.version(rev));
  return json ? (JSON.parse(json) as VersionRecord<T>) : null;
}

/** Versions newest first, `limit` at most. */
export async function readVersions<T>(redis: RedisConnection, keys: VersionKeys, limit = 50) {
  const revs = await redis.zrevrange(keys.versions, 0, limit - 1);
  if (revs.length === 0) return [];
  const jsons = await redis.mget(revs.map((r) => keys.version(Number(r))));
  return jsons.filter((j): j is string => j !== null).map((j) => JSON.parse(j) as VersionRecord<T>);
}
