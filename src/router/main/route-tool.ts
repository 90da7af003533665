import { z } from 'zod';
import type { Runtime } from '../../runtime.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import type { MainBatch } from './batch.ts';
import { applyDecision, checkDecision } from './decide.ts';
import { DecisionSchema } from './decision.ts';

/**
 * `orchestrator_route` (R-B1): decides several waiting candidates in one call. Every decision is
 * checked first; if any breaks a rule the whole call is refused and nothing happens (CONTRACT).
 */
export function routeTool(rt: Runtime, batch: MainBatch) {
  return defineTool({
    name: 'orchestrator_route',
    description:
      'Route waiting candidate cards: open a ticket, attach to the ticket the card explicitly references, or ignore. Decide all waiting candidates in one call. A note is at most 30 words.',
    parameters: z.object({ decisions: z.array(DecisionSchema).min(1) }),
    async run({ decisions }, call) {
      const seen = new Set<string>();
      const checked = [];
      const errors: string[] = [];
      for (const d of decisions) {
        if (seen.has(d.card)) errors.push(`card ${d.card} appears twice`);
        seen.add(d.card);
        const c = await checkDecision(rt, batch, d);
        if (c.ok) checked.push(c);
        else errors.push(c.error);
      }
      if (errors.length) return toolError(`refused, nothing was routed:\n- ${errors.join('\n- ')}`);
      const lines = [];
      for (const c of checked) lines.push(await applyDecision(rt, batch, c, call.sessionId));
      const left = [...batch.cards.keys()].filter((id) => !batch.decided.has(id));
      if (left.length) lines.push(`still undecided: ${left.join(', ')}`);
      return toolOk(lines.join('\n'));
    },
  });
}
