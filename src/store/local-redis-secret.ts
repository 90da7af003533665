import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { ConfigError } from '../config.ts';

/**
 * Issue 45 item 4: the bot's own Redis is closed to the machine's other users. Its folder (data
 * and password) is 0700, and it takes clients only with a password the bot generated once and
 * keeps in `<dir>/password` (0600), so a restart — or the other ROLE's process — reuses it.
 */

/** A generated Redis password: 48 hex digits, nothing a URL or a config line has to escape. */
export const newRedisPassword = (): string => randomBytes(24).toString('hex');

const PASSWORD = /^[0-9a-f]{48}$/;

/** Makes `dir` (and its parents) and closes it to everyone but the bot: 0700, also when it existed. */
export function ownFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // An older release made it 0755 (and Redis's files in it 0644).
  chmodSync(dir, 0o700);
}

/**
 * The password of the bot's own Redis in `dir`: read from `dir/password`, or made and written
 * there (0600, created exclusively, never through a link) the first time. A file that is not the
 * bot's — a link, another shape — stops start-up rather than being trusted or overwritten.
 */
export function localRedisPassword(dir: string): string {
  ownFolder(dir);
  const file = join(dir, 'password');
  const made = newRedisPassword();
  try {
    const fd = openSync(
      file,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      writeSync(fd, `${made}\n`);
    } finally {
      closeSync(fd);
    }
    return made;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const stat = lstatSync(file);
  const kept = stat.isFile() ? readFileSync(file, 'utf8').trim() : '';
  if (!PASSWORD.test(kept))
    throw new ConfigError(
      `Bad local Redis password file ${file}: not one the bot wrote; remove it (a new password is made) or set REDIS_URL`,
    );
  if (stat.mode & 0o077) chmodSync(file, 0o600);
  return kept;
}

/** The password kept in `dir/password` when the bot wrote one there; never makes one. */
export function keptRedisPassword(dir: string): string | undefined {
  try {
    const file = join(dir, 'password');
    if (!lstatSync(file).isFile()) return undefined;
    const kept = readFileSync(file, 'utf8').trim();
    return PASSWORD.test(kept) ? kept : undefined;
  } catch {
    return undefined;
  }
}

/** What answers at a loopback address, as the bot's own Redis would be told apart from others. */
export type LocalRedisFound = 'nothing' | 'own' | 'foreign';

/**
 * Whether `host:port` is the bot's own Redis: one that refuses a client without a password
 * (NOAUTH) and takes `password`. A Redis that answers without one, or takes another password, is
 * someone else's and is never used unless `REDIS_URL` names it. Never retries, never throws.
 */
export async function localRedisAt(port: number, password: string): Promise<LocalRedisFound> {
  const r = new Redis({
    host: '127.0.0.1',
    port,
    lazyConnect: true,
    enableReadyCheck: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: 1000,
  });
  r.on('error', () => {});
  try {
    await r.connect();
  } catch {
    return 'nothing';
  }
  try {
    // Something listens: it is ours only if it wants a password and takes this one.
    const asked = await r.call('PING').then(
      () => 'open',
      (err: Error) => (/^NOAUTH/.test(err.message) ? 'closed' : 'other'),
    );
    if (asked !== 'closed') return 'foreign';
    const taken = await r.call('AUTH', password).then(
      (answer) => answer === 'OK',
      () => false,
    );
    return taken ? 'own' : 'foreign';
  } finally {
    r.disconnect();
  }
}
