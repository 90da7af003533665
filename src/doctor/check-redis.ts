import type { Ctx } from '../context.ts';
import type { Say } from './doctor-text.ts';
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
 * In the demo (`demo`, issue 49) a Redis without persistence is expected: its keys are thrown
 * away when it stops, so that is said as fine, not as a problem to fix.
 */
export async function checkRedis({ redis }: Pick<Ctx, 'redis'>, say: Say, demo = false): Promise<Finding[]> {
  let info: Map<string, string>;
  try {
    info = parseInfo(await redis.info());
  } catch (err) {
    return [
      problem(CHECK, say('redis.no-answer', { error: (err as Error).message }), say('redis.no-answer.fix')),
    ];
  }
  const out: Finding[] = [];
  const version = info.get('redis_version') ?? '0';
  if (!versionAtLeast(version, [6, 2]))
    out.push(problem(CHECK, say('redis.too-old', { version }), say('redis.too-old.fix')));
  const policy = info.get('maxmemory_policy') ?? (await configValue(redis, 'maxmemory-policy'));
  if (policy !== 'noeviction')
    out.push(
      problem(
        CHECK,
        say('redis.evicting', { policy: policy ?? say('redis.policy-unknown') }),
        say('redis.evicting.fix'),
      ),
    );
  const aof = info.get('aof_enabled') === '1';
  const save = aof ? undefined : await configValue(redis, 'save');
  if (!aof && !save && demo) out.push(ok(CHECK, say('redis.demo-no-persistence', { version })));
  else if (!aof && !save)
    out.push(
      problem(
        CHECK,
        say(save === '' ? 'redis.no-persistence' : 'redis.persistence-unknown'),
        say('redis.persistence.fix'),
      ),
    );
  if (!out.length)
    out.push(
      ok(CHECK, aof ? say('redis.ok-aof', { version }) : say('redis.ok-rdb', { version, save: save ?? '' })),
    );
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
