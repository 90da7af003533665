import type { Context } from 'hono';
import type { Config } from '../config.ts';

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) and `10.0.0.1` are one address. */
const plain = (address: string) => address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/** The connection's peer address. */
function peerOf(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return plain(incoming?.socket?.remoteAddress ?? 'unknown');
}

/**
 * The host a request was sent to, for same-origin checks: `X-Forwarded-Host` only from a peer in
 * `TRUSTED_PROXIES` (the proxy's word for what the browser asked), else `Host`. Anyone can send
 * the header; believed from anyone, it would let a request name its own origin as ours.
 */
export function requestHost(c: Context, config: Pick<Config, 'TRUSTED_PROXIES'>): string | undefined {
  const forwarded = c.req.header('x-forwarded-host');
  if (forwarded && config.TRUSTED_PROXIES.map(plain).includes(peerOf(c))) return forwarded;
  return c.req.header('host');
}

/** At most this many `X-Forwarded-For` hops are looked at (a long header costs nothing more). */
const MAX_HOPS = 20;

/**
 * The address a request came from (issue 31). The connection's peer, unless that peer is one of
 * `TRUSTED_PROXIES`: then the nearest `X-Forwarded-For` entry that is not itself a trusted proxy
 * (entries further left are whatever the client claimed). Without trusted proxies the header is
 * never read: anyone can send it.
 */
export function clientAddress(c: Context, config: Pick<Config, 'TRUSTED_PROXIES'>): string {
  const peer = peerOf(c);
  const trusted = new Set(config.TRUSTED_PROXIES.map(plain));
  if (!trusted.has(peer)) return peer;
  const hops = (c.req.header('x-forwarded-for') ?? '').split(',').slice(-MAX_HOPS).map(plain).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (!trusted.has(hop)) return hop;
  }
  return peer;
}
