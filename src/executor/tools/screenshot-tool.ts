import { createHash } from 'node:crypto';
import { z } from 'zod';
import { enqueueEffect } from '../../outbox/enqueue.ts';
import { readsPictures } from '../../session/create-model-for-config.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { localGit } from '../sandbox/local-git.ts';
import { pageAsText } from '../screenshot/page-text.ts';
import { saveScreenshotImage } from '../screenshot/screenshot-images.ts';
import { isLoopbackUrl, type PageSummary, takeScreenshot } from '../screenshot/screenshot-run.ts';
import type { TurnScope } from '../turn-scope.ts';
import { addScreenshot, type Screenshot, ticketPr } from '../workspace/delivery-records.ts';
import { inWorkspace } from '../workspace/work-gate.ts';
import { gitIn, type Workspace } from '../workspace/workspace.ts';
import { baseRef } from '../workspace/workspace-record.ts';
import { mayWriteCheckout } from './command-tools.ts';

const params = z.object({
  serve: z.string().min(1).max(2000),
  url: z.string().min(1).max(2000),
  at: z.enum(['base', 'head']),
  width: z.number().int().min(320).max(2560).optional(),
  height: z.number().int().min(240).max(2560).optional(),
  full_page: z.boolean().optional(),
  wait_seconds: z.number().int().min(1).max(120).optional(),
});

/** Where a person sees a stored screenshot (admin API; the panel links it). */
export const screenshotHref = (ticketId: string, id: string) => `/api/tickets/${ticketId}/screenshots/${id}`;

/** The commit a picture at `at` shows, and whether uncommitted changes were served with it. */
async function commitOf(scope: TurnScope, ws: Workspace, login: string, at: 'base' | 'head') {
  if (at === 'base') {
    const base = await gitIn(scope, ws, login).run(['merge-base', 'HEAD', baseRef(ws)]);
    return { commit: base, dirty: false };
  }
  const g = localGit(scope.rt.ctx.config, ws, login);
  return { commit: await g.head(), dirty: (await g.run(['status', '--porcelain'])) !== '' };
}

/**
 * `screenshot({ serve, url, at, … })` (R-C6, issue 15 "honest UI delivery"): starts `serve` from
 * the checkout — or from the base commit's files, the checkout untouched — in the sandbox, opens
 * `url` (loopback only) in headless Chromium there, and stores the PNG on the ticket with the
 * commit it shows. "before" is the picture at the base commit, "after" at HEAD; a UI change is
 * ready only with both (`readinessProblem`). Once the PR exists, a comment names each picture.
 */
export function screenshotTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'screenshot',
    description:
      'Photograph the running UI in headless Chromium. serve: a shell command that serves it from the checkout (e.g. "npm run dev -- --port 5173"); url: a page on that server, http://127.0.0.1:<port>/… only; at: "base" (the base commit’s files: the "before" picture) or "head" (the checkout now: the "after" picture, commit first). Both run in the sandbox; the server stops afterwards. Where your model reads images, the picture (downscaled) follows the result; where it does not, the page as text: what is wider than the viewport, text below 4.5:1 contrast, the visible text and an accessibility snapshot.',
    parameters: params,
    run: (args, call) =>
      inWorkspace(scope, async (ws, login) => {
        if (!isLoopbackUrl(args.url))
          return toolError(
            `refused: the url must be a page of the server your serve command starts, at http://127.0.0.1:<port>/ or http://localhost:<port>/ (got ${args.url.slice(0, 200)})`,
          );
        const { commit, dirty } = await commitOf(scope, ws, login, args.at);
        const shot = await takeScreenshot(ctx.config, ws, {
          serve: args.serve,
          url: args.url,
          at: args.at,
          baseSha: commit,
          width: args.width ?? 1280,
          height: args.height ?? 800,
          fullPage: args.full_page ?? false,
          waitSeconds: args.wait_seconds ?? 60,
          writable: mayWriteCheckout(scope),
          login,
          ...(scope.forkCode ? { network: 'none' as const } : {}),
          // Issue 48 item 6: a model that reads no pictures gets the page in words as well.
          asText: !readsPictures(ctx.config, 'executor'),
        });
        if (!shot.ok) return toolError(`no screenshot: ${shot.why}`);
        const id = createHash('sha256').update(call.idempotencyKey).digest('hex').slice(0, 16);
        if (!(await saveScreenshotImage(ctx, scope.ticket.id, id, shot.png)))
          return toolError('refused: this ticket already holds the most screenshots it may keep');
        const when = args.at === 'base' ? 'before' : 'after';
        const record: Screenshot = {
          id,
          when,
          kind: 'png',
          sha256: createHash('sha256').update(shot.png).digest('hex'),
          at: ctx.now(),
          commit,
          dirty,
          url: args.url,
          serve: args.serve,
        };
        await addScreenshot(ctx, scope.ticket.id, record);
        const pr = await ticketPr(ctx, scope.ticket.id);
        if (pr)
          await enqueueEffect(ctx, {
            key: `screenshot:${call.idempotencyKey}`,
            effect: { op: 'github.comment', repo: pr.repo, number: pr.number, body: shotLine(scope, record) },
            ticketId: scope.ticket.id,
          });
        // Issue 28: the picture follows the text, downscaled, where the model reads pictures.
        const image = {
          media_type: 'image/png',
          width: shot.view.width,
          height: shot.view.height,
          data: shot.view.png.toString('base64'),
        } as const;
        return toolOk(
          summaryText(record, shot.png.length, shot.page, pr ? `${pr.repo}#${pr.number}` : undefined),
          image,
        );
      }),
  });
}

/** One line naming a picture and the commit it shows, for the PR (comment or body). */
export function shotLine(scope: Pick<TurnScope, 'ticket'>, s: Screenshot): string {
  const what = s.when === 'before' ? 'Before' : 'After';
  const where = s.when === 'before' ? 'the base commit' : 'HEAD';
  const dirty = s.dirty ? ' with uncommitted changes' : '';
  return `${what} screenshot of \`${s.url}\` at ${where} ${s.commit?.slice(0, 12)}${dirty} (PNG, sha256 ${s.sha256.slice(0, 12)}; ticket ${scope.ticket.id}, ${screenshotHref(scope.ticket.id, s.id ?? '')}).`;
}

function summaryText(s: Screenshot, bytes: number, page: PageSummary, pr: string | undefined): string {
  const lines = [
    `took the "${s.when}" screenshot ${s.id}: ${s.url} at ${s.when === 'before' ? 'base commit' : 'HEAD'} ${s.commit?.slice(0, 12)}${s.dirty ? ' (uncommitted changes included: it does not show HEAD alone; commit and take it again)' : ''}`,
    `page: HTTP ${page.status ?? '?'}, title "${page.title}", ${Math.round(bytes / 1024)} kB PNG`,
    ...page.problems.map((p) => `- ${p}`),
    pr ? `named in a comment on ${pr}` : 'listed on the ticket; open_pr names it in the PR',
    ...(page.text ? ['', pageAsText(page.text)] : []),
  ];
  return lines.join('\n');
}
