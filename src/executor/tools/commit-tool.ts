import { z } from 'zod';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { refKey } from '../../tickets/ref-key.ts';
import { addTicketRefs } from '../../tickets/ticket-store.ts';
import { ciChangeAskedBy } from '../ci-change-asked.ts';
import { localGit } from '../sandbox/local-git.ts';
import type { TurnScope } from '../turn-scope.ts';
import { changedTestLines, changedTests } from '../workspace/changed-tests.ts';
import { ciEntryOf, namesOfZ } from '../workspace/ci-config-paths.ts';
import { confinePath } from '../workspace/confine-path.ts';
import { commitOfCall, recordCommit } from '../workspace/delivery-records.ts';
import { remoteSha } from '../workspace/mirror.ts';
import { pushBranch } from '../workspace/push-branch.ts';
import { lastPushed, pushedSummary } from '../workspace/pushed-summary.ts';
import { GitError } from '../workspace/run-git.ts';
import { inWorkspace } from '../workspace/work-gate.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { baseRef } from '../workspace/workspace-record.ts';
import { ciRefusal } from './ci-refusal.ts';

type LocalGit = ReturnType<typeof localGit>;

/** Stages everything, or only `paths` (each confined to the checkout); the pathspecs staged. */
async function stage(
  ws: Workspace,
  g: LocalGit,
  paths: string[] | undefined,
): Promise<{ ok: true; specs: string[] } | { ok: false; why: string }> {
  if (!paths) {
    await g.run(['add', '-A'], { writable: true });
    return { ok: true, specs: [] };
  }
  const specs: string[] = [];
  for (const p of paths) {
    const c = await confinePath(ws.dir, p);
    if (!c.ok) return { ok: false, why: `refused, nothing committed: ${c.why}` };
    specs.push(`:(literal)${c.rel}`);
  }
  await g.run(['add', '-A', '--', ...specs], { writable: true });
  return { ok: true, specs };
}

/** Why there is nothing to push: HEAD already at GitHub, or no commit beyond the base. */
async function nothingToPush(scope: TurnScope, ws: Workspace, g: LocalGit, head: string) {
  const pushed = (await remoteSha(scope.rt.ctx, ws, `refs/heads/${ws.branch}`)) === head;
  if (pushed) return `HEAD ${head.slice(0, 12)} is already pushed to ${ws.branch}`;
  if ((await g.run(['rev-list', '--count', `${baseRef(ws)}..HEAD`])) === '0')
    return `HEAD ${head.slice(0, 12)} has no commits beyond ${ws.base}`;
  return undefined;
}

/**
 * Commits what is staged (everything, or `paths`); with nothing to commit, HEAD when it holds
 * commits GitHub lacks (made with `git commit` in `run_command`); otherwise why not.
 */
async function commitOrUnpushed(
  scope: TurnScope,
  ws: Workspace,
  local: LocalGit,
  ask: { message: string; paths: string[] | undefined; mayChangeCi: (files: string[]) => Promise<boolean> },
): Promise<{ ok: true; sha: string; committed: boolean } | { ok: false; why: string }> {
  const { config } = scope.rt.ctx;
  const staged = await stage(ws, local, ask.paths);
  if (!staged.ok) return staged;
  const names = (specs: string[]) =>
    local.run(['diff', '--cached', '-z', '--no-renames', '--name-only', '--', ...specs]);
  const stagedNames = await names(staged.specs);
  if (stagedNames === '') {
    const head = await local.head();
    const none = await nothingToPush(scope, ws, local, head);
    if (!none) return { ok: true, sha: head, committed: false };
    const where = ask.paths ? ` in ${ask.paths.join(', ')}` : '';
    const left = ask.paths && (await local.run(['status', '--porcelain'])) !== '';
    const hint = left ? ' (other files have changes: name them in paths, or leave paths out)' : '';
    return { ok: false, why: `nothing to commit${where} and nothing to push: ${none}${hint}` };
  }
  // Issue 31: a CI change nobody with the right asked for is not even committed.
  // The staged names already read, matched as the pathspecs would (`ciEntryOf`: a file or a folder, any case).
  const ci = namesOfZ(stagedNames).filter((f) => ciEntryOf(config.CI_CONFIG_PATHS, f));
  if (ci.length && !(await ask.mayChangeCi(ci))) return { ok: false, why: ciRefusal(ws.repo, ci, false) };
  const only = staged.specs.length ? ['--', ...staged.specs] : [];
  await local.run(['commit', '-q', '-m', ask.message, ...only], { writable: true });
  return { ok: true, sha: await local.head(), committed: true };
}

/**
 * Issue 48 item 2: the test files the branch modified or deleted, with their assertion lines,
 * so that a weakened test is said where the push is (a PR body says it too).
 */
async function testsChanged(local: LocalGit, ws: Workspace, sha: string): Promise<string> {
  const tests = await changedTests(local, baseRef(ws), sha).catch((err) => {
    if (err instanceof GitError) return [];
    throw err;
  });
  if (!tests.length) return '';
  const lines = changedTestLines(tests).map((l) => `- ${l}`);
  return `tests this branch changed (not only added) — a reviewer reads these first; change a test only where the request asks for it, never to make it pass:\n${lines.join('\n')}`;
}

/**
 * `commit_and_push({ message, paths? })`: commits the checkout's changes (all, or only `paths`) as
 * the bot and pushes the ticket's branch; the commit is indexed on the ticket (R-B2) so checks on
 * it find the ticket. Issue 28: with nothing to commit, commits made with `run_command` and not
 * yet pushed are pushed; the answer shows what went (`--stat`, new files, likely scratch). A
 * resumed call finds its commit by idempotency key and only pushes again.
 */
export function commitAndPushTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'commit_and_push',
    description:
      'Commit the changes in the checkout with this message (all of them, or only `paths`) and push the ticket’s branch; commits you made yourself with git are pushed too. The answer shows what was pushed.',
    parameters: z.object({
      message: z.string().min(1).max(2000),
      paths: z.array(z.string().min(1)).min(1).max(200).optional(),
    }),
    run: ({ message, paths }, call) =>
      inWorkspace(scope, async (ws, login) => {
        // Local steps run in the sandbox: the checkout's config may name programs (issue 13).
        const local = localGit(ctx.config, ws, login);
        const mayChangeCi = async (files: string[]) => Boolean(await ciChangeAskedBy(scope, ws.repo, files));
        let sha = await commitOfCall(ctx, scope.ticket.id, call.idempotencyKey);
        let committed = true;
        if (!sha) {
          const got = await commitOrUnpushed(scope, ws, local, { message, paths, mayChangeCi });
          if (!got.ok) return toolError(got.why);
          ({ sha, committed } = got);
          await recordCommit(ctx, scope.ticket.id, call.idempotencyKey, sha);
        }
        const from = await lastPushed(ctx, ws);
        const pushed = await pushBranch(ctx, ws, scope.ticket.id, sha, mayChangeCi);
        if (!pushed.ok) return toolError(ciRefusal(ws.repo, pushed.ciFiles, true));
        await addTicketRefs(ctx, scope.ticket.id, [refKey({ type: 'commit', sha })]);
        const head = committed
          ? `committed ${sha.slice(0, 12)} and pushed ${ws.branch}`
          : `nothing new to commit; pushed ${from ? from.slice(0, 12) : `origin/${ws.base}`}..${sha.slice(0, 12)} to ${ws.branch}`;
        const tests = await testsChanged(local, ws, sha);
        return toolOk([head, await pushedSummary(local, ws, sha, from), tests].filter(Boolean).join('\n'));
      }),
  });
}
