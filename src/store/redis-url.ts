/**
 * What `REDIS_URL` names (issue 19): one Redis, a Redis Cluster, or a primary found through
 * Sentinel. The forms:
 *
 * - `redis://[user:password@]host:port[/db]` (`rediss://` for TLS): one Redis;
 * - `redis+cluster://[user:password@]host:port,host:port,…` (`rediss+cluster://`), or a list of
 *   `redis://` URLs separated by commas: a Redis Cluster, found from those seed nodes;
 * - `redis+sentinel://[user:password@]host:port,host:port,…/primary-name[/db][?sentinelPassword=…]`
 *   (`rediss+sentinel://`): the primary that Sentinel names, followed across fail-overs.
 */
export interface RedisAuth {
  username?: string;
  password?: string;
  tls: boolean;
}

export interface RedisNode {
  host: string;
  port: number;
}

export type RedisTarget =
  | ({ kind: 'single'; url: string } & RedisAuth)
  | ({ kind: 'cluster'; nodes: RedisNode[] } & RedisAuth)
  | ({
      kind: 'sentinel';
      sentinels: RedisNode[];
      name: string;
      db: number;
      sentinelPassword?: string;
    } & RedisAuth);

export class RedisUrlError extends Error {}

const SCHEME = /^(rediss?)(\+cluster|\+sentinel)?:\/\//;

/** Parses `REDIS_URL`; a `RedisUrlError` says what is wrong, never quoting the password. */
export function parseRedisUrl(value: string): RedisTarget {
  const scheme = SCHEME.exec(value);
  if (!scheme)
    throw new RedisUrlError('must start with redis://, rediss://, redis+cluster:// or redis+sentinel://');
  const tls = scheme[1] === 'rediss';
  if (scheme[2] === '+cluster') return { kind: 'cluster', ...clusterOf(value.slice(scheme[0].length), tls) };
  if (scheme[2] === '+sentinel') return sentinelOf(value.slice(scheme[0].length), tls);
  if (value.includes(',')) return clusterOfUrls(value);
  if (!URL.canParse(value)) throw new RedisUrlError('is not a valid URL');
  return { kind: 'single', url: value, ...authOf(new URL(value)), tls };
}

/** The password `REDIS_URL` carries, if any (for the log scrubber); undefined when it does not parse. */
export function redisPasswordOf(value: string): string | undefined {
  try {
    return parseRedisUrl(value).password;
  } catch {
    return undefined;
  }
}

function authOf(url: URL): Omit<RedisAuth, 'tls'> {
  return {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
  };
}

/** `[user:password@]host:port,host:port[/…][?…]`, read with the URL parser one host at a time. */
function splitHosts(rest: string): {
  auth: Omit<RedisAuth, 'tls'>;
  hosts: RedisNode[];
  path: string;
  query: string;
} {
  const at = rest.lastIndexOf('@', rest.search(/[/?]|$/));
  const authPart = at >= 0 ? rest.slice(0, at) : '';
  const tail = at >= 0 ? rest.slice(at + 1) : rest;
  const end = tail.search(/[/?]|$/);
  const hostList = tail.slice(0, end);
  const [path = '', query = ''] = tail.slice(end).split('?');
  const auth = authPart ? authOf(new URL(`redis://${authPart}@h`)) : {};
  const hosts = hostList.split(',').map((h) => nodeOf(h.trim()));
  return { auth, hosts, path, query };
}

function nodeOf(hostPort: string): RedisNode {
  if (!hostPort || !URL.canParse(`redis://${hostPort}`))
    throw new RedisUrlError(`names a node that is not host:port (${JSON.stringify(hostPort.slice(0, 80))})`);
  const u = new URL(`redis://${hostPort}`);
  if (!u.hostname || u.pathname || u.username) throw new RedisUrlError('names a node that is not host:port');
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 6379) };
}

function clusterOf(rest: string, tls: boolean): { nodes: RedisNode[] } & RedisAuth {
  const { auth, hosts, path } = splitHosts(rest);
  if (path && path !== '/') throw new RedisUrlError('names a database: Redis Cluster has database 0 only');
  return { nodes: hosts, ...auth, tls };
}

/** `redis://a:1,redis://b:2`: the seed nodes of one cluster, sharing one password and scheme. */
function clusterOfUrls(value: string): RedisTarget {
  const urls = value.split(',').map((u) => u.trim());
  const parsed = urls.map((u) => {
    if (!/^rediss?:\/\//.test(u) || !URL.canParse(u))
      throw new RedisUrlError('lists a node that is not a redis:// URL');
    return new URL(u);
  });
  const tls = parsed.every((u) => u.protocol === 'rediss:');
  if (!tls && parsed.some((u) => u.protocol === 'rediss:'))
    throw new RedisUrlError('mixes redis:// and rediss:// nodes');
  const auth = authOf(parsed.find((u) => u.password || u.username) ?? (parsed[0] as URL));
  return { kind: 'cluster', nodes: parsed.map((u) => nodeOf(u.host)), ...auth, tls };
}

function sentinelOf(rest: string, tls: boolean): RedisTarget {
  const { auth, hosts, path, query } = splitHosts(rest);
  const [name, db = '0', ...more] = path.replace(/^\//, '').split('/');
  if (!name) throw new RedisUrlError('names no primary: redis+sentinel://host:port,…/primary-name');
  if (more.length || !/^\d+$/.test(db)) throw new RedisUrlError('has a path other than /primary-name[/db]');
  const sentinelPassword = new URLSearchParams(query).get('sentinelPassword') ?? undefined;
  return {
    kind: 'sentinel',
    sentinels: hosts,
    name: decodeURIComponent(name),
    db: Number(db),
    ...auth,
    tls,
    ...(sentinelPassword ? { sentinelPassword } : {}),
  };
}
