import type { EdgeEvent } from '../../cards/edge-events.ts';

const field = (v: unknown, key: string): unknown =>
  v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v.slice(0, 200) : undefined);

/**
 * Issue 33 item 2: what the events inbox shows of a verified GitHub delivery that made no card:
 * `event.action`, the repository and the sender, read loosely (an ignored event may have any shape).
 */
export function githubEdgeEvent(event: string, delivery: string, payload: unknown): EdgeEvent {
  const action = text(field(payload, 'action'));
  return {
    channel: 'github',
    eventId: delivery,
    kind: action ? `${event}.${action}` : event,
    repo: text(field(field(payload, 'repository'), 'full_name')),
    person: text(field(field(payload, 'sender'), 'login')),
  };
}
