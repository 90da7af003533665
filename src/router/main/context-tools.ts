import { z } from 'zod';
import { artifactsView } from '../../artifacts/artifacts-view.ts';
import { loadCard } from '../../cards/ingest.ts';
import { renderCard } from '../../cards/render-card.ts';
import { projectTree } from '../../executor/workspace/project-tree.ts';
import { getPolicy, listVersions, readPromptsForTool } from '../../prompts/index.ts';
import type { Runtime } from '../../runtime.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { ownersOf } from '../../tickets/ownership.ts';
import { getPause } from '../../tickets/pause.ts';
import { isTicketId } from '../../tickets/ticket-id.ts';
import { getTicket, listTickets, ticketAttachments } from '../../tickets/ticket-store.ts';
import { resolveTickets } from '../resolve-tickets.ts';
import type { MainBatch } from './batch.ts';

const json = (v: unknown) => toolOk(JSON.stringify(v, null, 1));

/**
 * `orchestrator_eval` (R-B4): a candidate's context — owners, hand-back reasons, tickets its
 * references match, the tickets open in its conversation — not a copy of the admission text.
 */
export function evalTool(rt: Runtime, batch: MainBatch) {
  return defineTool({
    name: 'orchestrator_eval',
    description:
      "A candidate's routing context: its owners and their hand-back reasons, the tickets its references match, and open tickets in its conversation.",
    parameters: z.object({ card: z.string() }),
    async run({ card: id }) {
      const card = batch.cards.get(id);
      if (!card) return toolError(`card ${id} is not a waiting candidate of this turn`);
      const matches = Object.fromEntries(await resolveTickets(rt.ctx, card));
      const owners = await ownersOf(rt.ctx, id);
      const sameConversation = (await listTickets(rt.ctx, 200))
        .filter((t) => t.conversation === card.conversation && t.state !== 'done' && t.state !== 'cancelled')
        .map((t) => ({ id: t.id, title: t.title, state: t.state }));
      return json({
        card: id,
        owners,
        handback_reasons: batch.reasons.get(id) ?? {},
        reference_matches: matches,
        open_tickets_in_conversation: sameConversation,
      });
    },
  });
}

/**
 * `orchestrator_read`: tickets, one ticket, prompts (with `default_changed`), policy, versions,
 * artifacts. It only reads: reloading the artifacts is `orchestrator_reload` (issue 30).
 */
export function readTool(rt: Runtime) {
  return defineTool({
    name: 'orchestrator_read',
    description:
      'Read tickets, one ticket (with its cards), the prompt settings (with default_changed), the policy, the prompt versions, or the artifacts (roles, skills, crews, workflows: which tier won; id: a ticket for its repository). Reading changes nothing.',
    parameters: z.object({
      what: z.enum(['tickets', 'ticket', 'prompts', 'policy', 'versions', 'card', 'artifacts']),
      id: z.string().optional().describe('ticket id, card id, or prompt section key'),
    }),
    async run({ what, id }) {
      switch (what) {
        case 'tickets':
          return json(
            (await listTickets(rt.ctx, 50)).map((t) => ({
              id: t.id,
              title: t.title,
              state: t.state,
              conversation: t.conversation,
            })),
          );
        case 'ticket': {
          if (id && !isTicketId(id))
            return toolError(`${id} is not a ticket id: T followed by its number, like T12`);
          const t = id ? await getTicket(rt.ctx, id) : undefined;
          if (!t || !id) return toolError(`no ticket ${id ?? '(no id given)'}`);
          return json({
            ...t,
            pause: (await getPause(rt.ctx, id)) ?? null,
            cards: await ticketAttachments(rt.ctx, id),
          });
        }
        case 'card': {
          const c = id ? await loadCard(rt.ctx, id) : undefined;
          return c ? toolOk(renderCard(c)) : toolError(`no card ${id ?? '(no id given)'}`);
        }
        case 'prompts':
          return json(await readPromptsForTool(rt.prompts, id));
        case 'policy':
          return json(await getPolicy(rt.prompts));
        case 'versions':
          return json(await listVersions(rt.prompts));
        case 'artifacts':
          return json(await artifactsView(rt, id, id ? projectTree(rt.ctx, id) : undefined));
      }
    },
  });
}
