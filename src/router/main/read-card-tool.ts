import { z } from 'zod';
import { cardTextPage } from '../../cards/card-text.ts';
import type { Runtime } from '../../runtime.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import type { MainBatch } from './batch.ts';

/**
 * The main session's `read_card({ card, offset?, limit? })` (R-H6): the whole text of a card it is
 * routing in this turn, a page at a time. Other cards are refused in code.
 */
export function mainReadCardTool(rt: Runtime, batch: MainBatch) {
  return defineTool({
    name: 'read_card',
    description:
      'Read the whole text of a candidate card of this turn (a truncated card shows only its start). Returns up to 16000 characters from offset (default 0); when more remains the answer ends with the offset to call again with.',
    parameters: z.object({
      card: z.string().min(1),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(16_000).optional(),
    }),
    async run({ card, offset, limit }) {
      if (!batch.cards.has(card)) return toolError(`refused: ${card} is not a candidate of this turn`);
      const page = await cardTextPage(rt.ctx, card, offset, limit);
      return page ? toolOk(page) : toolError(`no card ${card} (expired or unknown)`);
    },
  });
}
