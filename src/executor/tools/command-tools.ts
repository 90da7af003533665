import { z } from 'zod';
import { defineTool, toolError, toolOk } from '../../session/tool.ts';
import { refKey } from '../../tickets/ref-key.ts';
import { addTicketRefs } from '../../tickets/ticket-store.ts';
import { ciChangeAskedBy } from '../ci-change-asked.ts';
import { localGit } from '../sandbox/local-git.ts';
import type { SandboxResult } from '../sandbox/run-sandboxed.ts';
import { limitNotes, runOnCheckout } from '../sandbox/sandbox-command.ts';
import { SandboxError } from '../sandbox/sandbox-error.ts';
import { sandboxSettings } from '../sandbox/sandbox-settings.ts';
import type { TurnScope } from '../turn-scope.ts';
import { ciPathspecs, namesOfZ } from '../workspace/ci-config-paths.ts';
import { addVerification, commitOfCall, recordCommit } from '../workspace/delivery-records.ts';
import { pushBranch } from '../workspace/push-branch.ts';
import { inWorkspace } from '../workspace/work-gate.ts';
import type { Workspace } from '../workspace/workspace.ts';
import { ciRefusal } from './ci-refusal.ts';

const DEFAULT_TIMEOUT_S = 120;
const MAX_TIMEOUT_S = 600;

const timeout = z.number().int().min(1).max(MAX_TIMEOUT_S).optional();

/** Read-only profiles (reviewer, explorer: R-G4) see the checkout read-only, in code. */
export const mayWriteCheckout = (scope: TurnScope) =>
  (scope.artifacts?.role.profile ?? 'worker') === 'worker';

/**
 * Runs a shell command on the checkout (R-H3): one argument to `bash -c`, in the sandbox (its own
 * namespaces, only this checkout visible at `/workspace`, a clean environment, caps on time,
 * memory, processes, output and disk), and the caps it ran into said in words.
 */
export async function runInCheckout(
  scope: TurnScope,
  ws: Workspace,
  command: string,
  seconds = DEFAULT_TIMEOUT_S,
  tool = 'run_command',
): Promise<{ ok: true; result: SandboxResult; text: string } | { ok: false; refusal: string }> {
  const { config, metrics } = scope.rt.ctx;
  const secs = Math.min(seconds, MAX_TIMEOUT_S);
  const started = performance.now();
  // Issue 17: every sandboxed command's duration, by how it ended.
  const observe = (outcome: string) =>
    metrics.sandboxCommandSeconds.observe({ tool, outcome }, (performance.now() - started) / 1000);
  try {
    const got = await runOnCheckout(config, ws, ['bash', '-c', command], {
      writable: mayWriteCheckout(scope),
      timeoutMs: secs * 1000,
      // Issue 13: code from a fork's PR runs with no network at all.
      ...(scope.forkCode ? { network: 'none' as const } : {}),
    });
    if (!got.ok) {
      observe('refused');
      return got;
    }
    const r = got.result;
    observe(r.timedOut ? 'timeout' : r.exitCode === 0 ? 'exit_zero' : 'exit_nonzero');
    const head = r.timedOut ? `timed out after ${secs} s (killed)` : `exit ${r.exitCode}`;
    const notes = limitNotes(r, sandboxSettings(config), secs);
    return { ok: true, result: r, text: [head, ...notes, r.output].join('\n') };
  } catch (err) {
    if (err instanceof SandboxError) {
      observe('refused');
      return { ok: false, refusal: err.message };
    }
    throw err;
  }
}

/** `run_command({ command, timeout_seconds? })`. */
export function runCommandTool(scope: TurnScope) {
  return defineTool({
    name: 'run_command',
    description: `Run a shell command in the checkout (bash -c), inside a sandbox where the checkout is /workspace. Time-out ${DEFAULT_TIMEOUT_S} s by default, at most ${MAX_TIMEOUT_S}; output is cut to its first and last 10 kB; memory, processes and disk are capped. No secrets of the bot are in its environment.`,
    parameters: z.object({ command: z.string().min(1), timeout_seconds: timeout }),
    run: ({ command, timeout_seconds = DEFAULT_TIMEOUT_S }) =>
      inWorkspace(scope, async (ws) => {
        const r = await runInCheckout(scope, ws, command, timeout_seconds);
        return r.ok ? toolOk(r.text) : toolError(r.refusal);
      }),
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
        const g = localGit(ctx.config, ws, login);
        const sha = await g.head();
        const dirty = (await g.run(['status', '--porcelain'])) !== '';
        const r = await runInCheckout(scope, ws, command, timeout_seconds, 'record_verification');
        if (!r.ok) return toolError(r.refusal);
        await addVerification(ctx, scope.ticket.id, {
          command,
          exitCode: r.result.exitCode,
          sha,
          dirty,
          at: ctx.now(),
        });
        const note = dirty
          ? ' (uncommitted changes present: this does not verify HEAD; commit and run again)'
          : '';
        return toolOk(`recorded at ${sha.slice(0, 12)}${note}: ${r.text}`);
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
        // Local steps run in the sandbox: the checkout's config may name programs (issue 13).
        const local = localGit(ctx.config, ws, login);
        const mayChangeCi = async (files: string[]) => Boolean(await ciChangeAskedBy(scope, ws.repo, files));
        let sha = await commitOfCall(ctx, scope.ticket.id, call.idempotencyKey);
        if (!sha) {
          await local.run(['add', '-A'], { writable: true });
          if ((await local.run(['status', '--porcelain'])) === '') return toolError('nothing to commit');
          // Issue 31: a CI change nobody with the right asked for is not even committed.
          const ci = namesOfZ(
            await local.run([
              'diff',
              '--cached',
              '-z',
              '--no-renames',
              '--name-only',
              '--',
              ...ciPathspecs(ctx.config.CI_CONFIG_PATHS),
            ]),
          );
          if (ci.length && !(await mayChangeCi(ci))) return toolError(ciRefusal(ws.repo, ci, false));
          await local.run(['commit', '-q', '-m', message], { writable: true });
          sha = await local.head();
          await recordCommit(ctx, scope.ticket.id, call.idempotencyKey, sha);
        }
        const pushed = await pushBranch(ctx, ws, scope.ticket.id, sha, mayChangeCi);
        if (!pushed.ok) return toolError(ciRefusal(ws.repo, pushed.ciFiles, true));
        await addTicketRefs(ctx, scope.ticket.id, [refKey({ type: 'commit', sha })]);
        return toolOk(`committed ${sha.slice(0, 12)} and pushed ${ws.branch}`);
      }),
  });
}
