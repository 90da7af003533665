import { stat } from 'node:fs/promises';
import { splitRepo } from '../channels/github/client.ts';
import type { DoneCheck, DoneVerdict } from './tools/report-tool.ts';
import type { TurnScope } from './turn-scope.ts';
import { uiFileMatcher } from './ui-files.ts';
import { headAndTree, passingFor, ranOn, verifiedLine } from './verified-head.ts';
import {
  lastPush,
  pushesOf,
  type Screenshot,
  screenshots,
  ticketPr,
  verifications,
} from './workspace/delivery-records.ts';
import { githubAccess } from './workspace/github-access.ts';
import { gitIn, loadWorkspace, type Workspace } from './workspace/workspace.ts';
import { baseRef } from './workspace/workspace-record.ts';

/** Files the ticket's branch changes against the default branch. */
export async function changedFiles(scope: TurnScope, ws: Workspace, login: string): Promise<string[]> {
  const out = await gitIn(scope, ws, login).run(['diff', '--name-only', `${baseRef(ws)}...HEAD`]);
  return out.split('\n').filter(Boolean);
}

/**
 * Why the ticket's PR may not be marked ready yet, or undefined (R-C6 "honest delivery"): HEAD
 * must be pushed, a verification must have passed on HEAD's files (at HEAD, or before committing
 * exactly those files: issue 28), and a UI change (`UI_FILE_GLOBS`) needs screenshots from the
 * running product.
 */
export async function readinessProblem(
  scope: TurnScope,
  ws: Workspace,
  login: string,
): Promise<string | undefined> {
  const { ctx } = scope.rt;
  const g = gitIn(scope, ws, login);
  const at = await headAndTree(g);
  const { head } = at;
  if ((await g.remoteHead()) !== head)
    return `HEAD ${head.slice(0, 12)} is not pushed; commit_and_push first`;
  const all = await verifications(ctx, scope.ticket.id);
  if (!passingFor(all, at)) {
    const last = all.filter((v) => v.sha === head || ranOn(v, at)).at(-1);
    const seen = last
      ? ` (the last one on HEAD's files, "${last.command}", exited ${last.exitCode})`
      : all.length
        ? ' (earlier ones ran on other files)'
        : '';
    return `no passing verification at HEAD ${head.slice(0, 12)}${seen}; run record_verification on the files you commit`;
  }
  const isUi = uiFileMatcher(ctx.config.UI_FILE_GLOBS);
  const ui = (await changedFiles(scope, ws, login)).filter(isUi);
  if (!ui.length) return undefined;
  const base = await g.run(['merge-base', 'HEAD', baseRef(ws)]);
  return screenshotProblem(await screenshots(ctx, scope.ticket.id), ui, base, head);
}

/**
 * Issue 15: a UI change is ready with a "before" screenshot taken at the base commit and an
 * "after" one at HEAD on a clean tree, both by the `screenshot` tool (a picture that names no
 * commit proves nothing).
 */
export function screenshotProblem(
  shots: Screenshot[],
  ui: string[],
  base: string,
  head: string,
): string | undefined {
  const files = `the change touches UI files (${ui.slice(0, 5).join(', ')})`;
  const before = shots.some((s) => s.when === 'before' && s.commit === base && !s.dirty);
  if (!before)
    return `${files} and has no "before" screenshot taken at the base commit ${base.slice(0, 12)}; take one with screenshot at "base"`;
  const after = shots.some((s) => s.when === 'after' && s.commit === head && !s.dirty);
  if (!after)
    return `${files} and has no "after" screenshot taken at HEAD ${head.slice(0, 12)} on a clean tree; take one with screenshot at "head" after the last commit`;
  return undefined;
}

/** R-C6: a report may not call the ticket done while its PR is still a draft. */
export const draftDoneCheck: DoneCheck = async (scope) => {
  const { ctx } = scope.rt;
  const pr = await ticketPr(ctx, scope.ticket.id);
  if (!pr) return { ok: true };
  const { data } = await (await githubAccess(ctx).client(pr.repo)).rest.pulls.get({
    ...splitRepo(pr.repo),
    pull_number: pr.number,
  });
  if (data.state === 'open' && data.draft)
    return {
      ok: false,
      why: `PR ${pr.repo}#${pr.number} is still a draft; mark_pr_ready first or report working`,
    };
  return { ok: true };
};

/**
 * R-C6, issue 15: "done" claims the change works, so a ticket whose branch holds commits of its
 * own needs a recorded command that exited 0 on HEAD's files — a claim with no such record is
 * refused; with one, the report carries its "Verified: …" line (issue 28). A ticket without a
 * checkout, or with no commit beyond the base the host recorded (an answer, an investigation),
 * claims no change.
 */
export const verifiedDoneCheck: DoneCheck = async (scope, scans) => {
  const { ctx } = scope.rt;
  const ws = await loadWorkspace(ctx, scope.ticket.id);
  if (!ws) return { ok: true };
  if (!(await stat(ws.dir).catch(() => undefined))) return pushedDoneCheck(scope);
  // A checkout without its .git has had it moved by a command: nothing in it can be checked.
  if (!(await stat(`${ws.dir}/.git`).catch(() => undefined)))
    return {
      ok: false,
      why: 'the checkout has no .git (a command moved or removed it), so nothing can show what it holds; put it back, or report working',
    };
  const g = gitIn(scope, ws, await githubAccess(ctx).login());
  if ((await g.run(['rev-list', '--count', `${baseRef(ws)}..HEAD`])) === '0') return { ok: true };
  const at = await headAndTree(g);
  const passed = passingFor(await verifications(ctx, scope.ticket.id), at);
  if (passed) {
    const changed = await scans(g, baseRef(ws), at.head).tests();
    return { ok: true, note: verifiedLine(passed, at.head, changed) };
  }
  return {
    ok: false,
    why: `no verification passed at HEAD ${at.head.slice(0, 12)} (a command run with record_verification on HEAD's files, exit 0); run it, or report working`,
  };
};

/**
 * "done" with no checkout on this machine (released, or made on another worker's): what the bot
 * last pushed to the ticket's branch decides, from the push records every machine shares. Nothing
 * pushed is no change claimed.
 */
async function pushedDoneCheck(scope: TurnScope): Promise<DoneVerdict> {
  const { ctx } = scope.rt;
  const last = lastPush(await pushesOf(ctx, scope.ticket.id));
  if (!last) return { ok: true };
  const at = { head: last.sha, tree: last.tree };
  const passed = passingFor(await verifications(ctx, scope.ticket.id), at);
  if (passed) return { ok: true, note: verifiedLine(passed, at.head) };
  return {
    ok: false,
    why: `no verification passed at ${at.head.slice(0, 12)}, the branch as last pushed (a command run with record_verification on its files, exit 0); run it, or report working`,
  };
}
