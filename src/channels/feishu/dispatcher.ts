import type { z } from 'zod';
import { HttpError } from '../../errors/http-error.ts';
import type { Logger } from '../../logger.ts';
import { CardActionEventSchema, MessageEventSchema } from './event-schemas.ts';
import type { FeishuFacts } from './facts.ts';
import { larkLogger } from './lark-client.ts';
import { larkSdk } from './lark-sdk.ts';
import { parseCardAction } from './parse-card-action.ts';
import { type MessageParseOutcome, parseMessageEvent } from './parse-message-event.ts';

/**
 * What one verified event comes to (the channels' `ParseOutcome`): a card for ingest, or nothing;
 * `answer` is the HTTP body. A payload of the wrong shape is a 400 (`HttpError`), never an outcome.
 */
export type FeishuOutcome = MessageParseOutcome & { answer: Record<string, unknown> };

export interface FeishuDispatcher {
  dispatch(body: Record<string, unknown>): Promise<FeishuOutcome>;
}

/**
 * Hands verified, decrypted events to the SDK's `EventDispatcher` (R-A1), which routes them by
 * event type; our handlers only validate and parse, so `invoke` resolves without I/O. Its own
 * signature check is off (`needCheck: false`): `openFeishuEnvelope` already did a stricter one.
 */
export function createFeishuDispatcher(facts: () => FeishuFacts, log: Logger): FeishuDispatcher {
  const { EventDispatcher, LoggerLevel } = larkSdk();
  const sdk = new EventDispatcher({ logger: larkLogger(log), loggerLevel: LoggerLevel.error }).register<{
    'card.action.trigger': (data: unknown) => FeishuOutcome;
  }>({
    'im.message.receive_v1': async (data: unknown): Promise<FeishuOutcome> => {
      const parsed = await parseMessageEvent(validated(MessageEventSchema, data), facts());
      return { ...parsed, answer: {} };
    },
    'card.action.trigger': (data: unknown): FeishuOutcome => {
      const draft = parseCardAction(validated(CardActionEventSchema, data), facts());
      // Feishu shows a toast to the person who pressed; outsiders get their one polite sentence (R-A5).
      const answer =
        draft.author.role === 'not_allowed'
          ? {
              toast: {
                type: 'warning',
                content: 'Only people allowed to work with this bot can use its buttons.',
              },
            }
          : {};
      return { kind: 'card', draft, answer };
    },
  });
  return {
    async dispatch(body) {
      // The SDK routes by this value and puts it into strings: a type that is not a string (an
      // object whose `toString` is not a function) would throw there, a 500 instead of a 400.
      const type = eventTypeOf(body);
      if (type !== undefined && typeof type !== 'string')
        throw new HttpError(400, 'malformed_event', 'event type: expected a string');
      const out: unknown = await sdk.invoke(body, { needCheck: false });
      if (out && typeof out === 'object' && 'kind' in out) return out as FeishuOutcome;
      // The SDK answers a string for event types without a handler: acknowledged, nothing stored.
      return { kind: 'ignored', reason: typeof out === 'string' ? out : 'unhandled event', answer: {} };
    },
  };
}

/** Where the SDK reads an event's type: `header.event_type` (schema 2.0), else `event.type`. */
function eventTypeOf(body: Record<string, unknown>): unknown {
  const part = (v: unknown, key: string) =>
    v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
  return 'schema' in body ? part(body.header, 'event_type') : part(body.event, 'type');
}

function validated<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const r = schema.safeParse(data);
  if (!r.success) {
    const first = r.error.issues[0];
    throw new HttpError(
      400,
      'malformed_event',
      `event field ${first?.path.join('.') ?? '?'}: ${first?.message ?? 'invalid'}`,
    );
  }
  return r.data;
}
