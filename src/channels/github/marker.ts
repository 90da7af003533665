import { createHash } from 'node:crypto';

/**
 * GitHub has no idempotency keys, so every comment the bot creates carries a hidden marker made
 * from its outbox key; a retry looks for it before posting again (no comment twice).
 */
export function markerOf(key: string): string {
  return `<!-- switchyard:${createHash('sha256').update(key).digest('hex').slice(0, 20)} -->`;
}

/** The body as posted: the text, then the invisible marker. */
export function withMarker(body: string, key: string): string {
  return `${body}\n\n${markerOf(key)}`;
}
