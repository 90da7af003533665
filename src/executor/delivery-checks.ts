import { splitRepo } from '../channels/github/client.ts';
import type { DoneCheck } from './tools/report-tool.ts';
import type { TurnScope } from './turn-scope.ts';
import { isUiFile, screenshots, ticketPr, verifications } from './workspace/delivery-records.ts';
import { githubAccess } from './workspace/github-access.ts';
import { gitIn, type Workspace } from './workspace/workspace.ts';

/** Files the ticket's branch changes against the default branch. */
export async function changedFiles(scope: TurnScope, ws: Workspace, login: string): Promise<string[]> {
  const out = await gitIn(scope, ws, login).run(['diff', '--name-only', `origin/${ws.base}...HEAD`]);
  return out.split('\n').filter(Boolean);
}

/**
 * Why the ticket's PR may not be marked ready yet, or undefined (R-C6 "honest delivery"): HEAD
 * must be pushed, a verification must have passed at HEAD on a clean tree (so after the last
 * commit), and a change to UI files needs a real "before" screenshot.
 */
export async function readinessProblem(
  scope: TurnScope,
  ws: Workspace,
  login: string,
): Promise<string | undefined> {
  const { ctx } = scope.rt;
  const g = gitIn(scope, ws, login);
  const head = await g.head();
  if ((await g.remoteHead()) !== head)
    return `HEAD ${head.slice(0, 12)} is not pushed; commit_and_push first`;
  const runs = (await verifications(ctx, scope.ticket.id)).filter((v) => v.sha === head);
  if (!runs.some((v) => v.exitCode === 0 && !v.dirty)) {
    const last = runs.at(-1);
    const seen = last
      ? ` (the last one at HEAD, "${last.command}", exited ${last.exitCode}${last.dirty ? ' on a dirty tree' : ''})`
      : '';
    return `no passing verification at HEAD ${head.slice(0, 12)}${seen}; run record_verification after the last commit`;
  }
  const ui = (await changedFiles(scope, ws, login)).filter(isUiFile);
  if (ui.length && !(await screenshots(ctx, scope.ticket.id)).some((s) => s.when === 'before')) {
    return `the change touches UI files (${ui.slice(0, 5).join(', ')}) and no "before" screenshot is attached; use attach_screenshot with when "before"`;
  }
  return undefined;
}

/** R-C6: a report may not call the ticket done while its PR is still a draft. */
export const draftDoneCheck: DoneCheck = async (scope) => {
  const { ctx } = scope.rt;
  const pr = await ticketPr(ctx, scope.ticket.id);
  if (!pr) return undefined;
  const { data } = await (await githubAccess(ctx).client(pr.repo)).rest.pulls.get({
    ...splitRepo(pr.repo),
    pull_number: pr.number,
  });
  if (data.state === 'open' && data.draft)
    return `PR ${pr.repo}#${pr.number} is still a draft; mark_pr_ready first or report working`;
  return undefined;
};
