import { z } from 'zod';
import type { Ctx } from '../context.ts';
import type { Keys } from '../store/keys.ts';
import { parseRecord } from '../store/parse-record.ts';
import { runScript, script } from '../store/run-script.ts';
import type { StoreHandle } from '../store/store-handle.ts';
import type { SaveMeta } from './settings.ts';

/** An immutable version (R-F1): the full configuration and where it came from. */
export interface VersionRecord<T> {
  revision: number;
  /** The revision this one replaced; null for the first. */
  predecessor: number | null;
  /** ISO timestamp. */
  createdAt: string;
  source: SaveMeta['source'];
  who: string | null;
  /** Set when this version was made by restoring an older one or the defaults. */
  restoredFrom?: number | 'defaults';
  config: T;
}

/** A version record read through zod, `config` through the setting's own schema (issue 20). */
const versionRecordSchema = <T>(config: z.ZodType<T>) =>
  z.object({
    revision: z.number(),
    predecessor: z.number().nullable(),
    createdAt: z.string(),
    source: z.enum(['panel', 'tool', 'api']),
    who: z.string().nullable(),
    restoredFrom: z.union([z.number(), z.literal('defaults')]).optional(),
    config,
  });

/**
 * Which versioned setting: the prompt settings or the routing policy. This module owns both
 * records (`promptsHead`/`promptsVersion`/`promptsVersions`, `policy*` likewise).
 */
export type Setting = 'prompts' | 'policy';

/** The key names of one versioned setting. */
interface VersionKeys {
  /** Hash `{ rev, record }`: the current revision and its whole record, read in one go. */
  head: string;
  /** Sorted set of every revision. */
  versions: string;
  version: (rev: number) => string;
}

const keysOf = (keys: Keys, which: Setting): VersionKeys =>
  which === 'prompts'
    ? { head: keys.promptsHead(), versions: keys.promptsVersions(), version: (r) => keys.promptsVersion(r) }
    : { head: keys.policyHead(), versions: keys.policyVersions(), version: (r) => keys.policyVersion(r) };

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
export async function commitVersion<T>(
  store: StoreHandle,
  which: Setting,
  input: CommitInput<T>,
): Promise<CommitResult> {
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
  const keys = keysOf(store.keys, which);
  const args = [baseRevision, JSON.stringify(record)];
  const keyList = [keys.head, keys.versions, keys.version(baseRevision + 1)];
  const [won, rev] = (await runScript(store.redis, COMMIT, keyList, args)) as [number, number];
  return won === 1 ? { ok: true, revision: rev } : { ok: false, currentRevision: rev };
}

/** The current revision; 0 while nothing was ever saved. */
export async function headRevision(store: StoreHandle, which: Setting): Promise<number> {
  return Number((await store.redis.hget(keysOf(store.keys, which).head, 'rev')) ?? 0);
}

type ReadCtx = StoreHandle & Partial<Pick<Ctx, 'log'>>;

/** A stored version through its schema; one that fails throws `StoredRecordError` (never cast). */
function parseVersion<T>(ctx: ReadCtx, config: z.ZodType<T>, json: string, key: string): VersionRecord<T> {
  const { restoredFrom, ...rest } = parseRecord(ctx, versionRecordSchema(config), json, key);
  const record: VersionRecord<T> = restoredFrom === undefined ? rest : { ...rest, restoredFrom };
  return record;
}

/** The current record, or null while nothing was ever saved. */
export async function headRecord<T>(ctx: ReadCtx, which: Setting, config: z.ZodType<T>) {
  const key = keysOf(ctx.keys, which).head;
  const json = await ctx.redis.hget(key, 'record');
  return json ? parseVersion(ctx, config, json, `${key} record`) : null;
}

/** One whole version, or null when there is no such revision. */
export async function readVersion<T>(ctx: ReadCtx, which: Setting, config: z.ZodType<T>, rev: number) {
  const key = keysOf(ctx.keys, which).version(rev);
  const json = await ctx.redis.get(key);
  return json ? parseVersion(ctx, config, json, key) : null;
}

/** Versions newest first, `limit` at most. */
export async function readVersions<T>(ctx: ReadCtx, which: Setting, config: z.ZodType<T>, limit = 50) {
  const keys = keysOf(ctx.keys, which);
  const revs = await ctx.redis.zrevrange(keys.versions, 0, limit - 1);
  if (revs.length === 0) return [];
  const versionKeys = revs.map((r) => keys.version(Number(r)));
  const jsons = await ctx.redis.mget(versionKeys);
  return jsons.flatMap((j, i) => (j === null ? [] : [parseVersion(ctx, config, j, versionKeys[i] ?? '')]));
}

/**
 * Returns both head revisions, and a head's record only when it differs from the revision the
 * caller has cached, so a warm request moves a few bytes. KEYS[3], when given, is the session's
 * sorted set of used revisions (R-F3), the same ZADD NX the session loop uses, so recording twice
 * is harmless — one script, so reading and recording are one round trip.
 */
const READ_HEADS = script(`
local p = redis.call('HGET', KEYS[1], 'rev') or '0'
local q = redis.call('HGET', KEYS[2], 'rev') or '0'
local out = {p, false, q, false}
if p ~= ARGV[1] and p ~= '0' then out[2] = redis.call('HGET', KEYS[1], 'record') end
if q ~= ARGV[2] and q ~= '0' then out[4] = redis.call('HGET', KEYS[2], 'record') end
if KEYS[3] then redis.call('ZADD', KEYS[3], 'NX', p, p) end
return out
`);

/** A head as `readHeads` saw it: its revision, and its record when it differed from the one cached. */
export interface HeadRead<T> {
  revision: number;
  record: VersionRecord<T> | null;
}

/**
 * Both heads (prompts and policy) in one round trip, each record only when its revision differs
 * from `cached`; with a session id the prompts revision is recorded as used by that session.
 */
export async function readHeads<P, Q>(
  ctx: ReadCtx,
  schemas: { prompts: z.ZodType<P>; policy: z.ZodType<Q> },
  cached: { prompts: number; policy: number },
  sessionId?: string,
): Promise<{ prompts: HeadRead<P>; policy: HeadRead<Q> }> {
  const p = keysOf(ctx.keys, 'prompts').head;
  const q = keysOf(ctx.keys, 'policy').head;
  const keys = [p, q];
  if (sessionId !== undefined) keys.push(ctx.keys.sessionRevisions(sessionId));
  const args = [cached.prompts, cached.policy];
  const [pRev, pJson, qRev, qJson] = (await runScript(ctx.redis, READ_HEADS, keys, args)) as (
    | string
    | null
  )[];
  return {
    prompts: {
      revision: Number(pRev),
      record: pJson ? parseVersion(ctx, schemas.prompts, pJson, `${p} record`) : null,
    },
    policy: {
      revision: Number(qRev),
      record: qJson ? parseVersion(ctx, schemas.policy, qJson, `${q} record`) : null,
    },
  };
}
