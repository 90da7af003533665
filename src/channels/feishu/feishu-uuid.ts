import { createHash } from 'node:crypto';

/**
 * Feishu's send/reply `uuid` (at most 50 characters): Feishu drops a second message with the same
 * uuid within an hour, so a retry after a lost answer never posts twice. Derived from the
 * outbox's idempotency key, so every retry of one effect carries the same uuid.
 */
export function feishuUuid(key: string): string {
  return `sy-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}
