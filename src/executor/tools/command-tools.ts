import { z } from 'zod';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { addTicketRefs } from '../../tickets/ticket-store.ts';
import type { TurnScope } from '../turn-scope.ts';
import { commandEnv } from '../workspace/command-env.ts';
import { addVerification } from '../workspace/delivery-records.ts';
import { type ProcessResult, runProcess } from '../workspace/run-process.ts';
import { inWorkspace } from '../workspace/work-gate.ts';
import { gitIn, type Workspace } from '../workspace/workspace.ts';

const DEFAULT_TIMEOUT_S = 120;
const MAX_TIMEOUT_S = 600;

const timeout = z.number().int().min(1).max(MAX_TIMEOUT_S).optional();

/**
 * Runs a shell command in the checkout (issue 4 "Workspace"): the command is one argument to
 * `bash -c`, cwd is the checkout, the environment an allow-list without the bot's secrets, the
 * time-out kills its whole process group, and the output keeps head and tail within 20 kB.
 */
export function runInCheckout(
  ws: Workspace,
  command: string,
  seconds = DEFAULT_TIMEOUT_S,
): Promise<ProcessResult> {
  return runProcess('bash', ['-c', command], {
    cwd: ws.dir,
    env: commandEnv(ws.home),
    timeoutMs: Math.min(seconds, MAX_TIMEOUT_S) * 1000,
  });
}

const describe = (r: ProcessResult, seconds: number) =>
  `${r.timedOut ? `timed out after ${seconds} s (killed)` : `exit ${r.exitCode}`}\n${r.output}`;

/** `run_command({ command, timeout_seconds? })`. */
export function runCommandTool(scope: TurnScope) {
  return defineTool({
    name: 'run_command',
    description: `Run a shell command in the checkout (bash -c). Time-out ${DEFAULT_TIMEOUT_S} s by default, at most ${MAX_TIMEOUT_S}; output is cut to its first and last 10 kB. No secrets of the bot are in its environment.`,
    parameters: z.object({ command: z.string().min(1), timeout_seconds: timeout }),
    run: ({ command, timeout_seconds = DEFAULT_TIMEOUT_S }) =>
      inWorkspace(scope, async (ws) =>
        toolOk(describe(await runInCheckout(ws, command, timeout_seconds), timeout_seconds)),
      ),
  });
}

/**
 * `record_verification({ command })` (R-C6): runs the command and records it with its exit code
 * and the HEAD it ran at, and whether uncommitted changes were present (then it did not verify
 * HEAD alone). `mark_pr_ready` looks for a passing one at the current HEAD.
 */
export function recordVerificationTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'record_verification',
    description:
      'Run the command that verifies the change (tests, build, lint) and record its exit code at the current commit. Commit first: a PR is marked ready only with a passing verification at HEAD.',
    parameters: z.object({ command: z.string().min(1), timeout_seconds: timeout }),
    run: ({ command, timeout_seconds = DEFAULT_TIMEOUT_S }) =>
      inWorkspace(scope, async (ws, login) => {
        const g = gitIn(scope, ws, login);
        const sha = await g.head();
        const dirty = (await g.run(['status', '--porcelain'])) !== '';
        const r = await runInCheckout(ws, command, timeout_seconds);
        await addVerification(ctx, scope.ticket.id, {
          command,
          exitCode: r.exitCode,
          sha,
          dirty,
          at: ctx.now(),
        });
        const note = dirty
          ? ' (uncommitted changes present: this does not verify HEAD; commit and run again)'
          : '';
        return toolOk(`recorded at ${sha.slice(0, 12)}${note}: ${describe(r, timeout_seconds)}`);
      }),
  });
}

/**
 * `commit_and_push({ message })`: commits everything in the checkout as the bot and pushes the
 * ticket's branch; the commit is indexed on the ticket (R-B2) so checks on it find the ticket. A
 * resumed call finds its commit by idempotency key and only pushes again.
 */
export function commitAndPushTool(scope: TurnScope) {
  const { ctx } = scope.rt;
  return defineTool({
    name: 'commit_and_push',
    description: 'Commit all changes in the checkout with this message and push the ticket’s branch.',
    parameters: z.object({ message: z.string().min(1).max(2000) }),
    run: ({ message }, call) =>
      inWorkspace(scope, async (ws, login) => {
        const g = gitIn(scope, ws, login);
        const key = ctx.keys.ticketCommits(scope.ticket.id);
        let sha = await ctx.redis.hget(key, call.idempotencyKey);
        if (!sha) {
          await g.run(['add', '-A']);
          if ((await g.run(['status', '--porcelain'])) === '') return toolError('nothing to commit');
          await g.run(['commit', '-q', '-m', message]);
          sha = await g.head();
          await ctx.redis.hset(key, call.idempotencyKey, sha);
        }
        await g.net(['push', '-q', ws.cloneUrl, `${sha}:refs/heads/${ws.branch}`]);
        await addTicketRefs(ctx, scope.ticket.id, [`commit:${sha.toLowerCase()}`]);
        return toolOk(`committed ${sha.slice(0, 12)} and pushed ${ws.branch}`);
      }),
  });
}
