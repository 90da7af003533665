import type { Ctx } from '../context.ts';
import type { TriggerCard } from './card.ts';
import { recordCardFate } from './event-log.ts';

type FateCtx = Pick<Ctx, 'redis' | 'keys' | 'log' | 'now'>;

/** `IngestResult`'s shape as far as the inbox needs it (`ingest.ts` imports this file). */
type Ingested =
  | { kind: 'new' }
  | { kind: 'duplicate'; cardId: string }
  | { kind: 'rate_limited'; scope: 'author' | 'place' };

/**
 * Issue 33 item 2: what ingest made of an event, in the events inbox. A new card is `received`
 * (written only if routing has not placed it yet); a redelivery gets its own `dup-…` entry beside
 * the original's; a replay or an event about a stale object is a `duplicate` under its own id,
 * linked to the card it repeats; a rate-limited one is `refused` (nothing was stored).
 */
export function noteIngested(
  ctx: FateCtx,
  card: TriggerCard,
  result: Ingested,
  stale: boolean,
): Promise<void> {
  switch (result.kind) {
    case 'new':
      return recordCardFate(ctx, card, { fate: 'received' }, { ifAbsent: true });
    case 'rate_limited': {
      const who = result.scope === 'author' ? 'its author' : 'its repository or chat';
      return recordCardFate(
        ctx,
        card,
        {
          fate: 'refused',
          reason: `rate limit: ${who} sent more cards this minute than allowed; nothing was stored`,
        },
        { cardId: null },
      );
    }
    case 'duplicate':
      if (stale)
        return recordCardFate(
          ctx,
          card,
          { fate: 'duplicate', reason: 'replay: the object last changed before the dedupe window' },
          { cardId: null },
        );
      if (result.cardId !== card.id)
        return recordCardFate(
          ctx,
          card,
          {
            fate: 'duplicate',
            reason: `replay: the same body as card ${result.cardId} under a new delivery id`,
          },
          { cardId: result.cardId },
        );
      return recordCardFate(
        ctx,
        card,
        { fate: 'duplicate', reason: `redelivery: the same delivery as card ${card.id}` },
        { id: `dup-${card.id}` },
      );
  }
}
