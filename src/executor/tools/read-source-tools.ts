import { z } from 'zod';
import { cardTextPage } from '../../cards/card-text.ts';
import { loadCard } from '../../cards/ingest.ts';
import { defineTool, type ToolResult, toolError, toolOk } from '../../session/tool.ts';
import { GITHUB_READS, readGitHub } from '../../sources/github-reads.ts';
import { readReviewThreads } from '../../sources/github-threads.ts';
import { isTicketCard, mayReadGitHub, type SourceScope, sourceScope } from '../../sources/source-scope.ts';
import type { TurnScope } from '../turn-scope.ts';
import { githubAccess } from '../workspace/github-access.ts';

/** An HTTP answer from a provider becomes words for the model; anything else is infrastructure. */
export function readFailure(err: unknown, what: string): ToolResult {
  const status = (err as { status?: number }).status;
  const code = (err as { code?: unknown }).code;
  if (typeof status === 'number' || typeof code === 'number')
    return toolError(`${what} failed: ${(err as Error).message}`);
  throw err;
}

/**
 * `read_card({ card, offset?, limit? })` (R-H6): the whole text of a card of this ticket, a page
 * at a time. A card of another ticket is refused in code.
 */
export function readCardTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'read_card',
    description:
      'Read the whole text of a card of this ticket (a truncated card shows only its start). Returns up to 16000 characters from offset (default 0); when more remains the answer ends with the offset to call again with.',
    parameters: z.object({
      card: z.string().min(1),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(16_000).optional(),
    }),
    async run({ card, offset, limit }) {
      if (!scope.batch.has(card) && !(await isTicketCard(ctx, scope.ticket.id, card)))
        return toolError(`refused: ${card} is not a card of this ticket (R-H6)`);
      const page = await cardTextPage(ctx, card, offset, limit);
      return page ? toolOk(page) : toolError(`no card ${card} (expired or unknown)`);
    },
  });
}

/**
 * `read_github({ what, repo?, number?, page?, per_page?, offset?, cursor?, ref? })` (R-H6): an
 * issue's or PR's body, its comments, the PR's files and diff, its review threads, check-run
 * output — of the ticket's own repositories only, through that repository's client.
 */
export function readGitHubTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  const o = scope.ticket.origin;
  return defineTool({
    name: 'read_github',
    description:
      'Read a GitHub source of this ticket: what = issue (title and body), comments, pr_files, pr_diff, review_threads or checks (check-run output; ref defaults to the PR head). repo defaults to the ticket’s repository; number to its issue or PR. Pages: comments, pr_files and checks take page (1, 2, …) and per_page (≤ 100); pr_diff takes offset; review_threads take cursor. Each answer ends with how to read on, or [end]. Other repositories are refused.',
    parameters: z.object({
      what: z.enum(GITHUB_READS),
      repo: z
        .string()
        .regex(/^[\w.-]+\/[\w.-]+$/)
        .optional(),
      number: z.number().int().positive().optional(),
      page: z.number().int().min(1).max(1000).optional(),
      per_page: z.number().int().min(1).max(100).optional(),
      offset: z.number().int().min(0).optional(),
      cursor: z.string().max(200).optional(),
      ref: z
        .string()
        .regex(/^[\w./-]{1,200}$/)
        .optional(),
    }),
    async run(a) {
      const repo = a.repo ?? scope.ticket.repo ?? (o.source === 'github' ? o.repo : undefined);
      if (!repo) return toolError('name the repository: this ticket has none yet');
      const sameAsOrigin = o.source === 'github' && o.repo.toLowerCase() === repo.toLowerCase();
      const number = a.number ?? (sameAsOrigin ? o.number : undefined);
      const allowed = await sourceScope(ctx, scope.ticket, scope.batch.values());
      if (!mayReadGitHub(allowed, repo, a.what, number))
        return toolError(
          `refused: ${repo} is not a repository of this ticket (R-H6)${dataItemNote(allowed, repo)}`,
        );
      if (!number && a.what !== 'checks') return toolError(`name the issue or PR number for ${a.what}`);
      if (a.what === 'checks' && !number && !a.ref) return toolError('checks need a PR number or a ref');
      const access = githubAccess(ctx);
      try {
        const client = await access.client(repo);
        const bot = await access.login();
        if (a.what === 'review_threads')
          return toolOk(
            await readReviewThreads(client, bot, {
              repo,
              number: number ?? 0,
              perPage: a.per_page,
              cursor: a.cursor,
            }),
          );
        return toolOk(
          await readGitHub(client, bot, {
            what: a.what,
            repo,
            number,
            page: a.page,
            perPage: a.per_page,
            offset: a.offset,
            ref: a.ref,
          }),
        );
      } catch (err) {
        return readFailure(err, `reading ${a.what} of ${repo}`);
      }
    },
  });
}

/** Issue 45: when a data card came from `repo`, which of its items alone may be read, and how. */
function dataItemNote(allowed: SourceScope, repo: string): string {
  const prefix = `${repo.toLowerCase()}#`;
  const items = [...allowed.items].filter((i) => i.startsWith(prefix));
  return items.length ? `; of it only what=issue of a data card's own item: ${items.join(', ')}` : '';
}

/** Loads a card of this ticket, or undefined (for reads anchored on a card). */
export async function ticketCard(scope: TurnScope, id: string) {
  const mine = scope.batch.get(id);
  if (mine) return mine;
  return (await isTicketCard(scope.rt.ctx, scope.ticket.id, id)) ? loadCard(scope.rt.ctx, id) : undefined;
}
