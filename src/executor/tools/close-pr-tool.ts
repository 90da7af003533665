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
import { BOT_BRANCH_PREFIX, yieldTargetIn } from './yield-target.ts';

const REASON_WORDS = 30;

/**
 * `close_pr({ reason, instead })` (R-C8 "yield to duplicates"): a person's branch or PR already
 * holds the ticket's change, so the bot closes its own PR and points to theirs in one sentence.
 * Code checks that `instead` is another, open or merged PR of the same repository by someone other
 * than the bot, or a branch of it whose newest commit is not the bot's (and not one of its `sy/`).
 */
export function closePrTool(scope: TurnScope) {
  return defineTool({
    name: 'close_pr',
    description: `Close the ticket’s own PR because a person’s branch or PR already holds the change. instead: their PR (#N or URL) or their branch (its name or tree URL); reason: why theirs covers it, one sentence of at most ${REASON_WORDS} words.`,
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

/** Who holds the change the bot yields to: a PR's number or a branch's name, and its person. */
type Theirs =
  | { ok: true; what: { number: number } | { branch: string }; who: string }
  | { ok: false; error: string };

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
  const target = yieldTargetIn(mine.repo, instead);
  if (!target || (target.kind === 'pr' && target.number === mine.number))
    return toolError(`refused: "${instead}" is not another PR or a branch of ${mine.repo}`);
  const theirs =
    target.kind === 'pr'
      ? await theirPr(scope, mine.repo, target.number)
      : await theirBranch(scope, mine.repo, target.name);
  if (!theirs.ok) return toolError(theirs.error);
  const client = await githubAccess(ctx).client(mine.repo);
  await client.rest.pulls.update({ ...splitRepo(mine.repo), pull_number: mine.number, state: 'closed' });
  const lang = await languageForTicket(ctx, scope.ticket);
  const vars = { who: theirs.who, reason: reason.trim().replace(/[.!。]?$/, lang === 'zh-CN' ? '。' : '.') };
  const sentence =
    'number' in theirs.what
      ? hostText(lang, 'github.closing-for', { ...vars, number: theirs.what.number })
      : hostText(lang, 'github.closing-for-branch', { ...vars, branch: theirs.what.branch });
  await enqueueEffect(ctx, {
    key: `close-pr:${callKey}`,
    effect: { op: 'github.comment', repo: mine.repo, number: mine.number, body: sentence },
    ticketId: scope.ticket.id,
  });
  const pointer = 'number' in theirs.what ? `#${theirs.what.number}` : `branch ${theirs.what.branch}`;
  return toolOk(`closed ${mine.repo}#${mine.number}, pointing to ${pointer}`);
}

/** Another PR of the repository: open or merged, and not the bot's. */
async function theirPr(scope: TurnScope, repo: string, number: number): Promise<Theirs> {
  const access = githubAccess(scope.rt.ctx);
  const client = await access.client(repo);
  const pr = (await client.rest.pulls.get({ ...splitRepo(repo), pull_number: number }).catch(() => undefined))
    ?.data;
  if (!pr) return { ok: false, error: `refused: ${repo}#${number} is not a pull request` };
  if (pr.user?.login.toLowerCase() === (await access.login()).toLowerCase())
    return { ok: false, error: `refused: ${repo}#${number} is the bot’s own; yield only to a person’s PR` };
  if (pr.state !== 'open' && !pr.merged_at)
    return { ok: false, error: `refused: ${repo}#${number} is closed unmerged` };
  return { ok: true, what: { number }, who: `@${pr.user?.login ?? 'someone'}` };
}

/** A branch of the repository whose newest commit is a person's: not `sy/…`, not the bot's. */
async function theirBranch(scope: TurnScope, repo: string, name: string): Promise<Theirs> {
  const bots = `refused: ${name} is the bot’s own branch; yield only to a person’s branch`;
  if (name.startsWith(BOT_BRANCH_PREFIX)) return { ok: false, error: bots };
  const access = githubAccess(scope.rt.ctx);
  const client = await access.client(repo);
  const branch = (
    await client.rest.repos
      .getBranch({ ...splitRepo(repo), branch: name })
      .catch((err: { status?: number }) => {
        if (err.status === 404) return undefined;
        throw err;
      })
  )?.data;
  if (!branch) return { ok: false, error: `refused: ${repo} has no branch ${name}` };
  const bot = (await access.login()).toLowerCase();
  const account = branch.commit.author?.login;
  const author = branch.commit.commit.author?.name ?? '';
  if (account?.toLowerCase() === bot || (!account && author.toLowerCase() === bot))
    return { ok: false, error: bots };
  return { ok: true, what: { branch: name }, who: account ? `@${account}` : author || 'someone' };
}
