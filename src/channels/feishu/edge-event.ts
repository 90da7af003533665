import type { EdgeEvent } from '../../cards/edge-events.ts';

const field = (v: unknown, key: string): unknown =>
  v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v.slice(0, 200) : undefined);

/**
 * Issue 33 item 2: what the events inbox shows of a verified Feishu event that made no card (group
 * chatter without a mention, an event type without a handler): its type, chat and sender's open_id,
 * read loosely. Undefined without an event id (schema 1.0 events are not filed).
 */
export function feishuEdgeEvent(body: Record<string, unknown>): EdgeEvent | undefined {
  const header = field(body, 'header');
  const eventId = text(field(header, 'event_id'));
  if (!eventId) return undefined;
  const event = field(body, 'event');
  return {
    channel: 'feishu',
    eventId,
    kind: text(field(header, 'event_type')) ?? 'event',
    chat: text(field(field(event, 'message'), 'chat_id')),
    person: text(field(field(field(event, 'sender'), 'sender_id'), 'open_id')),
  };
}
