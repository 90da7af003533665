import { z } from 'zod';
import { splitRepo } from '../../channels/github/client.ts';
import { languageForTicket } from '../../i18n/choose-language.ts';
import { hostText } from '../../i18n/host-text.ts';
import { enqueueEffect } from '../../outbox/enqueue.ts';
import { countWords } from '../../router/words.ts';
import { defineTool, type ToolResult, toolError, toolOk } from '../../session/tool.ts';
import type { TurnScope } from '../turn-scope.ts';
import { ticketPr } from '../workspace/delivery-records.ts';
import { githubAccess } from '../workspace/github-access.ts';
import { asToolError, workRefusal } from '../workspace/work-gate.ts';

const REASON_WORDS = 30;

/** `owner/name#12`, `#12`, `12` or a PR URL → its number in `repo`, or undefined. */
export function prNumberIn(repo: string, ref: string): number | undefined {
  const url = /github\.com\/([^/]+\/[^/]+)\/pull\/(\d+)/i.exec(ref);
  const short = /^(?:([\w.-]+\/[\w.-]+))?#?(\d+)$/.exec(ref.trim());
  const [named, n] = url ? [url[1], url[2]] : short ? [short[1], short[2]] : [undefined, undefined];
  if (named && named.toLowerCase() !== repo.toLowerCase()) return undefined;
  return n ? Number(n) : undefined;
}

/**
 * `close_pr({ reason, instead })` (R-C8 "yield to duplicates"): a person's PR already holds the
 * ticket's change, so the bot closes its own PR and points to theirs in one sentence. Code checks
 * that `instead` is another, open or merged PR of the same repository by someone other than the bot.
 */
export function closePrTool(scope: TurnScope) {
  return defineTool({
    name: 'close_pr',
    description: `Close the ticket’s own PR because a person’s PR already holds the change. instead: their PR (#N or URL); reason: why theirs covers it, one sentence of at most ${REASON_WORDS} words.`,
    parameters: z.object({ reason: z.string().min(1), instead: z.string().min(1) }),
    async run(args, call): Promise<ToolResult> {
      const refused = await workRefusal(scope);
      if (refused) return refused;
      return closePr(scope, args, call.idempotencyKey).catch((err: unknown) => {
        const answer = asToolError(err);
        if (answer) return answer;
        throw err;
      });
    },
  });
}

/** The checks and the closing itself; GitHub's 4xx answers become the tool's refusal. */
async function closePr(
  scope: TurnScope,
  { reason, instead }: { reason: string; instead: string },
  callKey: string,
): Promise<ToolResult> {
  const { ctx } = scope.rt;
  const mine = await ticketPr(ctx, scope.ticket.id);
  if (!mine) return toolError('refused: this ticket has no PR of its own');
  if (countWords(reason) > REASON_WORDS || /[.!?。]\s+\S/.test(reason.trim()))
    return toolError(`refused: the reason is one sentence of at most ${REASON_WORDS} words (R-C8)`);
  const number = prNumberIn(mine.repo, instead);
  if (!number || number === mine.number)
    return toolError(`refused: "${instead}" is not another PR of ${mine.repo}`);
  const { login } = githubAccess(ctx);
  const client = await githubAccess(ctx).client(mine.repo);
  const where = splitRepo(mine.repo);
  const theirs = (await client.rest.pulls.get({ ...where, pull_number: number }).catch(() => undefined))
    ?.data;
  if (!theirs) return toolError(`refused: ${mine.repo}#${number} is not a pull request`);
  if (theirs.user?.login.toLowerCase() === (await login()).toLowerCase())
    return toolError(`refused: ${mine.repo}#${number} is the bot’s own; yield only to a person’s PR`);
  if (theirs.state !== 'open' && !theirs.merged_at)
    return toolError(`refused: ${mine.repo}#${number} is closed unmerged`);
  await client.rest.pulls.update({ ...where, pull_number: mine.number, state: 'closed' });
  const lang = await languageForTicket(ctx, scope.ticket);
  const sentence = hostText(lang, 'github.closing-for', {
    number,
    login: theirs.user?.login ?? 'someone',
    reason: reason.trim().replace(/[.!。]?$/, lang === 'zh-CN' ? '。' : '.'),
  });
  await enqueueEffect(ctx, {
    key: `close-pr:${callKey}`,
    effect: { op: 'github.comment', repo: mine.repo, number: mine.number, body: sentence },
    ticketId: scope.ticket.id,
  });
  return toolOk(`closed ${mine.repo}#${mine.number}, pointing to #${number}`);
}
