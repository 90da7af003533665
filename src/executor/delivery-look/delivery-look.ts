import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillTemplate } from '../../prompts/fill-template.ts';
import { localGit } from '../sandbox/local-git.ts';
import { scratchReason } from '../scratch-files.ts';
import type { TurnScope } from '../turn-scope.ts';
import { type BranchScans, branchScans } from '../workspace/branch-scan.ts';
import { changedTestLines } from '../workspace/changed-tests.ts';
import { githubAccess } from '../workspace/github-access.ts';
import { loadWorkspace, type Workspace } from '../workspace/workspace.ts';
import { baseRef } from '../workspace/workspace-record.ts';
import { looksAt } from './look-record.ts';
import { numberedDiff } from './numbered-diff.ts';

const TEMPLATE = (
  await readFile(fileURLToPath(new URL('../../../prompts/loop/delivery-look.md', import.meta.url)), 'utf8')
).trim();

const ACTION = { mark_pr_ready: 'marking the PR ready', report: 'reporting the ticket done' } as const;

/**
 * The look before delivery (issue 48 item 3, SWE-agent's review on submit): the first
 * `mark_pr_ready` or `done` report at a branch head answers with the branch's diff against its
 * fork point (numbered, capped, the rest named by file) and a short checklist — the request, the
 * scratch files, the changed tests — and does nothing; the next call at that head goes on.
 * Undefined when the call may go on: the look was shown, or the branch holds no change.
 */
export async function lookBeforeDelivery(
  scope: TurnScope,
  ws: Workspace,
  login: string,
  callKey: string,
  tool: keyof typeof ACTION,
  scans: BranchScans = branchScans(),
): Promise<string | undefined> {
  const { ctx } = scope.rt;
  const g = localGit(ctx.config, ws, login);
  const head = await g.head();
  const scan = scans(g, baseRef(ws), head);
  const { changes } = await scan.changes();
  if (!changes.length || !(await looksAt(ctx, scope.ticket.id, head, callKey))) return undefined;
  const { numstat, diff } = await scan.patch();
  const scratch = changes.flatMap((c) => {
    const why = c.code === 'A' ? scratchReason(c.path) : undefined;
    return why ? [`${c.path} (${why})`] : [];
  });
  const tests = changedTestLines(await scan.tests());
  return fillTemplate(TEMPLATE, {
    action: ACTION[tool],
    tool,
    base: ws.base,
    files: `${changes.length} file${changes.length === 1 ? '' : 's'}`,
    scratch: scratch.length ? `${scratch.join(', ')} — take out what is not part of the change` : 'none seen',
    tests: tests.length
      ? `was each change asked for, never made to pass?\n  - ${tests.join('\n  - ')}`
      : 'none modified or deleted',
    diff: numberedDiff(diff, numstat),
  });
}

/**
 * The look before a `done` report: on the ticket's checkout when this machine has it (a ticket
 * without one, or whose checkout lost its .git, is decided by the done checks alone).
 */
export async function doneLook(
  scope: TurnScope,
  callKey: string,
  scans: BranchScans,
): Promise<string | undefined> {
  const { ctx } = scope.rt;
  const ws = await loadWorkspace(ctx, scope.ticket.id);
  if (!ws || !(await stat(join(ws.dir, '.git')).catch(() => undefined))) return undefined;
  return lookBeforeDelivery(scope, ws, await githubAccess(ctx).login(), callKey, 'report', scans);
}
