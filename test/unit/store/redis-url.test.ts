import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { secretValuesOf } from '../../../src/redact-log.ts';
import { parseRedisUrl } from '../../../src/store/redis-url.ts';

/** Issue 19: what REDIS_URL may name — one Redis, a Cluster, a Sentinel group. */
describe('parseRedisUrl (issue 19)', () => {
  it('one Redis, with its password and TLS', () => {
    expect(parseRedisUrl('redis://:s3cret@10.0.0.1:6380/2')).toEqual({
      kind: 'single',
      url: 'redis://:s3cret@10.0.0.1:6380/2',
      password: 's3cret',
      tls: false,
    });
    expect(parseRedisUrl('rediss://user:p%40ss@cache.example:6379')).toMatchObject({
      kind: 'single',
      username: 'user',
      password: 'p@ss',
      tls: true,
    });
  });

  it('a cluster from redis+cluster:// seeds or from a list of redis:// URLs', () => {
    expect(parseRedisUrl('redis+cluster://:pw@a:7000,b:7001,[::1]:7002')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'a', port: 7000 },
        { host: 'b', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      password: 'pw',
      tls: false,
    });
    expect(parseRedisUrl('rediss://:pw@a:7000, rediss://b:7001')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'a', port: 7000 },
        { host: 'b', port: 7001 },
      ],
      password: 'pw',
      tls: true,
    });
    expect(parseRedisUrl('redis+cluster://a')).toMatchObject({ nodes: [{ host: 'a', port: 6379 }] });
  });

  it('a Sentinel group: its sentinels, the primary’s name, the database and the sentinels’ own password', () => {
    expect(parseRedisUrl('redis+sentinel://:pw@s1:26379,s2:26380/mymaster/3?sentinelPassword=sp')).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26380 },
      ],
      name: 'mymaster',
      db: 3,
      password: 'pw',
      sentinelPassword: 'sp',
      tls: false,
    });
  });

  it('refuses what it cannot connect to, with the reason and never the password', () => {
    const refusals: [string, RegExp][] = [
      ['http://localhost:6379', /must start with redis:\/\//],
      ['redis+sentinel://s1:26379', /names no primary/],
      ['redis+cluster://a:7000,b:7001/2', /database 0 only/],
      ['redis+cluster://a:7000,,b:7001', /not host:port/],
      ['redis+cluster://a:notaport', /not host:port/],
      ['redis://:pw@a:1,rediss://b:2', /mixes redis:\/\/ and rediss:\/\//],
      ['redis://:topsecret@a:1,http://b:2', /not a redis:\/\/ URL/],
    ];
    for (const [url, reason] of refusals) {
      expect(() => parseRedisUrl(url), url).toThrow(reason);
      try {
        parseRedisUrl(url);
      } catch (err) {
        expect(String(err)).not.toContain('topsecret');
      }
    }
  });
});

describe('REDIS_URL and KEY_PREFIX in the config (issue 19)', () => {
  const base = { ADMIN_TOKEN: 'x'.repeat(40) };
  it('on a cluster KEY_PREFIX must be hash-tagged, so every multi-key script has its keys in one slot', () => {
    expect(() => loadConfig({ ...base, REDIS_URL: 'redis+cluster://a:7000,b:7001' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, REDIS_URL: 'redis+cluster://a:7000,b:7001' })).toThrow(
      /KEY_PREFIX.*hash tag on Redis Cluster, e\.g\. \{sy\}/s,
    );
    expect(loadConfig({ ...base, REDIS_URL: 'redis+cluster://a:7000', KEY_PREFIX: '{sy}' }).KEY_PREFIX).toBe(
      '{sy}',
    );
    expect(loadConfig({ ...base, KEY_PREFIX: '{team}-bot' }).KEY_PREFIX).toBe('{team}-bot');
  });

  it('refuses a malformed prefix and an unparsable REDIS_URL, naming the variable', () => {
    for (const KEY_PREFIX of ['{sy', 'sy}', '{}', 'a{b}', 'has space'])
      expect(() => loadConfig({ ...base, KEY_PREFIX }), KEY_PREFIX).toThrow(/KEY_PREFIX/);
    expect(() => loadConfig({ ...base, REDIS_URL: 'redis+sentinel://s:1' })).toThrow(
      /REDIS_URL.*names no primary/s,
    );
  });

  it('the log scrubber knows the password of every form', () => {
    for (const REDIS_URL of [
      'redis://:pw-single-1@h:1',
      'redis+cluster://:pw-cluster-2@a:1,b:2',
      'redis+sentinel://:pw-sentinel-3@s:1/m',
    ]) {
      const secret = /pw-[a-z]+-\d/.exec(REDIS_URL)?.[0];
      expect(secretValuesOf({ REDIS_URL })).toContain(secret);
    }
  });
});
