import type { Ctx } from '../context.ts';
import { cardIdFor } from './build-card.ts';
import type { CardSource } from './card.ts';
import type { EventEntry } from './event-fate.ts';
import { recordEvent } from './event-log.ts';

type EdgeCtx = Pick<Ctx, 'redis' | 'keys' | 'log' | 'now'>;

/** What the HTTP edge knows of a verified event it made no card of. */
export interface EdgeEvent {
  channel: CardSource;
  /** The delivery or event id (GitHub `X-GitHub-Delivery`, Feishu `header.event_id`). */
  eventId: string;
  /** `issue_comment.deleted`, `im.message.receive_v1`, … */
  kind: string;
  repo?: string | undefined;
  chat?: string | undefined;
  person?: string | undefined;
}

/**
 * Issue 33 item 2: a verified event the channel's parser ignored (an event type or action we
 * don't handle, group chatter without a mention) goes into the events inbox under the id its card
 * would have had, so a redelivery of it is one entry.
 */
export function noteIgnoredEvent(ctx: EdgeCtx, e: EdgeEvent, reason: string): Promise<void> {
  const now = ctx.now();
  const entry: EventEntry = {
    id: cardIdFor(e.channel, e.eventId),
    at: now,
    updatedAt: now,
    channel: e.channel,
    kind: e.kind,
    ...(e.repo ? { repo: e.repo } : {}),
    ...(e.chat ? { chat: e.chat } : {}),
    ...(e.person ? { person: e.person } : {}),
    fate: 'ignored',
    reason,
  };
  return recordEvent(ctx, entry);
}

const MINUTE_MS = 60_000;

/**
 * Issue 33 item 2: a webhook refused before anything in it could be trusted (a missing or wrong
 * signature, a stale timestamp) is shown as `refused` too — but its sender is unknown, so anyone
 * could send these: at most one entry per channel and minute (the newest reason), never a flood
 * that pushes real events out of the capped inbox. Nothing of its body is kept.
 */
export function noteRefusedDelivery(ctx: EdgeCtx, channel: CardSource, reason: string): Promise<void> {
  const now = ctx.now();
  const minute = Math.floor(now / MINUTE_MS);
  return recordEvent(ctx, {
    id: `refused-${channel}-${minute}`,
    at: minute * MINUTE_MS,
    updatedAt: now,
    channel,
    kind: 'webhook',
    fate: 'refused',
    reason,
  });
}
