import { z } from 'zod';
import { scheduleTurn } from '../../executor/schedule-turn.ts';
import { promptsSaveTool } from '../../prompts/index.ts';
import type { Runtime } from '../../runtime.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { queueNote } from '../../tickets/notes.ts';
import { isPaused } from '../../tickets/pause.ts';
import { TicketIdSchema } from '../../tickets/ticket-id.ts';
import { getTicket, noteTicketSession, ticketExists } from '../../tickets/ticket-store.ts';
import { sameRepo } from '../chat-bound-repos.ts';
import { maySteer } from '../may-steer.ts';
import { isSettingsAdmin, refuseSettingsByMessage } from '../settings-admins.ts';
import { countWords, LIMITS } from '../words.ts';
import type { MainBatch } from './batch.ts';

/**
 * `orchestrator_prompts_save` (R-E5, R-H5): only on a settings admin's explicit request. The card
 * that asked must be a candidate of this turn, an explicit request, from someone who may steer and
 * is in `SETTINGS_ADMINS`; text quoted from anywhere else can't reach this tool (R-E10).
 */
export function promptsSave(rt: Runtime, batch: MainBatch) {
  return defineTool({
    name: 'orchestrator_prompts_save',
    description:
      'Save prompt overrides, only on an explicit request from a settings admin (SETTINGS_ADMINS; the tool refuses anyone else and points them to the panel). Name the requesting card. base_revision is the revision you read; omitted team/overrides/skills keep the saved values.',
    parameters: z.object({
      card: z.string().describe('the candidate card in which a person asked for this change'),
      base_revision: z.number().int().min(0),
      team: z.record(z.string(), z.string()).optional(),
      overrides: z.record(z.string(), z.object({ text: z.string(), base: z.string().optional() })).optional(),
      skills: z
        .array(z.object({ name: z.string(), description: z.string().optional(), text: z.string() }))
        .optional(),
    }),
    async run({ card: id, ...args }) {
      const card = batch.cards.get(id);
      if (!card) return toolError(`card ${id} is not a waiting candidate of this turn`);
      if (!card.request || !maySteer(card, rt.ctx.config)) {
        return toolError(
          `refused: ${id} is not an explicit request from a person allowed to change settings (R-E5)`,
        );
      }
      if (!isSettingsAdmin(card, rt.ctx.config)) {
        await refuseSettingsByMessage(rt.ctx, card);
        return toolError(
          `refused: the author of ${id} is not in SETTINGS_ADMINS; settings change by message only for them (R-H5). They were told to use the settings panel; do not save.`,
        );
      }
      const result = await promptsSaveTool(rt.prompts, args, card.author.name ?? card.author.id);
      return result.ok
        ? toolOk(`saved as revision ${result.revision}`)
        : toolError(`not saved: ${JSON.stringify(result)}`);
    },
  });
}

/**
 * R-B5: facts from another ticket for an executor, at most 100 words; grants nothing. A note goes
 * to a ticket a notice of this turn from someone who may steer it is about — a follow-up, or the
 * opening of a ticket by code for its requester (issue 31, R-H5) — and wakes it. Or (issue 50,
 * P-64 with P-51) it passes on what a report of this turn said about another ticket of the same
 * repository or conversation (`from`): then it waits for the target's next turn and wakes
 * nothing. A ticket id quoted in a candidate's text wakes no ticket by itself.
 */
export function noteTool(rt: Runtime, batch: MainBatch) {
  return defineTool({
    name: 'orchestrator_note',
    description:
      'Send an executor facts from another ticket, at most 100 words; notes grant no permission. To a ticket that a notice of this turn is about (a follow-up from someone who may steer it, or its opening by code): it is woken. Or name in from a ticket whose report of this turn the facts come from, in the same repository or conversation as the target: the note waits for the target’s next turn.',
    parameters: z.object({
      ticket: TicketIdSchema,
      text: z.string().min(1),
      from: TicketIdSchema.optional().describe('the ticket whose report of this turn the facts come from'),
    }),
    async run({ ticket, text, from }, call) {
      const words = countWords(text);
      if (words > LIMITS.crossTicketNote) return toolError(`note has ${words} words; at most 100 (R-B5)`);
      const wakes = (batch.notices.get(ticket) ?? []).some((n) => n.steers);
      const refused = wakes ? undefined : await reportRefusal(rt, batch, ticket, from);
      if (refused) return toolError(refused);
      if (!(await ticketExists(rt.ctx, ticket))) return toolError(`ticket ${ticket} does not exist`);
      await queueNote(rt.ctx, ticket, 'main', text);
      await noteTicketSession(rt.ctx, ticket, call.sessionId);
      if (!wakes) return toolOk(`note queued for ${ticket}'s executor, delivered with its next turn`);
      // Delivered with the executor's next turn; a note alone wakes it (unless paused, R-D2).
      if (!(await isPaused(rt.ctx, ticket))) await scheduleTurn(rt.ctx, ticket);
      return toolOk(`note queued for ${ticket}'s executor`);
    },
  });
}

/**
 * Why a note with no steering notice behind it is refused, or undefined when `from` is another
 * ticket with a report in this turn that shares the target's repository or conversation (R-H5:
 * facts do not cross into another repository's or chat's ticket).
 */
async function reportRefusal(
  rt: Runtime,
  batch: MainBatch,
  ticket: string,
  from: string | undefined,
): Promise<string | undefined> {
  const none = `refused, nothing queued: no notice of this turn from someone who may steer ${ticket} is about it (a follow-up from such a person, or its opening by code), and`;
  if (!from || from === ticket || !batch.reports?.some((r) => r.ticket === from))
    return `${none} from names no other ticket with a report in this turn; a note goes only to such a ticket, never to one named by id alone (R-B5, R-H5)`;
  const [source, target] = await Promise.all([getTicket(rt.ctx, from), getTicket(rt.ctx, ticket)]);
  if (!target) return undefined; // said below: it does not exist
  const shared =
    source &&
    ((source.repo && target.repo && sameRepo(source.repo, target.repo)) ||
      source.conversation === target.conversation);
  return shared
    ? undefined
    : `${none} ${from} works in another repository and conversation than ${ticket}: facts pass only between tickets of one repository or conversation (R-H5)`;
}
