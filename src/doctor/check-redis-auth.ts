import type { Config } from '../config.ts';
import { redisAnswersAt } from '../store/local-redis-server.ts';
import { parseRedisUrl } from '../store/redis-url.ts';
import type { Say } from './doctor-text.ts';
import { type Finding, problem } from './finding.ts';

/**
 * Issue 45 item 4: a Redis that answers a client sending no password is open to whoever reaches
 * it — every chat's text, and the queues whose jobs act with the bot's credentials. The doctor
 * asks the node `REDIS_URL` names (a cluster's first seed) with its credentials left out; a
 * Sentinel group's primary is found through Sentinel and not asked here.
 */
export async function checkRedisAuth(config: Pick<Config, 'REDIS_URL'>, say: Say): Promise<Finding[]> {
  const bare = withoutCredentials(config.REDIS_URL);
  if (!bare || !(await redisAnswersAt(bare.url))) return [];
  return [problem('redis', say('redis.no-auth', { address: bare.address }), say('redis.no-auth.fix'))];
}

/** The one node to ask, as a URL without user or password, and its `host:port` to name. */
function withoutCredentials(value: string): { url: string; address: string } | undefined {
  const target = parseRedisUrl(value);
  const scheme = target.tls ? 'rediss' : 'redis';
  if (target.kind === 'single') {
    const { host } = new URL(target.url);
    return { url: `${scheme}://${host}`, address: host };
  }
  const first = target.kind === 'cluster' ? target.nodes[0] : undefined;
  if (!first) return undefined;
  const address = `${first.host.includes(':') ? `[${first.host}]` : first.host}:${first.port}`;
  return { url: `${scheme}://${address}`, address };
}
