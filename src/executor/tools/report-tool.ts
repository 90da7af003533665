import { z } from 'zod';
import type { TriggerCard } from '../../cards/card.ts';
import { loadCard } from '../../cards/ingest.ts';
import { replyEffectFor } from '../../cards/reply-effect.ts';
import { enqueueEffect } from '../../outbox/enqueue.ts';
import { noteReportForMain } from '../../router/follow-up-notices.ts';
import { countWords, LIMITS } from '../../router/words.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { noteReport } from '../../status/status-hooks.ts';
import { statusTarget } from '../../status/status-target.ts';
import { isOwnCard } from '../../tickets/attach.ts';
import { recordTaken } from '../../tickets/handback.ts';
import { addReport } from '../../tickets/reports.ts';
import { setTicketState } from '../../tickets/ticket-store.ts';
import type { TurnScope } from '../turn-scope.ts';
import { unrelatedThreadRefusal } from '../unrelated-thread.ts';
import { type BranchScans, branchScans } from '../workspace/branch-scan.ts';

const STATE = { working: 'working', done: 'done', blocked: 'waiting' } as const;

/**
 * Extra checks a `done` report must pass (R-C6: a draft PR is not done); the executor issue adds
 * them. A passing check may add a line to the report (issue 28: "Verified: …").
 */
export type DoneVerdict = { ok: true; note?: string } | { ok: false; why: string };
/** `scans`: the branch as this report call read it, shared by its checks and its look (issue 48). */
export type DoneCheck = (scope: TurnScope, scans: BranchScans) => Promise<DoneVerdict>;
/** What a `done` report shows first instead of recording it (issue 48: the look before delivery), by call key. */
export type DoneLook = (callKey: string, scans: BranchScans) => Promise<string | undefined>;

/**
 * `report({ status, summary, human_action? })` (R-C5, R-B7): records the ticket's state and, with
 * a question, asks it verbatim — in reply to the person's message that caused it when named, else
 * in the ticket's original conversation. Work that needs no answer may go on meanwhile.
 */
export function reportTool(scope: TurnScope, doneChecks: DoneCheck[] = [], doneLook?: DoneLook) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'report',
    description:
      'Report the ticket’s status. status: working | done | blocked. To ask people something, put one concrete question in human_action (name the card whose message caused it, if any). Never report a draft as done.',
    parameters: z.object({
      status: z.enum(['working', 'done', 'blocked']),
      summary: z.string().min(1).max(2000),
      human_action: z
        .object({
          question: z.string().min(1),
          card: z.string().optional(),
          choices: z.array(z.string()).max(5).optional(),
        })
        .optional(),
    }),
    async run({ status, summary: given, human_action }, call) {
      const notes: string[] = [];
      if (status === 'done') {
        const scans = branchScans();
        for (const check of doneChecks) {
          const v = await check(scope, scans);
          if (!v.ok) return toolError(`refused: not done — ${v.why} (R-C6)`);
          if (v.note) notes.push(v.note);
        }
        const look = await doneLook?.(call.idempotencyKey, scans);
        if (look) return toolError(look);
      }
      const summary = [given, ...notes].join('\n');
      if (human_action && countWords(human_action.question) > LIMITS.chatMessage) {
        return toolError('refused: the question is over 100 words (R-D1)');
      }
      const askOn = human_action?.card ?? scope.ticket.openedBy;
      if (human_action && askOn !== scope.ticket.openedBy && !(await isOwnCard(ctx, scope.ticket.id, askOn)))
        return toolError(
          `refused: card ${askOn} is not one of this ticket’s own cards; ask in reply to one of them, or leave card out to ask where the ticket began (R-C5)`,
        );
      const asking = human_action ? await whereToReply(scope, askOn) : undefined;
      if (asking && !asking.target) return toolError(`card ${askOn} is unknown`);
      const target = asking?.target;
      // P-69: no question into a thread this ticket declared unrelated, as `reply` refuses there.
      const unrelated = target && (await unrelatedThreadRefusal(scope, target));
      if (unrelated) return toolError(unrelated);
      await addReport(ctx, scope.ticket.id, {
        status,
        summary,
        human_action: human_action ?? null,
        at: ctx.now(),
      });
      await setTicketState(ctx, scope.ticket.id, STATE[status]);
      // Issue 30 ("不等待"): the report reaches the main session by itself, batched with the rest.
      await noteReportForMain(ctx, scope.ticket.id, { status, summary, asked: Boolean(human_action) });
      const askedIn = human_action && target ? whereToAsk(scope, target, human_action.choices) : undefined;
      await noteReport(ctx, scope.ticket.id, {
        status,
        turnId: scope.turnId,
        human_action,
        ...(askedIn ? { askedIn } : {}),
      });
      if (human_action && target) {
        const effect = askedIn === 'reply' ? replyEffectFor(target, human_action.question) : undefined;
        if (effect)
          await enqueueEffect(ctx, { key: `ask:${call.idempotencyKey}`, effect, ticketId: scope.ticket.id });
        await recordTaken(ctx, target.id, scope.ticket.id);
      }
      const noted = notes.length ? `\n${notes.join('\n')}` : '';
      if (!human_action) return toolOk(`recorded ${status}${noted}`);
      const fellBack = asking?.gone
        ? ` in the ticket’s original conversation: card ${askOn} ${asking.gone}`
        : '';
      return toolOk(
        `recorded ${status}; question ${askedIn === 'status' ? 'asked on the status card (its choices are buttons)' : 'posted'}${fellBack}${noted}`,
      );
    },
  });
}

/**
 * The card a question answers (R-C5): the named one; when that message is gone (its card no
 * longer stored, or nothing there to reply to), the card that opened the ticket, in the ticket's
 * original conversation, and `gone` says why. `target` is absent when neither can be found.
 */
async function whereToReply(
  scope: TurnScope,
  named: string,
): Promise<{ target: TriggerCard | undefined; gone?: string }> {
  const { ctx } = scope.rt;
  const card = await loadCard(ctx, named);
  if ((card && replyEffectFor(card, '.')) || named === scope.ticket.openedBy) return { target: card };
  const origin = await loadCard(ctx, scope.ticket.openedBy);
  if (!origin) return { target: card };
  return { target: origin, gone: card ? 'has no message to reply to' : 'is gone' };
}

/**
 * A question is asked once (issue 15): on the ticket's Feishu status card when it has choices (its
 * buttons answer it) and the person's message is in the ticket's own conversation, where that card
 * lives; otherwise as a reply to that message, and the status card only says a question waits.
 */
function whereToAsk(
  scope: TurnScope,
  target: { conversation: string },
  choices: string[] | undefined,
): 'status' | 'reply' {
  const onCard =
    Boolean(choices?.length) &&
    statusTarget(scope.ticket)?.channel === 'feishu' &&
    target.conversation === scope.ticket.conversation;
  return onCard ? 'status' : 'reply';
}
