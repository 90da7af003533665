import type { Ctx } from '../context.ts';
import { type Finding, ok, problem } from './finding.ts';

const CHECK = 'redis';

/** `INFO` text as field → value. */
export function parseInfo(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0 && !line.startsWith('#')) out.set(line.slice(0, i), line.slice(i + 1).trim());
  }
  return out;
}

/** `6.2.14` ≥ `6.2`? */
export function versionAtLeast(version: string, min: [number, number]): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > min[0] || (major === min[0] && minor >= min[1]);
}

/**
 * The store's contract (CONTRACT: Redis ≥ 6.2, `maxmemory-policy noeviction`) and persistence:
 * an evicted or lost key is a lost ticket, transcript or idempotency record. Read from `INFO`
 * (managed services often disable `CONFIG`), with `CONFIG GET save` for RDB where it answers.
 */
export async function checkRedis({ redis }: Pick<Ctx, 'redis'>): Promise<Finding[]> {
  let info: Map<string, string>;
  try {
    info = parseInfo(await redis.info());
  } catch (err) {
    return [
      problem(
        CHECK,
        `no answer: ${(err as Error).message}`,
        'start RedisConnection or set REDIS_URL to one that answers',
      ),
    ];
  }
  const out: Finding[] = [];
  const version = info.get('redis_version') ?? '0';
  if (!versionAtLeast(version, [6, 2]))
    out.push(
      problem(
        CHECK,
        `version ${version} is older than 6.2`,
        'upgrade RedisConnection to 6.2 or newer (BullMQ and our scripts need it)',
      ),
    );
  const policy = info.get('maxmemory_policy') ?? (await configValue(redis, 'maxmemory-policy'));
  if (policy !== 'noeviction')
    out.push(
      problem(
        CHECK,
        `maxmemory-policy is ${policy ?? 'unknown'}: RedisConnection may evict tickets, transcripts and queue jobs`,
        'set maxmemory-policy noeviction (redis.conf, or CONFIG SET maxmemory-policy noeviction and CONFIG REWRITE)',
      ),
    );
  const aof = info.get('aof_enabled') === '1';
  const save = aof ? undefined : await configValue(redis, 'save');
  if (!aof && !save)
    out.push(
      problem(
        CHECK,
        save === ''
          ? 'persistence is off (no AOF, no RDB snapshots)'
          : 'AOF is off and RDB snapshots cannot be read (CONFIG disabled)',
        'turn on AOF (appendonly yes) or RDB snapshots (save 60 1000): a restart would lose every ticket',
      ),
    );
  if (!out.length) out.push(ok(CHECK, `${version}, noeviction, ${aof ? 'AOF' : `RDB (save ${save})`}`));
  return out;
}

async function configValue(redis: Ctx['redis'], name: string): Promise<string | undefined> {
  try {
    const pair = (await redis.config('GET', name)) as string[];
    return pair[1];
  } catch {
    return undefined;
  }
}
