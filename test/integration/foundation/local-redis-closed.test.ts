import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config.ts';
import {
  findOrStartRedis,
  redisUrlOfStart,
  type StartedRedis,
  withLocalRedis,
} from '../../../src/store/local-redis-server.ts';
import { freePort, redisAnswersAt } from '../../kit/local-net.ts';
import { type LocalRedis, startRedisServer } from '../../kit/redis-server.ts';

/**
 * Issue 45 item 4: the Redis the bot starts for itself (`npm start` without REDIS_URL, the demo)
 * is closed to the machine's other users — a generated password kept 0600 in a 0700 folder, its
 * data folder 0700 — and a Redis the bot did not start is never adopted without REDIS_URL.
 * In-process: `withLocalRedis` is what `src/main.ts` calls before anything else.
 */

const mode = (path: string) => statSync(path).mode & 0o777;

let work: string;
const running: StartedRedis[] = [];
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'sy-own-redis-'));
});
afterEach(async () => {
  for (const r of running.splice(0)) await r.stop();
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the bot’s own Redis (issue 45 item 4)', () => {
  it('npm run doctor checks the Redis npm start would use: REDIS_URL, else its own on 6380 with the kept password, making nothing', () => {
    const dir = join(work, 'doctor', 'data', 'redis');
    expect(redisUrlOfStart({ REDIS_URL: 'redis://elsewhere:6379' }, dir)).toBe('redis://elsewhere:6379');
    // Beside a system Redis on 6379 (Debian's service, which npm run setup installs).
    expect(redisUrlOfStart({}, dir)).toBe('redis://127.0.0.1:6380');
    expect(() => statSync(dir)).toThrow();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const kept = 'ab'.repeat(24);
    writeFileSync(join(dir, 'password'), `${kept}\n`, { mode: 0o600 });
    expect(redisUrlOfStart({ LOCAL_REDIS_PORT: '7001' }, dir)).toBe(`redis://:${kept}@127.0.0.1:7001`);
    expect(() => redisUrlOfStart({ LOCAL_REDIS_PORT: 'x' }, dir)).toThrow(ConfigError);
  });

  it('a Redis another user started on LOCAL_REDIS_PORT is not adopted: start-up stops and says to name it in REDIS_URL', async () => {
    let theirs: LocalRedis | undefined;
    try {
      theirs = await startRedisServer(['--save', '', '--appendonly', 'no']);
      const dir = join(work, 'foreign', 'data', 'redis');
      const tried = withLocalRedis({ LOCAL_REDIS_PORT: String(theirs.port) }, dir);
      await expect(tried).rejects.toBeInstanceOf(ConfigError);
      await expect(tried).rejects.toThrow(/did not start answers at 127\.0\.0\.1:\d+.*REDIS_URL/);
      // Nothing of the bot's went there.
      const r = new Redis(theirs.url);
      expect(await r.dbsize()).toBe(0);
      r.disconnect();
    } finally {
      await theirs?.stop();
    }
  });

  it('starts redis-server with a generated password (0600 in a 0700 folder), data 0700; a restart and the other process reuse it', async () => {
    const port = await freePort();
    const dir = join(work, 'own', 'data', 'redis');
    // An older release's folder, open to everyone.
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    const first = await withLocalRedis({ LOCAL_REDIS_PORT: String(port) }, dir);
    if (!first.started) throw new Error('nothing was started');
    running.push(first.started);
    const password = readFileSync(join(dir, 'password'), 'utf8').trim();
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'password'))).toBe(0o600);
    expect(first.env.REDIS_URL).toBe(`redis://:${password}@127.0.0.1:${port}`);
    // Closed without the password, open with it; the password is nowhere on its command line.
    expect(await redisAnswersAt(`redis://127.0.0.1:${port}`)).toBe(false);
    expect(await redisAnswersAt(first.env.REDIS_URL ?? '')).toBe(true);
    const cmdline = readFileSync(`/proc/${first.started.child.pid}/cmdline`, 'utf8');
    expect(cmdline).not.toContain(password);
    const r = new Redis(first.env.REDIS_URL ?? '');
    await r.set('sy-own-redis-probe', 'kept');
    r.disconnect();

    // The other ROLE's process (or a restart while it runs) finds the bot's own and starts nothing.
    const sibling = await withLocalRedis({ LOCAL_REDIS_PORT: String(port) }, dir);
    expect(sibling.started).toBeUndefined();
    expect(sibling.env.REDIS_URL).toBe(first.env.REDIS_URL);

    // A restart after it stopped starts it again with the same password and its data.
    await running.splice(0)[0]?.stop();
    const again = await withLocalRedis({ LOCAL_REDIS_PORT: String(port) }, dir);
    if (!again.started) throw new Error('nothing was started again');
    running.push(again.started);
    expect(again.env.REDIS_URL).toBe(first.env.REDIS_URL);
    const back = new Redis(again.env.REDIS_URL ?? '');
    expect(await back.get('sy-own-redis-probe')).toBe('kept');
    back.disconnect();
  });

  it('a password file the bot did not write stops start-up instead of being trusted', async () => {
    const dir = join(work, 'planted', 'data', 'redis');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'password'), 'hunter2\n');
    await expect(withLocalRedis({ LOCAL_REDIS_PORT: String(await freePort()) }, dir)).rejects.toThrow(
      /Bad local Redis password file/,
    );
  });

  it('the demo without REDIS_URL starts a throwaway Redis with a password, even where 6379 answers', async () => {
    const dir = join(work, 'demo');
    const found = await findOrStartRedis(undefined, dir);
    if (!found.started) throw new Error('the demo adopted a Redis it did not start');
    running.push(found.started);
    expect(found.url).toMatch(/^redis:\/\/:[0-9a-f]{48}@127\.0\.0\.1:\d+$/);
    expect(await redisAnswersAt(`redis://127.0.0.1:${found.started.port}`)).toBe(false);
    expect(await redisAnswersAt(found.url)).toBe(true);
    expect(mode(dir)).toBe(0o700);
  });
});
