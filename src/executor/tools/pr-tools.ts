import { z } from 'zod';
import { splitRepo } from '../../channels/github/client.ts';
import { neutralizeMentions } from '../../safety/neutralize-mentions.ts';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { refKey } from '../../tickets/ref-key.ts';
import { ticketPageUrl } from '../../tickets/ticket-page-url.ts';
import { addTicketRefs } from '../../tickets/ticket-store.ts';
import { readinessProblem } from '../delivery-checks.ts';
import { lookBeforeDelivery } from '../delivery-look/delivery-look.ts';
import type { TurnScope } from '../turn-scope.ts';
import { headAndTree, passingFor, verifiedLine } from '../verified-head.ts';
import { changedTestLines, changedTests } from '../workspace/changed-tests.ts';
import { saveTicketPr, screenshots, ticketPr, verifications } from '../workspace/delivery-records.ts';
import { githubAccess } from '../workspace/github-access.ts';
import { inWorkspace } from '../workspace/work-gate.ts';
import { gitIn } from '../workspace/workspace.ts';
import { baseRef } from '../workspace/workspace-record.ts';
import { shotLine } from './screenshot-tool.ts';

const listed = (lines: string[]) => lines.map((l) => `- ${l}`).join('\n');

const MARK_READY = `mutation($pullRequestId: ID!) {
  markPullRequestReadyForReview(input: { pullRequestId: $pullRequestId }) { pullRequest { id isDraft } }
}`;

/**
 * `open_pr({ title, body })` (R-C6: opening a PR is not "ready"): always a draft, from the
 * ticket's pushed branch to the default branch, indexed on the ticket so its comments, reviews
 * and checks attach by code (R-B2). A second call, or one resumed after a crash, finds the PR
 * already open for the branch instead of opening another.
 */
export function openPrTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'open_pr',
    description:
      'Open the ticket’s pull request as a draft from its pushed branch. It is not ready until mark_pr_ready succeeds.',
    parameters: z.object({ title: z.string().min(1).max(200), body: z.string().max(20_000) }),
    run: ({ title, body }) =>
      inWorkspace(scope, async (ws, login) => {
        const known = await ticketPr(ctx, scope.ticket.id);
        if (known) return toolOk(`already open: ${known.url} (draft until mark_pr_ready)`);
        const g = gitIn(scope, ws, login);
        const at = await headAndTree(g);
        const { head } = at;
        if ((await g.remoteHead()) !== head)
          return toolError('refused: HEAD is not pushed; commit_and_push first');
        if ((await g.run(['rev-list', '--count', `${baseRef(ws)}..HEAD`])) === '0')
          return toolError(`refused: the branch has no commits beyond ${ws.base}`);
        const client = await githubAccess(ctx).client(ws.repo);
        const where = splitRepo(ws.repo);
        const open = await client.rest.pulls.list({
          ...where,
          head: `${where.owner}:${ws.branch}`,
          state: 'open',
        });
        const shots = (await screenshots(ctx, scope.ticket.id))
          .filter((s) => s.id)
          .map((s) => `- ${shotLine(scope, s)}`);
        // Issue 28: the verification that makes HEAD ready, when there is one already; issue 48:
        // the tests the branch changed, and whether that verification ran them.
        const passed = passingFor(await verifications(ctx, scope.ticket.id), at);
        const tests = await changedTests(g, baseRef(ws), head);
        const fullBody = [
          body,
          tests.length ? `Tests this branch changed:\n${listed(changedTestLines(tests))}` : '',
          passed ? verifiedLine(passed, head, tests) : '',
          shots.length ? `Screenshots:\n${shots.join('\n')}` : '',
          ticketLine(ctx.config.PUBLIC_URL, scope.ticket.id),
        ]
          .filter(Boolean)
          .join('\n\n');
        const pr =
          open.data[0] ??
          (
            await client.rest.pulls.create({
              ...where,
              head: ws.branch,
              base: ws.base,
              title,
              body: neutralizeMentions(fullBody),
              draft: true,
            })
          ).data;
        const saved = await saveTicketPr(ctx, scope.ticket.id, {
          repo: ws.repo,
          number: pr.number,
          nodeId: pr.node_id,
          url: pr.html_url,
        });
        // Issue 31: an answer the ticket could not read back is refused, not stored.
        if (!saved.ok)
          return toolError(
            `GitHub's answer for ${ws.repo}#${pr.number} is incomplete, so the PR was not recorded on the ticket (${saved.error.problem}); try open_pr again later`,
          );
        await addTicketRefs(ctx, scope.ticket.id, [refKey({ type: 'pr', repo: ws.repo, number: pr.number })]);
        return toolOk(
          `opened draft PR ${ws.repo}#${pr.number} (${pr.html_url}); it is unfinished until mark_pr_ready`,
        );
      }),
  });
}

/**
 * `mark_pr_ready()` (R-C6): refused unless HEAD is pushed, a verification passed at HEAD after
 * the last commit, and a UI change has screenshots at the base commit and at HEAD (`readinessProblem`).
 * The first call at a head shows the diff and a checklist instead (issue 48, `lookBeforeDelivery`).
 */
export function markPrReadyTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'mark_pr_ready',
    description:
      'Mark the ticket’s draft PR ready for review. Refused until a verification passed at the pushed HEAD and, for UI changes, screenshots exist at the base commit ("before") and at HEAD ("after").',
    parameters: z.object({}),
    run: (_args, call) =>
      inWorkspace(scope, async (ws, login) => {
        const pr = await ticketPr(ctx, scope.ticket.id);
        if (!pr) return toolError('refused: no PR yet; open_pr first');
        const problem = await readinessProblem(scope, ws, login);
        if (problem) return toolError(`refused: ${problem} (R-C6)`);
        // Issue 48: the first call at this head shows the diff and a checklist, and marks nothing.
        const look = await lookBeforeDelivery(scope, ws, login, call.idempotencyKey, 'mark_pr_ready');
        if (look) return toolError(look);
        await (await githubAccess(ctx).client(pr.repo)).graphql(MARK_READY, { pullRequestId: pr.nodeId });
        return toolOk(`${pr.repo}#${pr.number} is ready for review`);
      }),
  });
}

/** Issue 49 item 2: the ticket's id, linked to its page when the panel has a public address. */
function ticketLine(publicUrl: string | undefined, id: string): string {
  const url = ticketPageUrl(publicUrl, id);
  return url ? `Ticket [${id}](${url}).` : `Ticket ${id}.`;
}
